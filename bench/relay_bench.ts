/**
 * The relay (issue 30): what sending the console's packets on to other apps
 * costs, and that it loses nothing under load. A real logger (store in
 * memory, listening passively on loopback with `--relay`) is fed at 60 Hz by
 * the sender thread of bench/udp_receive_bench.ts (synthetic drive, format
 * C); eight apps (two each asking A, B, ~ and C) heartbeat the relay from a
 * process of their own (bench/_relay_apps.ts), so their receiving is never
 * counted as the logger's work.
 *
 * - CPU: the process's CPU time (user + system) over RELAY_BENCH_SECONDS at
 *   60 Hz with the eight apps served, against the same with none, twice each
 *   alternately: the difference as a share of one core (target <= 1 %);
 *   the same for the worker threads alone (the receive worker, which relays,
 *   and the sender), out of reach of the main thread's noise.
 * - Load: 60 Hz while two 64 MB bundle imports run over HTTP, with the eight
 *   apps served: packets lost by the logger (target 0), packets each app got
 *   and could decrypt with its letter's key (target: every one), the
 *   kernel's count of UDP datagrams dropped for full receive buffers
 *   (RcvbufErrors in /proc/net/snmp, machine-wide, so other programs' drops
 *   count too) and the logger socket's own drops.
 * - Per packet (Deno.bench): one C packet relayed to the eight targets, by
 *   sendto(2) through FFI (what the worker uses) and by Deno's send.
 *
 * Knobs: RELAY_BENCH_SECONDS (default 10; 20 under BENCH_LONG=1), RELAY_BENCH_RATE (CPU runs, default
 * 60; the share added is scaled to 60 Hz), RELAY_BENCH_ONLY=cpu|load|packet.
 *
 * @module
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Logger } from "../src/cli/logger_process.ts";
import { encryptPacket } from "../src/core/gt7/cipher.ts";
import type { PacketFormat } from "../src/core/gt7/format.ts";
import { encodeFrame } from "../src/core/gt7/encode.ts";
import { syntheticFrames } from "../src/core/synthetic/drive.ts";
import { RelayHub, type RelayTarget } from "../src/capture/relay_hub.ts";
import { openRelay } from "../src/capture/relay_socket.ts";
import { enlargeReceiveBuffer, locateUdpSocket } from "../src/capture/socket_buffer.ts";
import { benchLogger, drain, send, startSender } from "./_sender_thread.ts";
import { importBody, importBundles } from "./_import_body.ts";
import { stallProbe } from "./_stall_probe.ts";
import type { AppCount } from "./_relay_apps.ts";
import { benchLength } from "./_long.ts";

const SECONDS = benchLength("RELAY_BENCH_SECONDS", 10, 20);
/** Packet rate of the CPU runs; the added share is scaled to 60 Hz, so a higher rate lifts it out of the noise. */
const RATE = Number(Deno.env.get("RELAY_BENCH_RATE") ?? 60);
const ONLY = Deno.env.get("RELAY_BENCH_ONLY");
const APPS_SCRIPT = fileURLToPath(new URL("./_relay_apps.ts", import.meta.url));
const LETTERS: PacketFormat[] = ["A", "A", "B", "B", "~", "~", "C", "C"];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A logger as `serve --relay 0` starts it, store in memory, listening passively. */
function relayLogger(): Promise<Logger> {
  return benchLogger({ relay: 0 });
}

/** The eight apps in their own process, once the logger's status shows all eight served. */
async function startApps(logger: Logger) {
  const port = Number(logger.udp.status().relay!.listen!.split(":")[1]);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", APPS_SCRIPT, String(port)],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const nextLine = async (): Promise<string> => {
    while (!text.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the apps' process ended early");
      text += value;
    }
    const at = text.indexOf("\n");
    const line = text.slice(0, at);
    text = text.slice(at + 1);
    return line;
  };
  if ((await nextLine()) !== "ready") throw new Error("the apps' process did not start");
  while (logger.udp.status().relay!.apps.length < 8) await sleep(10);
  return {
    async stop(): Promise<AppCount[]> {
      await child.stdin.close();
      const counts = JSON.parse(await nextLine()) as AppCount[];
      await child.status;
      return counts;
    },
  };
}

