import { strict as assert } from "node:assert";
import { drivePackets, referenceLaps, startFedLogger, storedLaps } from "./_telemetry_feed.ts";
import { HANG_MS } from "../e2e/harness.ts";

/** Seconds of abuse; the issue asks for 60. ABUSE_SECONDS shortens it while developing. */
const SECONDS = Number(Deno.env.get("ABUSE_SECONDS") ?? 60);
const GARBAGE_PER_SECOND = 5_000;
const SEED = 29; // the synthetic circuit with the shortest laps (73 s)
const SENDER = new URL("./_garbage_sender.ts", import.meta.url).pathname;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  const rss: number[] = [];
  const heap: number[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  let garbageSent = 0;
  try {
    const { seconds } = await fed.feed(packets, SECONDS * 60, async () => {
      // With --v8-flags=--expose-gc (the test task passes it) the heap is measured
      // after a full collection, before and after the flood: growth means something
      // was kept. A collection stalls the loop, so none runs during the flood.
      gc?.();
      heap.push(Deno.memoryUsage().heapUsed);
      const sender = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          SENDER,
          String(logger.udp.port),
          String(SECONDS),
          String(GARBAGE_PER_SECOND),
        ],
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const output = sender.output();
      const start = performance.now();
      while (performance.now() - start < SECONDS * 1000) {
        await sleep(5_000);
        rss.push(Deno.memoryUsage().rss);
      }
      const out = new TextDecoder().decode((await output).stdout);
      garbageSent = Number(/sent (\d+)/.exec(out)?.[1] ?? 0);
      gc?.();
      heap.push(Deno.memoryUsage().heapUsed);
    });

    // Every bad datagram is either rejected by the logger or dropped by the kernel
    // for a full socket (counted per socket in /proc/net/udp); none passes as valid.
    // The worker posts its counters as they change and reads the kernel's each
    // second, so wait for the account to close; the bound only catches a hang.
    const accounted = () => {
      const s = logger.udp.status();
      return s.rejected + (s.kernel_drops ?? 0);
    };
    const deadline = Date.now() + HANG_MS;
    while (accounted() < garbageSent && Date.now() < deadline) await sleep(50);
    const status = logger.udp.status();
    console.log(
      `abuse: ${Math.min(packets.length, SECONDS * 60)} valid packets at 60 Hz over ` +
        `${seconds.toFixed(1)} s with ${garbageSent} bad datagrams; rejected ${status.rejected}, ` +
        `kernel drops ${status.kernel_drops}; ` +
        `rss MiB every 5 s: ${rss.map((r) => (r / 2 ** 20).toFixed(0)).join(" ")}; ` +
        `heap MiB before and after${gc ? " (collected)" : ""}: ` +
        heap.map((h) => (h / 2 ** 20).toFixed(1)).join(" "),
    );
    assert.equal(status.decoded, packets.length, "every valid packet decoded");
    assert.equal(status.missing, 0);
    assert.equal(status.duplicates, 0);
    assert.equal(
      status.rejected + (status.kernel_drops ?? 0),
      garbageSent,
      `rejected ${status.rejected} and the kernel dropped ${status.kernel_drops} of ${garbageSent}`,
    );
    assert.equal(status.packets_received, status.decoded + status.rejected);
    assert.deepEqual(await storedLaps(logger.app.kv), expected);
    // Flat memory: the collected heap grows by less than 4 MiB over the flood
    // (without --expose-gc, resident size by less than 48 MiB after warm-up).
    const growth = gc ? heap[1] - heap[0] : Math.max(...rss.slice(1)) - rss[1];
    const limit = gc ? 4 * 2 ** 20 : 48 * 2 ** 20;
    assert.ok(growth < limit, `memory grew ${(growth / 2 ** 20).toFixed(1)} MiB`);
  } finally {
    await fed.close();
  }
});
