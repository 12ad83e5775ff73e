import { strict as assert } from "node:assert";
import { createRng } from "../../src/core/synthetic/random.ts";
import { drivePackets, referenceLaps, startFedLogger, storedLaps } from "./_telemetry_feed.ts";

/** Seconds of abuse; the issue asks for 60. ABUSE_SECONDS shortens it while developing. */
const SECONDS = Number(Deno.env.get("ABUSE_SECONDS") ?? 60);
const GARBAGE_PER_SECOND = 5_000;
const SEED = 29; // the synthetic circuit with the shortest laps (73 s)
const VALID_SIZES = new Set([296, 316, 344, 368]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Datagrams of every bad kind: valid sizes with random bytes, short, and odd sizes. */
function garbagePool(count: number): Uint8Array[] {
  const rng = createRng(5);
  return Array.from({ length: count }, (_, i) => {
    let size: number;
    if (i % 3 === 0) size = [296, 316, 344, 368][i % 4];
    else if (i % 3 === 1) size = 1 + Math.floor(rng.next() * 295);
    else {
      do size = 369 + Math.floor(rng.next() * 1000); while (VALID_SIZES.has(size));
    }
    const bytes = new Uint8Array(size);
    for (let b = 0; b < size; b++) bytes[b] = Math.floor(rng.next() * 256);
    return bytes;
  });
}

Deno.test({
  name:
    `UDP abuse: ${SECONDS} s of 60 Hz telemetry with ${GARBAGE_PER_SECOND} bad datagrams/s changes no lap and keeps memory flat`,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const packets = await drivePackets(SEED, 2);
  const expected = await referenceLaps(packets);
  assert.equal(expected.length, 2, "the drive stores its two timed laps");

  const fed = await startFedLogger();
  const { logger } = fed;
  const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: logger.udp.port };
  const bad = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const pool = garbagePool(997);
  let garbageSent = 0;
  const rss: number[] = [];
  try {
    const { seconds } = await fed.feed(packets, SECONDS * 60, async () => {
      const start = performance.now();
      let nextSample = start + 5_000;
      // 50 datagrams every 10 ms: 5,000 a second, spread evenly.
      while (performance.now() - start < SECONDS * 1000) {
        const due = Math.floor((performance.now() - start) * GARBAGE_PER_SECOND / 1000);
        while (garbageSent < due) await bad.send(pool[garbageSent++ % pool.length], to);
        if (performance.now() >= nextSample) {
          rss.push(Deno.memoryUsage().rss);
          nextSample += 5_000;
        }
        await sleep(10);
      }
    });

    const status = logger.udp.status();
    console.log(
      `abuse: ${Math.min(packets.length, SECONDS * 60)} valid packets at 60 Hz over ` +
        `${seconds.toFixed(1)} s with ${garbageSent} bad datagrams; rejected ${status.rejected}; ` +
        `rss MiB every 5 s: ${rss.map((r) => (r / 2 ** 20).toFixed(0)).join(" ")}`,
    );
    assert.equal(status.decoded, packets.length, "every valid packet decoded");
    assert.equal(status.missing, 0);
    assert.equal(status.duplicates, 0);
    // The kernel may drop bad datagrams when the socket is full; none may pass as valid.
    assert.ok(status.rejected <= garbageSent);
    assert.ok(
      status.rejected >= garbageSent * 0.9,
      `rejected ${status.rejected} of ${garbageSent}`,
    );
    assert.equal(status.packets_received, status.decoded + status.rejected);
    assert.deepEqual(await storedLaps(logger.app.kv), expected);
    // Flat memory: after warm-up, resident size grows by less than 32 MiB.
    if (rss.length >= 3) {
      const growth = Math.max(...rss.slice(1)) - rss[1];
      assert.ok(growth < 32 * 2 ** 20, `rss grew ${(growth / 2 ** 20).toFixed(1)} MiB`);
    }
  } finally {
    bad.close();
    await fed.close();
  }
});
