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
    assert.deepEqual(refs, ["/favicon.svg", "/live.css", "/live.js"]);
    const imports = [...(await source("live.js")).matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(imports, ["./cues.js", "./live_sectors.js", "./hub_message_box.js"]);
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
