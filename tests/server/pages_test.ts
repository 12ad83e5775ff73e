import { strict as assert } from "node:assert";
import { homeRoutes } from "../../src/server/routes/home.ts";
import { PAGE_FILES } from "../../src/server/routes/pages.ts";
import { withServer } from "./_server.ts";

/** The text of `name` in src/web/. */
const source = (name: string) =>
  Deno.readTextFile(new URL(`../../src/web/${name}`, import.meta.url));

/** The pages' own scripts: every script they serve but the vendored library. */
const SCRIPTS = Object.values(PAGE_FILES).filter((f) =>
  f.endsWith(".js") && !f.startsWith("vendor/")
);

Deno.test("GET /laps, /compare and their files answer with their types, no-cache, their text in src/web", async () => {
  await withServer(async (url) => {
    for (const [path, name] of Object.entries(PAGE_FILES)) {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 200, path);
      const type = name.endsWith(".html")
        ? "text/html; charset=utf-8"
        : name.endsWith(".css")
        ? "text/css; charset=utf-8"
        : "text/javascript; charset=utf-8";
      assert.equal(res.headers.get("content-type"), type, path);
      assert.equal(res.headers.get("cache-control"), "no-cache", path);
      assert.equal(await res.text(), await source(name), path);
    }
    // The query string is the page's state: the same page answers.
    const deep = await fetch(`${url}/compare?laps=1,2&ref=2&from=10&to=20`);
    assert.equal(await deep.text(), await source("pages.html"));
    const res = await fetch(`${url}/compare`, { method: "POST" });
    assert.equal(res.status, 405);
    await res.body?.cancel();
  });
});

Deno.test("each page file has a strong ETag; If-None-Match with it answers 304 without a body, another tag the file", async () => {
  await withServer(async (url) => {
    const tags = new Set<string>();
    for (const path of Object.keys(PAGE_FILES)) {
      const first = await fetch(`${url}${path}`);
      const etag = first.headers.get("etag");
      await first.body?.cancel();
      assert.ok(etag !== null && /^"[0-9a-f]{8}-[0-9a-f]+"$/.test(etag), `${path} ${etag}`);
      tags.add(etag);
      const again = await fetch(`${url}${path}`, { headers: { "If-None-Match": `"x", ${etag}` } });
      assert.equal(again.status, 304, path);
      assert.equal(again.headers.get("etag"), etag, path);
      assert.equal(again.headers.get("cache-control"), "no-cache", path);
      assert.equal(await again.text(), "", path);
      const other = await fetch(`${url}${path}`, { headers: { "If-None-Match": '"00000000-0"' } });
      assert.equal(other.status, 200, path);
      assert.equal(await other.text(), await source(PAGE_FILES[path]), path);
    }
    // Different files, different tags (/laps and /compare are one file).
    assert.equal(tags.size, new Set(Object.values(PAGE_FILES)).size);
  });
});

Deno.test("the pages load nothing from elsewhere: every file they name is served here", async () => {
  const served = new Set(Object.keys(PAGE_FILES));
  // The live page's files (its address, the icon every page links) are served here too.
  const home = new Set(homeRoutes().operations.map((o) => o.path));
  for (const html of ["pages.html"]) {
    const refs = [...(await source(html)).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) {
      assert.ok(home.has(ref) || served.has(ref), `${html} names ${ref}`);
    }
  }
  for (const js of ["pages.html", ...SCRIPTS]) {
    const imports = [...(await source(js)).matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    for (const i of imports) assert.ok(served.has(i.replace(/^\.\//, "/")), `${js} imports ${i}`);
  }
});

Deno.test("the pages call only documented routes of the public API", async () => {
  await withServer(async (url) => {
    const doc = await (await fetch(`${url}/api/openapi.json`)).json();
    const routes = Object.keys(doc.paths).map((p) =>
      new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`)
    );
    const called = new Set<string>();
    for (const js of SCRIPTS) {
      for (const m of (await source(js)).matchAll(/\/api\/[^"`?\s)]*/g)) {
        // A template's ${...} stands for one path segment.
        called.add(m[0].replace(/\$\{[^}]*\}/g, "x"));
      }
    }
    assert.ok(called.size >= 8, [...called].join(" "));
    for (const path of called) {
      assert.ok(routes.some((r) => r.test(path)), `${path} is not a documented route`);
    }
  });
});

Deno.test("the vendored uPlot is the npm package uplot@1.6.32's files, unchanged", async () => {
  const sha = async (text: string) =>
    Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
  assert.equal(
    await sha(await source("vendor/uplot.iife.min.js")),
    "19c8d4c6ad88929a79f4ae49d6f7161566dfd0ba3d15cc495e974f787eb78f1f",
  );
  assert.equal(
    await sha(await source("vendor/uplot.min.css")),
    "df630c6a8d6f8eeaff264b50f73ce5b114f646ffd9a0bb74f049b0a00135fa04",
  );
});
