import { strict as assert } from "node:assert";
import fc from "fast-check";
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { legacyDoc, v1DocArb, v4Doc } from "../core/bundle/arbitraries.ts";
import { type Json, mutate, mutationsArb, storeFingerprint } from "./_mutation.ts";
import { FUZZ_RUNS, FUZZ_SEED } from "./_fuzz_runs.ts";

/** Valid documents of every version, with every optional v4 list filled. */
function seeds(): Json[] {
  const v4 = v4Doc(5, { track: "Fuzz Ring" }) as Record<string, Json>;
  v4.finish_crossings = [{ x: 1, z: 2, hx: 0, hz: 1, lap: 2 }];
  v4.corners = [{
    n: 1,
    name: "Hairpin",
    direction: "L",
    apex: { x: 1, z: 2 },
    entry: { x: 0, z: 2 },
    exit: null,
    note: "late apex",
  }];
  v4.sections = [{ n: 1, name: "Sector 1", start: { x: 0, z: 0 }, end: { x: 4, z: 0 } }];
  (v4.meta as Record<string, Json>).official = {
    track: "Fuzz",
    layout: "Full",
    official_id: "fz-1",
    official_name: "Fuzz Ring Full",
    turns: 3,
    length_m: 1200,
    reverse: false,
  };
  const v1 = fc.sample(v1DocArb, { seed: 1, numRuns: 1 })[0] as Json;
  return [v4, legacyDoc(4) as Json, legacyDoc(3, { version: 3 }) as Json, v1];
}

Deno.test({
  name:
    `bundle import: ${FUZZ_RUNS} mutated documents are accepted and re-export valid, or refused with 4xx and no write`,
  // A run takes tens of seconds on a CI machine.
  sanitizeOps: false,
}, async () => {
  let kv = await Deno.openKv(":memory:");
  let app = await createApp({ kv, now: () => new Date("2026-11-21T12:00:00Z") });
  let http = createHttpApp(app);
  const tally = { accepted: 0, refused: 0, notJson: 0 };
  const statuses = new Map<number, number>();
  const bases = seeds();

  const property = fc.asyncProperty(
    fc.nat({ max: bases.length - 1 }),
    mutationsArb,
    fc.nat({ max: 99 }),
    async (base, mutations, rawCut) => {
      const doc = mutate(bases[base], mutations);
      let body = JSON.stringify(doc);
      // One input in twenty is broken JSON: cut short at a random place.
      const broken = rawCut < 5;
      if (broken) body = body.slice(0, Math.floor(body.length * rawCut / 5));
      const before = await storeFingerprint(kv);
      const res = await http.fetch(
        new Request("http://127.0.0.1/api/track-bundles/import", { method: "POST", body }),
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const text = await res.text();
      assert.ok(res.status < 500, `5xx for ${body.slice(0, 300)}: ${text}`);
      if (res.status !== 200) {
        assert.ok(res.status >= 400, `status ${res.status}`);
        assert.equal(res.headers.get("content-type"), "application/problem+json");
        assert.equal(await storeFingerprint(kv), before, `a refused import wrote: ${text}`);
        tally.refused++;
        if (broken) tally.notJson++;
        return;
      }
      tally.accepted++;
      const { slug } = JSON.parse(text) as { slug: string };
      const exported = await http.fetch(new Request(`http://127.0.0.1/api/track-bundles/${slug}`));
      assert.equal(exported.status, 200);
      const again = await exported.json();
      validateBundle(again);
      // Re-importing what was exported changes no cell.
      const re = await http.fetch(
        new Request("http://127.0.0.1/api/track-bundles/import", {
          method: "POST",
          body: JSON.stringify(again),
        }),
      );
      assert.equal(re.status, 200);
      assert.equal((await re.json()).added_edges, 0);
      // A fresh store now and then keeps the fingerprint scan short.
      if (tally.accepted % 20 === 0) {
        kv.close();
        kv = await Deno.openKv(":memory:");
        app = await createApp({ kv, now: () => new Date("2026-11-21T12:00:00Z") });
        http = createHttpApp(app);
      }
    },
  );
  await fc.assert(property, { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true });
  console.log(
    `bundle fuzz: ${FUZZ_RUNS} inputs, ${tally.accepted} accepted, ${tally.refused} refused ` +
      `(${tally.notJson} not JSON); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  assert.equal(tally.accepted + tally.refused, FUZZ_RUNS);
  // Both outcomes must be exercised, or the fuzzer tests nothing.
  assert.ok(tally.accepted > FUZZ_RUNS / 20, `accepted ${tally.accepted}`);
  assert.ok(tally.refused > FUZZ_RUNS / 4, `refused ${tally.refused}`);
  kv.close();
});