/** UDP datagrams the kernel dropped for full receive buffers, machine-wide; null where unreadable. */
function rcvbufErrors(): number | null {
  try {
    const lines = Deno.readTextFileSync("/proc/net/snmp").split("\n").filter((l) =>
      l.startsWith("Udp:")
    );
    const names = lines[0].split(/\s+/);
    const values = lines[1].split(/\s+/);
    const value = Number(values[names.indexOf("RcvbufErrors")]);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * CPU ms of this process's worker threads (Deno names them `worker-N`): the
 * receive worker, which relays, and the sender, the same in every run. Read
 * from /proc in clock ticks (10 ms); null where unreadable.
 */
function workerThreadsCpuMs(): number | null {
  try {
    let ticks = 0;
    for (const task of Deno.readDirSync("/proc/self/task")) {
      const dir = `/proc/self/task/${task.name}`;
      if (!Deno.readTextFileSync(`${dir}/comm`).startsWith("worker-")) continue;
      const stat = Deno.readTextFileSync(`${dir}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10;
  } catch {
    return null;
  }
}

/** CPU ms the whole process spent over SECONDS at 60 Hz, with or without the eight apps. */
async function cpuAt60Hz(
  withApps: boolean,
): Promise<{ ms: number; workersMs: number | null; relayed: number }> {
  const logger = await relayLogger();
  const sender = await startSender();
  const apps = withApps ? await startApps(logger) : null;
  try {
    await sleep(500);
    const before = cpuMs();
    const workersBefore = workerThreadsCpuMs();
    const result = await send(sender, {
      port: logger.udp.port,
      rate: RATE,
      seconds: SECONDS,
      firstId: 1,
    });
    const ms = cpuMs() - before;
    const workersAfter = workerThreadsCpuMs();
    const workersMs = workersBefore === null || workersAfter === null
      ? null
      : workersAfter - workersBefore;
    await drain(logger, result.sent);
    const relayed = logger.udp.status().relay!.apps.reduce((n, a) => n + a.packets_sent, 0);
    return { ms, workersMs, relayed };
  } finally {
    await apps?.stop();
    sender.terminate();
    await logger.close();
  }
}

async function cpuFigure(): Promise<string> {
  const without: number[] = [];
  const with8: number[] = [];
  const workersWithout: number[] = [];
  const workersWith8: number[] = [];
  let relayed = 0;
  for (let round = 0; round < 2; round++) {
    const idle = await cpuAt60Hz(false);
    without.push(idle.ms);
    if (idle.workersMs !== null) workersWithout.push(idle.workersMs);
    const run = await cpuAt60Hz(true);
    with8.push(run.ms);
    if (run.workersMs !== null) workersWith8.push(run.workersMs);
    relayed += run.relayed;
  }
  const share = (ms: number[]) => ms.reduce((a, b) => a + b, 0) / ms.length / (SECONDS * 10);
  const at60 = (added: number) => `${(added * 60 / RATE).toFixed(2)} %`;
  const added = share(with8) - share(without);
  const threads = workersWithout.length === 2 && workersWith8.length === 2
    ? `; worker threads (receive worker and sender) ${share(workersWithout).toFixed(2)} % and ` +
      `${share(workersWith8).toFixed(2)} %: adds ${
        at60(share(workersWith8) - share(workersWithout))
      } at 60 Hz (runs ${workersWithout} and ${workersWith8} ms)`
    : "";
  return `relay CPU at ${RATE} Hz over ${SECONDS} s: process ${share(without).toFixed(2)} % of a ` +
    `core with no app, ${share(with8).toFixed(2)} % with 8 apps (${relayed} datagrams relayed): ` +
    `adds ${at60(added)} at 60 Hz (target <= 1 %; runs ${without.map((m) => Math.round(m))} and ` +
    `${with8.map((m) => Math.round(m))} CPU ms)${threads}`;
}

async function loadFigure(): Promise<string> {
  const bodies = [importBody(12), importBody(13)];
  const logger = await relayLogger();
  const sender = await startSender();
  const apps = await startApps(logger);
  const probe = stallProbe();
  const dropsBefore = rcvbufErrors();
  try {
    const sending = send(sender, { port: logger.udp.port, rate: 60, seconds: 600, firstId: 1 });
    await sleep(500);
    await importBundles(logger.http.url, bodies);
    await sleep(500);
    sender.postMessage("stop");
    const result = await sending;
    await drain(logger, result.sent);
    await sleep(200);
    const counts = await apps.stop();
    const dropsAfter = rcvbufErrors();
    const s = logger.udp.status();
    const short = counts.filter((c) => c.valid !== result.sent).map((c) =>
      `${c.format} got ${c.valid}`
    );
    return `60 Hz relayed to 8 apps during two 64 MB bundle imports over HTTP: ${
      result.sent - s.decoded
    } of ` +
      `${result.sent} lost by the logger (target 0); apps got ${
        short.length
          ? short.join(", ")
          : `every packet in their format (${counts.length} x ${result.sent})`
      }; RcvbufErrors +${
        dropsBefore === null || dropsAfter === null ? "n/a" : dropsAfter - dropsBefore
      } (machine-wide), logger socket drops ${s.kernel_drops ?? "n/a"}, relay send errors ${
        s.relay!.send_errors
      }; main loop stalled up to ${Math.round(probe.longest())} ms`;
  } finally {
    probe.stop();
    sender.terminate();
    await logger.close();
  }
}

const figures: string[] = [];
if (!ONLY || ONLY === "cpu") figures.push(await cpuFigure());
if (!ONLY || ONLY === "load") figures.push(await loadFigure());
for (const line of figures) console.log(line);

// Per packet: one console packet (C) relayed to eight targets that drain nothing
// (8 MiB buffers hold every iteration), by the worker's sendto and by Deno's send.
if (!ONLY || ONLY === "packet") {
  const targets = LETTERS.map(() => {
    const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
    const local = sock.addr as Deno.NetAddr;
    enlargeReceiveBuffer(locateUdpSocket(local.hostname, local.port), 16 * 2 ** 20);
    return sock;
  });
  const forwards: RelayTarget[] = targets.map((sock, i) => ({
    hostname: "127.0.0.1",
    port: (sock.addr as Deno.NetAddr).port,
    format: LETTERS[i],
  }));
  const plain = encodeFrame(syntheticFrames({ seed: 7, laps: 1, mode: "race" }).next().value!);
  const cipher = encryptPacket(plain, 0x12345678);
  const fast = openRelay({ hostname: "127.0.0.1", port: null, forwards }, () => {});
  if (!fast.fastSend) console.log("note: no sendto(2) here; the worker would use Deno's send");
  const conn = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  let pending: Promise<boolean>[] = [];
  const slow = new RelayHub({
    nets: [],
    forwards,
    send: (bytes, peer) => {
      const sent = conn.send(bytes, { transport: "udp", hostname: peer.hostname, port: peer.port })
        .then(() => true, () => false);
      pending.push(sent);
      return sent;
    },
  });
  Deno.bench("relay one C packet to 8 apps (A, B, ~, C twice each) by sendto(2)", {
    group: "relay",
    baseline: true,
    n: 2000,
    warmup: 100,
  }, () => {
    fast.hub.relay(cipher, plain);
  });
  Deno.bench("relay one C packet to 8 apps by Deno's send", {
    group: "relay",
    n: 2000,
    warmup: 100,
  }, async () => {
    slow.relay(cipher, plain);
    // Deno's sends complete asynchronously: the eight are done once their promises are.
    await Promise.all(pending);
    pending = [];
  });
  globalThis.addEventListener("unload", () => {
    void fast.close();
    conn.close();
    for (const t of targets) t.close();
  });
}
