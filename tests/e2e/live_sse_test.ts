/**
 * End to end: real SSE clients of GET /api/live on a real logger fed by the
 * fake console over loopback UDP.
 *
 * - The Suzuka capture at 1, 10 and 60 Hz: each client gets hz ± 1 frames
 *   in every second of console time (counted by packet ids), every frame
 *   carries every field, and at the end of the lap the live gap to the
 *   reference matches the analysis engine's comparison of the stored lap
 *   with that reference.
 * - 50 clients at 60 Hz while two laps record, and one client that never
 *   reads: nothing is lost, every reading client gets every frame in order,
 *   and the stalled one is dropped. (When it is dropped, 5 s of console time
 *   behind what its socket took, is tests/server/live_stream_test.ts.)
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { App } from "../../src/app/create_app.ts";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import { openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import type { Comparison } from "../../src/core/analysis/types.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import type { Logger } from "../../src/cli/logger_process.ts";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { SseReader } from "../server/_sse.ts";
import type { CornerReport } from "../../src/core/analysis/types.ts";
import { getJson, HANG_MS, replayInto } from "./harness.ts";

const SUZUKA = join(SHARED_FIXTURES, "gt7", "suzuka-full-lap.A.gt7.gz");

/** Every field of a frame, as the API names them. */
const FIELDS = [
  "packet_id",
  "at",
  "speed_kmh",
  "gear",
  "suggested_gear",
  "rpm",
  "rev_limit",
  "rpm_alert",
  "throttle_pct",
  "brake_pct",
  "clutch",
  "boost_bar",
  "fuel",
  "fuel_capacity",
  "fuel_laps_left",
  "water_temp_c",
  "oil_temp_c",
  "oil_pressure_bar",
  "tyre_temp_c",
  "aids",
  "position",
  "distance_m",
  "lap",
  "lap_clock_ms",
  "race_position",
  "total_positions",
  "delta",
  "sector",
  "strategy",
  "cue",
  "next_brake",
  "message",
].sort();

/**
 * A faster Suzuka lap to race against: the capture's lap imported, with
 * every 50th sample taken out (118 of 5,942, so 5,824 samples and a lap time
 * of 5,824 ticks = 97,067 ms, complete), in a session named after the
 * circuit, so it is the circuit's best in car 3315.
 */
async function importReference(app: App): Promise<Lap> {
  const captured = await app.laps.importCapture(openCaptureFile(await Deno.readFile(SUZUKA)));
  assert.equal(captured.laps, 1);
  const [session] = await app.sessions.list();
  const [summary] = await app.sessions.laps(session.id);
  const file = await app.laps.exportFile(summary.id);
  const samples: Record<string, number[]> = {};
  for (const [column, values] of Object.entries(file.lap.samples)) {
    samples[column] = (values as number[]).filter((_, i) => i % 50 !== 49);
  }
  const n = samples.t.length;
  samples.t = samples.t.map((_, i) => Math.round((i + 1) / 60 * 1e4) / 1e4);
  const doc = {
    ...file,
    lap: {
      ...file.lap,
      time_ms: Math.round(n * 1000 / 60),
      samples_filled: 0,
      longest_gap_packets: 0,
      samples,
    },
  };
  const imported = await app.laps.importFile(JSON.parse(JSON.stringify(doc)));
  await app.sessions.rename(imported.session.id, "Suzuka Circuit");
  const lap = await app.sessions.lap(imported.lap.id);
  assert.deepEqual([lap.samples.t.length, lap.time_ms, lap.complete], [5824, 97_067, true]);
  return lap;
}

function frames(reader: SseReader): LiveFrame[] {
  return reader.messages.filter((m) => m.event === "frame").map((m) => JSON.parse(m.data));
}

