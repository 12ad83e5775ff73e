import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { BadRequest, ImportRejected } from "../../src/core/errors.ts";
import { clone, legacyDoc, ME, v4Doc } from "../core/bundle/arbitraries.ts";
import { syntheticBundle } from "../_bundles.ts";

/** Two apps over fresh stores with the same clock: one imports parsed JSON, one bytes. */
async function withApps(fn: (json: App, bytes: App) => Promise<void>): Promise<void> {
  const kvs = [await Deno.openKv(":memory:"), await Deno.openKv(":memory:")];
  const clock = () => new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
  try {
    const [a, b] = await Promise.all(kvs.map((kv) => createApp({ kv, now: clock })));
    await fn(a, b);
  } finally {
    for (const kv of kvs) kv.close();
  }
}

/** Every bundle head and chunk in the store: what imports wrote. */
async function stored(app: App): Promise<string> {
  const out: unknown[] = [];
  for (const prefix of ["bundle", "bundle_chunk"]) {
    for await (const e of app.kv.list({ prefix: [prefix] })) out.push([e.key, e.value]);
  }
  return JSON.stringify(out, (_, v) => v instanceof Uint8Array ? [...v] : v);
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** What an import gave: its result or its error's class, message and issues. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    return `ok ${JSON.stringify(await run())}`;
  } catch (err) {
    const issues = err instanceof ImportRejected ? err.issues : null;
    return `${(err as Error).name} ${(err as Error).message} ${JSON.stringify(issues)}`;
  }
}

Deno.test("importing bytes answers and stores exactly what importing parsed JSON does", async () => {
  const docs: unknown[] = [
    syntheticBundle({ cells: 3_000, sources: [ME, "0badc0ffee01"], runs: 6, seed: 4 }),
    v4Doc(5),
    legacyDoc(4, { version: 3 }),
  ];
  await withApps(async (json, bytes) => {
    for (const doc of docs) {
      const text = JSON.stringify(doc, null, docs.indexOf(doc) === 1 ? 2 : undefined);
      const a = await outcome(() => json.bundles.import(JSON.parse(text), { track: "Same Ring" }));
      const b = await outcome(() => bytes.bundles.importBytes(utf8(text), { track: "Same Ring" }));
      assert.match(a, /^ok /);
      assert.equal(b, a);
    }
    assert.equal(await stored(bytes), await stored(json));
  });
});

Deno.test("bytes that are not a valid bundle are refused as parsed JSON is, nothing written", async () => {
  const broken = clone(v4Doc(3)) as { edges: { votes: unknown; side: unknown }[] };
  broken.edges[1].votes = {};
  broken.edges[2].side = "X";
  await withApps(async (json, bytes) => {
    const before = await stored(bytes);
    const a = await outcome(() => json.bundles.import(broken));
    const b = await outcome(() => bytes.bundles.importBytes(utf8(JSON.stringify(broken))));
    assert.match(a, /^ImportRejected /);
    assert.equal(b, a);
    assert.equal(await stored(bytes), before);
    await assert.rejects(
      bytes.bundles.importBytes(utf8('{"format": ')),
      (err: Error) => err instanceof BadRequest && /^body is not valid JSON: /.test(err.message),
    );
    await assert.rejects(
      bytes.bundles.importBytes(new Uint8Array([0x7b, 0xff, 0x7d])),
      (err: Error) => err instanceof BadRequest && err.message === "body is not valid UTF-8",
    );
    await assert.rejects(
      bytes.bundles.importBytes(utf8(JSON.stringify(v4Doc(2))), { track: "  " }),
      BadRequest,
    );
    assert.equal(await stored(bytes), before);
  });
});

Deno.test("bytes that are not JSON are refused as not JSON before a blank track is", async () => {
  await withApps(async (_json, bytes) => {
    await assert.rejects(
      bytes.bundles.importBytes(utf8("{nope"), { track: " " }),
      (err: Error) => err instanceof BadRequest && /^body is not valid JSON: /.test(err.message),
    );
    await assert.rejects(
      bytes.bundles.importBytes(utf8(JSON.stringify(v4Doc(2))), { track: " " }),
      (err: Error) =>
        err instanceof BadRequest &&
        err.message === "track is blank: give 1 to 80 characters that are not all spaces",
    );
  });
});
