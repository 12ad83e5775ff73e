import { strict as assert } from "node:assert";
import fc from "fast-check";
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { parseLapFile } from "../../src/core/laps/lap_file.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { type Json, mutate, mutationsArb, storeFingerprint } from "./_mutation.ts";
import { FUZZ_RUNS, FUZZ_SEED } from "./_fuzz_runs.ts";

/** Valid lap files: a bare version 2 file, one with every optional field, and a version 1 file. */
function seeds(): Json[] {
  const bare = minimalLapFile(12) as unknown as Json;
  const full = minimalLapFile(8, {
    car_id: 3235,
    fuel_consumed: 1.25,
    finished_at: "2026-11-21T10:00:00Z",
    gearing: { ratios: [3.1, 2.2, 1.7], top_speed: 280, rpm_alert: 8200 },
    events: [{ type: "lockup", start_dist: 10, end_dist: 20, severity: 0.5 }],
  }) as unknown as Json;
  const v1 = structuredClone(full) as Record<string, Json>;
  v1.version = 1;
  return [bare, full, v1];
}

Deno.test({
  name:
    `lap import: ${FUZZ_RUNS} mutated files are accepted and re-export valid, or refused with 4xx and no write`,
  sanitizeOps: false,
}, async () => {
  let kv = await Deno.openKv(":memory:");
  let app = await createApp({ kv, now: () => new Date("2026-11-21T12:00:00Z") });
  let http = createHttpApp(app);
  const tally = { accepted: 0, refused: 0 };
  const statuses = new Map<number, number>();
  const bases = seeds();
  // A fresh store now and then keeps the fingerprint scan short.
  const renew = async () => {
    if (tally.accepted % 20 !== 0) return;
    kv.close();
    kv = await Deno.openKv(":memory:");
    app = await createApp({ kv, now: () => new Date("2026-11-21T12:00:00Z") });
    http = createHttpApp(app);
  };
  for (const base of bases) parseLapFile(base); // the seeds themselves are valid

  const property = fc.asyncProperty(
    fc.nat({ max: bases.length - 1 }),
    mutationsArb,
    fc.nat({ max: 99 }),
    async (base, mutations, rawCut) => {
      let body = JSON.stringify(mutate(bases[base], mutations));
      if (rawCut < 5) body = body.slice(0, Math.floor(body.length * rawCut / 5));
      const before = await storeFingerprint(kv);
      const res = await http.fetch(
        new Request("http://127.0.0.1/api/laps/import", { method: "POST", body }),
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const text = await res.text();
      assert.ok(res.status < 500, `5xx for ${body.slice(0, 300)}: ${text}`);
      if (res.status !== 201) {
        assert.ok(res.status >= 400, `status ${res.status}`);
        assert.equal(res.headers.get("content-type"), "application/problem+json");
        assert.equal(await storeFingerprint(kv), before, `a refused import wrote: ${text}`);
        tally.refused++;
        return;
      }
      tally.accepted++;
      const { lap } = JSON.parse(text) as { lap: { id: number } };
      const exported = await http.fetch(
        new Request(`http://127.0.0.1/api/laps/${lap.id}/export.json`),
      );
      assert.equal(exported.status, 200);
      const file = await exported.json();
      parseLapFile(file);
      // Storing a lap costs milliseconds; the round trips below sample every tenth.
      if (tally.accepted % 10 !== 1) {
        await renew();
        return;
      }
      const csv = await http.fetch(new Request(`http://127.0.0.1/api/laps/${lap.id}/export.csv`));
      assert.equal(csv.status, 200);
      await csv.body?.cancel();
      const re = await http.fetch(
        new Request("http://127.0.0.1/api/laps/import", {
          method: "POST",
          body: JSON.stringify(file),
        }),
      );
      assert.equal(re.status, 201, await re.clone().text());
      assert.deepEqual((await re.json()).lap.time_ms, file.lap.time_ms);
      await renew();
    },
  );
  await fc.assert(property, { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true });
  console.log(
    `lap fuzz: ${FUZZ_RUNS} inputs, ${tally.accepted} accepted, ${tally.refused} refused; ` +
      `statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  assert.equal(tally.accepted + tally.refused, FUZZ_RUNS);
  assert.ok(tally.accepted > FUZZ_RUNS / 20, `accepted ${tally.accepted}`);
  assert.ok(tally.refused > FUZZ_RUNS / 4, `refused ${tally.refused}`);
  kv.close();
});
