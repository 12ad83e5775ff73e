import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { drivePackets, NOW, referenceLaps, startFedLogger, storedLaps } from "./_telemetry_feed.ts";

const CLIENTS = 50;
const IMPORTS_PER_CLIENT = 2;
const CIRCUITS = 10;
const CELLS = 1_000;
const SEED = 29;
/** How long the logger may take to decode what was sent: only a hang (a lost packet) runs into it. */
const HANG_MS = 120_000;

/**
 * The document client `client` sends on its `k`-th import. Clients 0-9 and
 * 10-19 send identical documents (the same bundle twice, concurrently); the
 * others add their own source's cells to one of ten circuits, on x ranges no
 * other document uses, so the merged result cannot depend on arrival order.
 */
function documentFor(client: number, k: number): Record<string, unknown> {
  const owner = client < 20 ? client % 10 : client;
  const circuit = (owner + k) % CIRCUITS;
  const source = (0xa00000 + owner * 16 + k).toString(16);
  const x0 = (owner * IMPORTS_PER_CLIENT + k) * CELLS * 2;
  return {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: {
      track: `Load Ring ${circuit}`,
      runs: 1,
      source_runs: { [source]: 1 },
      updated_at: "2026-11-20T00:00:00Z",
      official: null,
    },
    edges: Array.from({ length: CELLS }, (_, i) => ({
      x: x0 + i,
      z: circuit * 50,
      y: 3.5,
      hx: 1,
      hz: 0,
      side: i % 2 ? "L" : "R",
      kind: "auto",
      votes: { auto: { [source]: [1, 1] } },
      run: 1,
      tw: 1.6,
    })),
    finish_crossings: [],
    corners: [],
    sections: [],
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

Deno.test({
  name: `load: ${CLIENTS} clients import ${
    CLIENTS * IMPORTS_PER_CLIENT
  } bundles over HTTP while telemetry records at 60 Hz`,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const packets = await drivePackets(SEED, 2);
  const expectedLaps = await referenceLaps(packets);

  // The sequential run: the same documents, one after another, in a fresh store.
  const seqKv = await Deno.openKv(":memory:");
  const seq = await createApp({ kv: seqKv, now: NOW });
  for (let c = 0; c < CLIENTS; c++) {
    for (let k = 0; k < IMPORTS_PER_CLIENT; k++) await seq.bundles.import(documentFor(c, k));
  }
  const expectedBundles = new Map<string, string>();
  for (const row of await seq.bundles.list()) {
    expectedBundles.set(row.slug, serialiseBundle(await seq.bundles.export(row.slug)));
  }
  seqKv.close();
  assert.equal(expectedBundles.size, CIRCUITS);

  const fed = await startFedLogger();
  const { logger } = fed;
  const bodies = Array.from(
    { length: CLIENTS },
    (_, c) =>
      Array.from({ length: IMPORTS_PER_CLIENT }, (_, k) => JSON.stringify(documentFor(c, k))),
  );
  const latencies: number[] = [];
  const failures: string[] = [];
  try {
    const { seconds } = await fed.feed(packets, 25 * 60, async () => {
      await Promise.all(bodies.map(async (mine) => {
        for (const body of mine) {
          const t0 = performance.now();
          const res = await fetch(`${logger.http.url}/api/track-bundles/import`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          const text = await res.text();
          latencies.push(performance.now() - t0);
          if (res.status !== 200) failures.push(`${res.status} ${text.slice(0, 200)}`);
        }
      }));
    });
    latencies.sort((a, b) => a - b);
    console.log(
      `load: ${latencies.length} imports of ${CELLS} cells by ${CLIENTS} clients during ` +
        `${seconds.toFixed(1)} s of 60 Hz telemetry; latency ms p50 ${
          percentile(latencies, 0.5).toFixed(0)
        } ` +
        `p95 ${percentile(latencies, 0.95).toFixed(0)} max ${latencies.at(-1)!.toFixed(0)}`,
    );
    assert.deepEqual(failures, []);
    assert.equal(latencies.length, CLIENTS * IMPORTS_PER_CLIENT);

    for (const [slug, doc] of expectedBundles) {
      const res = await fetch(`${logger.http.url}/api/track-bundles/${slug}`);
      assert.equal(res.status, 200);
      const got = serialiseBundle(await res.json());
      assert.equal(
        got,
        doc,
        `bundle ${slug} differs from a sequential run`,
      );
    }
    assert.equal((await logger.app.bundles.list()).length, CIRCUITS);

    // The feed waits a while for the logger to decode everything; on a busy machine it may
    // still be working through its queue then. Every packet must arrive: wait for the last.
    const deadline = performance.now() + HANG_MS;
    while (logger.udp.status().decoded < packets.length && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await logger.app.live.flush();
    const status = logger.udp.status();
    assert.equal(status.decoded, packets.length);
    assert.equal(status.missing, 0);
    assert.deepEqual(await storedLaps(logger.app.kv), expectedLaps);
  } finally {
    await fed.close();
  }
});
