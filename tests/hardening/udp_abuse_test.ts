import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/context.ts";
import { encryptPacket } from "../../src/core/gt7/cipher.ts";
import { decodeFrame, readCurrentLap } from "../../src/core/gt7/decode.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { createRng } from "../../src/core/synthetic/random.ts";
import { openReplaySource } from "../../src/server/replay_source.ts";
import { startLogger } from "../../src/server/logger.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { listSessions } from "../../src/storage/sessions.ts";

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

/** Every stored lap, without what differs between two stores (ids, wall-clock times). */
async function storedLaps(kv: Deno.Kv): Promise<Omit<Lap, "id" | "session_id" | "finished_at">[]> {
  const out = [];
  for (const session of await listSessions(kv)) {
    for (const summary of await listLaps(kv, session.id)) {
      const { id: _i, session_id: _s, finished_at: _f, ...lap } = (await getLap(kv, summary.id))!;
      out.push(lap);
    }
  }
  return out;
}

Deno.test({
  name:
    `UDP abuse: ${SECONDS} s of 60 Hz telemetry with ${GARBAGE_PER_SECOND} bad datagrams/s changes no lap and keeps memory flat`,
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const source = await openReplaySource(`synthetic:${SEED}`, { laps: 2 });
  const packets = [...source.packets()];
  const underAbuse = Math.min(packets.length, SECONDS * 60);

  // The reference: the same frames fed straight into a fresh application.
  const refKv = await Deno.openKv(":memory:");
  const ref = await createApp({ kv: refKv, now: () => new Date("2026-11-21T12:00:00Z") });
  for (const p of packets) ref.live.ingest(decodeFrame(p));
  await ref.live.flush();
  const expected = await storedLaps(refKv);
  refKv.close();
  assert.equal(expected.length, 2, "the drive stores its two timed laps");

  // The logger heartbeats to a socket the test drains; telemetry comes from another.
  const heartbeatSink = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const drain = (async () => {
    try {
      for await (const _ of heartbeatSink) { /* discard */ }
    } catch { /* closed */ }
  })();
  const logger = await startLogger({
    data: ":memory:",
    host: "127.0.0.1",
    port: 0,
    console: "127.0.0.1",
    consolePort: (heartbeatSink.addr as Deno.NetAddr).port,
    udpPort: 0,
    format: "C",
    now: () => new Date("2026-11-21T12:00:00Z"),
  });
  const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: logger.udp.port };
  const valid = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const bad = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const pool = garbagePool(997);
  let garbageSent = 0;
  const rss: number[] = [];
  try {
    const start = performance.now();
    let sent = 0;
    let abuse = true;
    const abuser = (async () => {
      // 50 datagrams every 10 ms: 5,000 a second, spread evenly.
      while (abuse) {
        const due = Math.floor((performance.now() - start) * GARBAGE_PER_SECOND / 1000);
        while (garbageSent < due) await bad.send(pool[garbageSent++ % pool.length], to);
        await sleep(10);
      }
    })();
    const sendValid = async (i: number) => {
      await valid.send(
        encryptPacket(packets[i], (Math.imul(i + 1, 2654435761) ^ 0x5bd1e995) >>> 0),
        to,
      );
    };
    let nextSample = start + 5_000;
    while (sent < underAbuse) {
      const due = start + (sent * 1000) / 60;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      await sendValid(sent++);
      if (performance.now() >= nextSample) {
        rss.push(Deno.memoryUsage().rss);
        nextSample += 5_000;
      }
    }
    abuse = false;
    await abuser;
    // The rest of the drive, as fast as the logger keeps up, pausing at each lap end.
    let lastLap = readCurrentLap(packets[sent - 1]);
    while (sent < packets.length) {
      while (sent - logger.udp.status().decoded >= 64) await sleep(1);
      const lap = readCurrentLap(packets[sent]);
      if (lap !== lastLap) {
        await logger.app.live.flush();
        lastLap = lap;
      }
      await sendValid(sent++);
    }
    const deadline = Date.now() + 10_000;
    while (logger.udp.status().decoded < packets.length && Date.now() < deadline) await sleep(10);
    await logger.app.live.flush();

    const status = logger.udp.status();
    console.log(
      `abuse: ${underAbuse} valid packets in ${
        ((performance.now() - start) / 1000).toFixed(1)
      } s ` +
        `with ${garbageSent} bad datagrams; rejected ${status.rejected}; ` +
        `rss MB ${rss.map((r) => (r / 2 ** 20).toFixed(0)).join(" ")}`,
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
    valid.close();
    bad.close();
    await logger.close();
    heartbeatSink.close();
    await drain;
  }
});
