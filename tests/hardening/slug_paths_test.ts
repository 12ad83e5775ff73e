import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { MAX_SLUG_CHARS, slugify } from "../../src/core/bundle/slug.ts";

/** Every route that takes a bundle slug, with the body a change needs. */
const ROUTES: [method: string, path: (slug: string) => string, body?: unknown][] = [
  ["GET", (s) => `/api/track-bundles/${s}`],
  ["GET", (s) => `/api/track-bundles/${s}/compiled`],
  ["GET", (s) => `/api/track-bundles/${s}/map.svg`],
  ["GET", (s) => `/api/track-bundles/${s}/corners`],
  ["GET", (s) => `/api/track-bundles/${s}/sections`],
  ["GET", (s) => `/api/track-bundles/${s}/official-suggestion`],
  ["PUT", (s) => `/api/track-bundles/${s}/corners`, { corners: [] }],
  ["PUT", (s) => `/api/track-bundles/${s}/sections`, { sections: [] }],
  ["PUT", (s) => `/api/track-bundles/${s}/official`, { official: null }],
  ["PATCH", (s) => `/api/track-bundles/${s}`, { track: "Elsewhere" }],
  ["DELETE", (s) => `/api/track-bundles/${s}`],
];

/** Traversal attempts and near-miss slugs, as they would appear in a URL. */
const BAD_SLUGS = [
  "..",
  "%2e%2e",
  "..%2f..%2fetc%2fpasswd",
  "..%5c..%5cwindows",
  "spa%2f..%2fsuzuka",
  "Spa",
  "SPA",
  "spa-",
  "-spa",
  "spa--francorchamps",
  "spa_francorchamps",
  "spa%20francorchamps",
  "spa%00",
  "sp%C3%A4",
  "spa.json",
  "%252e%252e",
  // Canonical but longer than any circuit name slugifies to: KV refuses keys that long.
  "a".repeat(161),
  "a".repeat(2_040),
  "ab-".repeat(700) + "ab",
];

async function allKeys(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    out.push(`${JSON.stringify(e.key)}@${e.versionstamp}`);
  }
  return out;
}

Deno.test("every slug route refuses traversal and non-canonical slugs without touching the store", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const http = createHttpApp(app);
  const before = await allKeys(kv);
  let checked = 0;
  for (const slug of BAD_SLUGS) {
    for (const [method, path, body] of ROUTES) {
      const res = await http.fetch(
        new Request(`http://127.0.0.1${path(slug)}`, {
          method,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      const text = await res.text();
      const where = `${method} ${path(slug)}`;
      // 400 names the rule; a slug that leaves its path segment matches no route (404).
      assert.ok(res.status === 400 || res.status === 404, `${where}: ${res.status} ${text}`);
      assert.equal(res.headers.get("content-type"), "application/problem+json", where);
      if (res.status === 400) {
        const problem = JSON.parse(text);
        assert.equal(problem.errors[0].path, "path.slug", where);
      }
      checked++;
    }
  }
  assert.equal(checked, BAD_SLUGS.length * ROUTES.length);
  assert.deepEqual(await allKeys(kv), before, "nothing was written");
  kv.close();
});

Deno.test("the longest slug a circuit name can give is accepted by every slug route", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const http = createHttpApp(app);
  // 80 x "İ" is the longest name: each lowercases to "i" and a combining dot.
  const longest = slugify("İ".repeat(80));
  assert.equal(longest.length, MAX_SLUG_CHARS - 1);
  for (const slug of [longest, "a".repeat(MAX_SLUG_CHARS)]) {
    for (const [method, path] of ROUTES.filter(([m]) => m === "GET")) {
      const res = await http.fetch(new Request(`http://127.0.0.1${path(slug)}`, { method }));
      await res.body?.cancel();
      assert.equal(res.status, 404, `${method} ${path(slug)}: a valid slug of no bundle`);
    }
  }
  kv.close();
});