Deno.test({
  name: "Suzuka over UDP: hz ± 1 frames a second at 1, 10 and 60 Hz; the lap's end delta matches",
  ignore: noFixtures,
  async fn() {
    const rates = [1, 10, 60];
    const readers: SseReader[] = [];
    let reference: Lap | null = null;
    const { logger } = await replayInto(SUZUKA, {
      before: async (logger) => {
        await logger.app.tracks.warmReferences();
        reference = await importReference(logger.app);
        for (const hz of rates) {
          const res = await fetch(`${logger.http.url}/api/live?hz=${hz}`);
          assert.equal(res.status, 200);
          assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
          readers.push(new SseReader(res));
        }
      },
      // The frames take their reference (and so the delta and the sector) from reads that run
      // when the session is named mid-lap. The replay is held until they are done, so what the
      // frames carry follows console time, never how busy the machine is.
      beforePacket: async (sent, logger) => {
        if (sent % 30 !== 0) return;
        await logger.app.live.flush();
        await (logger.app.frames as LiveFrameService).settled();
      },
    });
    try {
      const ref = reference! as Lap;
      const last = logger.app.frames.latest()!;
      for (const [k, hz] of rates.entries()) {
        await readers[k].waitFor((m) =>
          m.event === "frame" && JSON.parse(m.data).packet_id > last.packet_id - 60 / hz
        );
      }
      for (const [k, hz] of rates.entries()) {
        const got = frames(readers[k]);
        const pids = got.map((f) => f.packet_id);
        assert.ok(pids.every((p, i) => i === 0 || p > pids[i - 1]), `${hz} Hz: in order`);
        // Whole seconds of console time, by packet id, from the first frame's second.
        const first = Math.floor(pids[0] / 60) + 1;
        const lastSecond = Math.floor(pids.at(-1)! / 60) - 1;
        assert.ok(lastSecond - first >= 100, `${hz} Hz: ${lastSecond - first} seconds`);
        for (let s = first; s <= lastSecond; s++) {
          const n = pids.filter((p) => Math.floor(p / 60) === s).length;
          assert.ok(Math.abs(n - hz) <= 1, `${hz} Hz: ${n} frames in second ${s}`);
        }
        for (const f of got) assert.deepEqual(Object.keys(f).sort(), FIELDS);
      }

      // The stored lap, and the engine's comparison of it with the reference.
      const lap = (await logger.app.sessions.laps(logger.app.live.session!.id))[0];
      assert.equal(lap.time_ms, 99_036);
      const stored = await logger.app.sessions.lap(lap.id);
      const comparison = await getJson<Comparison>(
        logger,
        `/api/analysis/compare?laps=${lap.id}&ref=${ref.id}`,
      );
      const engineEndMs = comparison.laps[0].delta_s.at(-1)! * 1000;
      // The 60 Hz client's last frame of lap 1 is the lap's last sample.
      const end = frames(readers[2]).filter((f) => f.lap === 1).at(-1)!;
      console.log(`end of lap 1: live ${end.delta.delta_ms} ms, engine ${engineEndMs} ms`);
      assert.equal(end.delta.reference_lap_id, ref.id);
      assert.equal(end.delta.reference_lap_ms, 97_067);
      // Within 5 ms: the live gap is whole ms, the engine's 3 decimals of a second, and both
      // stand at the two laps' last samples: (5,942 - 5,824) ticks / 60 = 1,966.7 ms apart.
      assert.ok(
        Math.abs(end.delta.delta_ms! - engineEndMs) <= 5,
        `live ${end.delta.delta_ms} ms, engine ${engineEndMs} ms`,
      );
      assert.ok(Math.abs(engineEndMs - 118 / 60 * 1000) <= 1, `${engineEndMs}`);
      assert.equal(end.delta.predicted_lap_ms, 97_067 + end.delta.delta_ms!);
      // Where the car is: the stored lap's own distance and clock at its last sample.
      const s = stored.samples;
      assert.ok(Math.abs(end.distance_m - s.dist.at(-1)!) <= 0.1, `${end.distance_m}`);
      assert.equal(end.lap_clock_ms, Math.round(s.t.at(-1)! * 1000));
      // Three default sectors on the reference: the lap ends in the last.
      assert.equal(end.sector, 3);
      // Sectors follow the lap in order once the reference is known, and never drop back to none.
      const seen = frames(readers[2]).filter((f) => f.lap === 1).map((f) => f.sector);
      const known = seen.slice(seen.findIndex((x) => x !== null));
      assert.ok(known.every((x, i) => x !== null && (i === 0 || x >= known[i - 1]!)), `${known}`);
      // Which sector the reference first arrives in depends on when its reads land (the replay
      // is held only every 30 packets, and a busy machine delays them); from there on every
      // sector is passed, in order, to the last.
      const passed = [...new Set(known)];
      assert.deepEqual(passed, [1, 2, 3].slice(3 - passed.length), `${passed}`);
      // The brake marker counts down to the reference's own braking points: the corners the
      // corner report of the reference says it braked for, in order along the lap.
      const report = await getJson<CornerReport>(logger, `/api/analysis/corners?lap=${ref.id}`);
      const braked = report.corners.filter((c) => c.brake_m !== null)
        .sort((a, b) => a.brake_m! - b.brake_m!).map((c) => c.n);
      const marked = frames(readers[2]).filter((f) => f.lap === 1 && f.next_brake !== null);
      const runs: { corner: number; first: number; last: number }[] = [];
      for (const f of marked) {
        const { corner, distance_m } = f.next_brake!;
        const run = runs.at(-1);
        if (run?.corner === corner) run.last = distance_m;
        else runs.push({ corner, first: distance_m, last: distance_m });
      }
      const order = runs.map((r) => r.corner);
      const from = braked.indexOf(order[0]);
      assert.ok(braked.length >= 5 && from >= 0, `${braked} / ${order}`);
      // After the last braking point the next is the first one's, across the line.
      const wanted = braked.slice(from);
      if (order.length > wanted.length) wanted.push(braked[0]);
      assert.deepEqual(order, wanted);
      // Each countdown runs down to within a few metres of its point (one frame at speed).
      for (const r of runs.slice(1, -1)) {
        assert.ok(r.first > r.last && r.last < 5, JSON.stringify(r));
      }
    } finally {
      for (const r of readers) await r.cancel();
      await (logger.app.frames as LiveFrameService).settled();
      await logger.close();
    }
  },
});

