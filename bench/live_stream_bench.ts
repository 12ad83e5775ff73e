/**
 * Cost of the live stream (issue 17): GET /api/live at 60 Hz to 50 clients
 * over real HTTP, as % of one core.
 *
 * A real HTTP server over an in-memory app is fed the synthetic drive
 * (seed 7) in process, paced to real time (60 frames a second of console
 * time); 50 clients read the stream from a second process
 * (bench/_live_clients.ts), so only the server's side is counted. The
 * server process's CPU time (`process.cpuUsage()`, user + system) over the
 * drive, divided by its console time, is the share of a core; the same
 * drive with no client gives the baseline (recording, naming, frames). The
 * figure is printed before the Deno.bench table.
 *
 * Then one client that stops reading (issue 17: dropped within 5 s): a raw
 * TCP connection sends GET /api/live?hz=60 and never reads while frames
 * flow at 60 a second of wall time; printed is the wall time from its
 * stream opening to the server dropping it, how many bytes were still in
 * flight to it (what it could read after the drop), and when the server's
 * side of the connection first showed the kernel's zero-window probe timer
 * (/proc/net/tcp, Linux), the first sign visible to the server that the
 * client stopped reading (src/server/stalled_peers.ts drops it 1 s after).
 *
 * Knob: LIVE_BENCH_SECONDS (console seconds per run, default 10; 20 under
 * BENCH_LONG=1).
 *
 * @module
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { createApp } from "../src/app/create_app.ts";
import type { Frame } from "../src/core/gt7/frame.ts";
import { syntheticFrames } from "../src/core/synthetic/drive.ts";
import { startHttp } from "../src/server/http.ts";
import { probing } from "../src/server/stalled_peers.ts";
import { readTcpRows } from "../src/capture/proc_sockets.ts";
import { benchLength } from "./_long.ts";

const CLIENTS = 50;
const HZ = 60;
const SECONDS = benchLength("LIVE_BENCH_SECONDS", 10, 20);

const frames: Frame[] = [];
for (const f of syntheticFrames({ seed: 7, laps: 1 })) {
  frames.push(f);
  if (frames.length >= SECONDS * 60) break;
}

/** Feeds `frames` at 60 a second of wall time; returns the CPU time used, µs. */
async function drive(
  clients: number,
): Promise<{ cpuUs: number; counts: number[]; dropped: number; outOfOrder: number }> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  let child: Deno.ChildProcess | null = null;
  let writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  let lines: AsyncIterator<string> | null = null;
  try {
    if (clients > 0) {
      child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          fileURLToPath(new URL("./_live_clients.ts", import.meta.url)),
          `${server.url}/api/live?hz=${HZ}`,
          String(clients),
        ],
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      writer = child.stdin.getWriter();
      lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(splitLines())[
        Symbol.asyncIterator
      ]();
      if ((await lines.next()).value !== "ready") throw new Error("the clients did not start");
      while (server.live.stats().clients < clients) await new Promise((r) => setTimeout(r, 5));
    }
    const start = process.cpuUsage();
    const t0 = performance.now();
    let i = 0;
    while (i < frames.length) {
      const due = Math.min(frames.length, Math.floor((performance.now() - t0) * 60 / 1000) + 1);
      while (i < due) app.live.ingest(frames[i++]);
      await new Promise((r) => setTimeout(r, 1000 / 60));
    }
    const used = process.cpuUsage(start);
    let counts: number[] = [];
    let outOfOrder = 0;
    if (writer && lines) {
      // Let the clients read what is in flight, then ask for their counts.
      await new Promise((r) => setTimeout(r, 500));
      await writer.close();
      const report = JSON.parse((await lines.next()).value as string);
      counts = report.counts;
      outOfOrder = report.outOfOrder;
    }
    return {
      cpuUs: used.user + used.system,
      counts,
      dropped: server.live.stats().dropped,
      outOfOrder,
    };
  } finally {
    await child?.status;
    await server.close();
    await app.shutdown();
    kv.close();
  }
}

function splitLines(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream({
    transform(chunk, controller) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      for (const p of parts) controller.enqueue(p);
    },
  });
}

/** Seconds from a stalled client's stream opening to its drop (null: not within `maxS`). */
async function stalledDrop(
  maxS: number,
): Promise<{ dropS: number | null; inFlight: number; zeroWindowS: number | null }> {
  const stallFrames: Frame[] = [];
  for (const f of syntheticFrames({ seed: 7, laps: 3 })) {
    stallFrames.push(f);
    if (stallFrames.length >= maxS * 60) break;
  }
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  let probe: ReturnType<typeof setInterval> | undefined;
  try {
    await conn.write(
      new TextEncoder().encode("GET /api/live?hz=60 HTTP/1.1\r\nhost: bench\r\n\r\n"),
    );
    while (server.live.stats().clients < 1) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    const clientPort = (conn.localAddr as Deno.NetAddr).port;
    let zeroWindowS: number | null = null;
    probe = setInterval(() => {
      const rows = readTcpRows() ?? [];
      const peer = { localPort: server.port, hostname: "127.0.0.1", port: clientPort };
      if (zeroWindowS === null && probing(rows, peer)) {
        zeroWindowS = (performance.now() - t0) / 1000;
      }
    }, 100);
    let i = 0;
    let dropS: number | null = null;
    while (i < stallFrames.length) {
      const due = Math.min(
        stallFrames.length,
        Math.floor((performance.now() - t0) * 60 / 1000) + 1,
      );
      while (i < due) app.live.ingest(stallFrames[i++]);
      if (server.live.stats().dropped > 0) {
        dropS = (performance.now() - t0) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 1000 / 60));
    }
    clearInterval(probe);
    let inFlight = 0;
    if (dropS !== null) {
      const buf = new Uint8Array(65536);
      try {
        for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) inFlight += n;
      } catch {
        // Reset by the server after what was in flight.
      }
    }
    return { dropS, inFlight, zeroWindowS };
  } finally {
    clearInterval(probe);
    try {
      conn.close();
    } catch {
      // Already closed.
    }
    await server.close();
    await app.shutdown();
    kv.close();
  }
}

const consoleSeconds = frames.length / 60;
const base = await drive(0);
const full = await drive(CLIENTS);
const pct = (us: number) => (us / 1e6 / consoleSeconds * 100).toFixed(1);
const got = full.counts.length ? `${Math.min(...full.counts)}–${Math.max(...full.counts)}` : "-";
console.log(
  `live stream ${CLIENTS} clients x ${HZ} Hz: ${pct(full.cpuUs)} % of a core ` +
    `(${pct(base.cpuUs)} % with no client; ${frames.length} frames, ${consoleSeconds} s of ` +
    `console time; frames per client ${got}, ${full.dropped} dropped, ${full.outOfOrder} out of order)`,
);

const STALL_MAX_S = 150;
const stall = await stalledDrop(STALL_MAX_S);
console.log(
  `stalled client dropped after ${
    stall.dropS === null ? `more than ${STALL_MAX_S}` : stall.dropS.toFixed(1)
  } s (target <= 5 s; ${stall.inFlight} bytes still in flight to it; zero-window probing from ${
    stall.zeroWindowS === null ? "never" : `${stall.zeroWindowS.toFixed(1)} s`
  })`,
);

// The per-frame encoding every client's message shares (done once per frame, not per client).
const kv = await Deno.openKv(":memory:");
const app = await createApp({ kv });
for (const f of frames.slice(0, 600)) app.live.ingest(f);
const sample = app.frames.latest()!;
Deno.bench({
  name: "encode one live frame as JSON",
  fn() {
    JSON.stringify(sample);
  },
});
