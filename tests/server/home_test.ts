import { strict as assert } from "node:assert";
import { withServer } from "./_server.ts";

/** The text of `name` in src/web/. */
const source = (name: string) =>
  Deno.readTextFile(new URL(`../../src/web/${name}`, import.meta.url));

Deno.test("GET / is the live page; its script, cue rules and style answer with their types", async () => {
  await withServer(async (url) => {
    const want: [string, string, string][] = [
      ["/", "text/html; charset=utf-8", "live.html"],
      ["/live.js", "text/javascript; charset=utf-8", "live.js"],
      ["/cues.js", "text/javascript; charset=utf-8", "cues.js"],
      ["/live_sectors.js", "text/javascript; charset=utf-8", "live_sectors.js"],
      ["/wake_lock.js", "text/javascript; charset=utf-8", "wake_lock.js"],
      ["/live_map.js", "text/javascript; charset=utf-8", "live_map.js"],
      ["/shared_map.js", "text/javascript; charset=utf-8", "shared_map.js"],
      ["/manifest.webmanifest", "application/manifest+json", "manifest.webmanifest"],
      ["/hub_message.js", "text/javascript; charset=utf-8", "hub_message.js"],
      ["/hub_message_box.js", "text/javascript; charset=utf-8", "hub_message_box.js"],
      ["/live.css", "text/css; charset=utf-8", "live.css"],
      // The icon every page links, and where browsers ask for one unasked (else a 404 logged).
      ["/favicon.svg", "image/svg+xml", "favicon.svg"],
      ["/favicon.ico", "image/svg+xml", "favicon.svg"],
    ];
    for (const [path, type, name] of want) {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("content-type"), type, path);
      assert.equal(res.headers.get("cache-control"), "no-cache", path);
      assert.equal(await res.text(), await source(name), path);
    }
    // Nothing from elsewhere: every script and style the page names is one of these.
    const html = await source("live.html");
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).sort();
    assert.deepEqual(refs, [
      "/favicon.svg",
      "/icons/icon-192.png",
      "/live.css",
      "/live.js",
      "/manifest.webmanifest",
    ]);
    const imports = [...(await source("live.js")).matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(imports, [
      "./cues.js",
      "./live_sectors.js",
      "./live_map.js",
      "./wake_lock.js",
      "./hub_message_box.js",
    ]);
    const boxImports = [...(await source("hub_message_box.js")).matchAll(/from "([^"]+)"/g)];
    assert.deepEqual(boxImports.map((m) => m[1]), ["./hub_message.js"]);
    // Both documents link the icon.
    for (const page of ["live.html", "pages.html"]) {
      assert.match(
        await source(page),
        /<link rel="icon" href="\/favicon.svg" type="image\/svg\+xml">/,
      );
    }
    const res = await fetch(`${url}/`, { method: "POST" });
    assert.equal(res.status, 405);
    await res.body?.cancel();
  });
});

Deno.test("the manifest installs the page full screen, and every icon it names answers as a PNG of its size", async () => {
  await withServer(async (url) => {
    const res = await fetch(`${url}/manifest.webmanifest`);
    assert.equal(res.status, 200);
    const manifest = await res.json();
    assert.equal(manifest.start_url, "/");
    assert.equal(manifest.display, "fullscreen");
    assert.equal(manifest.orientation, "any");
    assert.equal(manifest.theme_color, "#000000");
    assert.equal(manifest.background_color, "#000000");
    assert.ok(manifest.name && manifest.short_name.length <= 12, manifest.short_name);
    const pngs = manifest.icons.filter((i: { type: string }) => i.type === "image/png");
    assert.deepEqual(
      pngs.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`),
      ["192x192 any", "512x512 any", "192x192 maskable", "512x512 maskable"],
    );
    for (const icon of pngs) {
      const got = await fetch(`${url}${icon.src}`);
      assert.equal(got.status, 200, icon.src);
      assert.equal(got.headers.get("content-type"), "image/png", icon.src);
      const bytes = new Uint8Array(await got.arrayBuffer());
      const disk = await Deno.readFile(new URL(`../../src/web${icon.src}`, import.meta.url));
      assert.deepEqual(bytes, disk, icon.src);
      // The PNG signature, then IHDR's width and height (big-endian, at 16 and 20).
      assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47], icon.src);
      const view = new DataView(bytes.buffer);
      const side = Number(icon.sizes.split("x")[0]);
      assert.deepEqual([view.getUint32(16), view.getUint32(20)], [side, side], icon.src);
    }
  });
});