/** A 60 Hz client that keeps only packet ids, to stay cheap at 50 clients. */
class PidReader {
  readonly pids: number[] = [];
  readonly events: string[] = [];
  #waiters: (() => void)[] = [];
  readonly done: Promise<void>;
  #reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(res: Response) {
    this.#reader = res.body!.getReader();
    this.done = this.#read();
  }

  get last(): number {
    return this.pids.at(-1) ?? -1;
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith("event: frame\n")) {
            const at = block.indexOf('"packet_id":') + 12;
            this.pids.push(Number.parseInt(block.slice(at, at + 16), 10));
          } else if (block.startsWith("event: ")) {
            this.events.push(block.slice(7, block.indexOf("\n")));
          }
        }
        for (const w of this.#waiters.splice(0)) w();
      }
    } catch {
      // Cut: what arrived stays.
    }
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Resolves once a frame of packet id `pid` or later arrived; a hang guard only. */
  async reach(pid: number): Promise<void> {
    const deadline = performance.now() + HANG_MS;
    while (this.last < pid) {
      if (performance.now() > deadline) throw new Error(`no frame ${pid} in ${HANG_MS} ms`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 1000);
      });
    }
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
    await this.done;
  }
}

Deno.test("50 clients at 60 Hz while laps record: nothing lost, all in order, a stalled one dropped", async () => {
  const CLIENTS = 50;
  const readers: PidReader[] = [];
  let stalled: Deno.TcpConn | null = null;
  const ingested: number[] = [];
  let logger: Logger | null = null;
  try {
    const replay = await replayInto("synthetic:7", {
      laps: 2,
      before: async (l) => {
        l.app.live.tap((f) => ingested.push(f.packetId));
        stalled = await Deno.connect({ hostname: "127.0.0.1", port: l.http.port });
        await stalled.write(
          new TextEncoder().encode("GET /api/live?hz=60 HTTP/1.1\r\nHost: x\r\n\r\n"),
        );
        for (let i = 0; i < CLIENTS; i++) {
          readers.push(new PidReader(await fetch(`${l.http.url}/api/live?hz=60`)));
        }
        const deadline = performance.now() + HANG_MS;
        while (l.http.live.stats().clients < CLIENTS + 1) {
          if (performance.now() > deadline) throw new Error("the clients never all registered");
          await new Promise((r) => setTimeout(r, 5));
        }
      },
      // The reading clients are kept within 2 s of console time of the logger, however busy
      // the machine: only the client that never reads can fall 5 s behind.
      beforePacket: async (sent) => {
        if (sent % 30 !== 0 || ingested.length === 0) return;
        const target = ingested.at(-1)! - 120;
        for (const r of readers) await r.reach(target);
      },
    });
    logger = replay.logger;
    const l = logger;
    const last = ingested.at(-1)!;
    for (const r of readers) await r.reach(last);
    // Nothing lost on the way in: every packet decoded, both laps stored whole.
    assert.equal(l.udp.status().decoded, replay.result.sent);
    assert.equal(l.udp.status().missing, 0);
    const laps = await l.app.sessions.laps(l.app.live.session!.id);
    assert.equal(laps.length, 2);
    for (const lap of laps) {
      assert.equal(lap.samples_missing, 0);
      assert.equal(lap.complete, true);
    }
    // Every reading client got every frame from when it connected, in order.
    const distinct = ingested.filter((p, i) => i === 0 || p !== ingested[i - 1]);
    for (const [k, r] of readers.entries()) {
      const from = distinct.indexOf(r.pids[0]);
      assert.ok(from >= 0 && from <= 64, `client ${k} started at frame ${from}`);
      assert.deepEqual(r.pids, distinct.slice(from), `client ${k}`);
      assert.ok(r.events.includes("lap"), `client ${k} heard the laps`);
    }
    assert.ok(distinct.length > 12_000, `${distinct.length} frames`);
    // The client that never read was cut; the others are all still connected.
    assert.deepEqual(l.http.live.stats(), { clients: CLIENTS, dropped: 1 });
  } finally {
    (stalled as Deno.TcpConn | null)?.close();
    for (const r of readers) await r.cancel();
    if (logger) {
      await ((logger as Logger).app.frames as LiveFrameService).settled();
      await (logger as Logger).close();
    }
  }
});
