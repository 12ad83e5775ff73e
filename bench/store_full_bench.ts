/**
 * What watching a full disk costs: measuring the store disk's free space
 * (`statfs`, asked on every GET /api/status and every 2 s by a logger),
 * and keeping one refused lap of the synthetic 97 s drive in the spill
 * (written, read back, removed). Targets: a measurement well under 1 ms, so
 * the status can measure each time it is asked; a spilled lap well under
 * the 16.7 ms between two frames.
 */
import { createApp } from "../src/app/create_app.ts";
import type { Lap } from "../src/core/laps/lap.ts";
import { SyntheticDrive } from "../src/core/synthetic/drive.ts";
import { diskProbe } from "../src/storage/disk_space.ts";
import { join } from "node:path";
import { fileSpill } from "../src/storage/spill.ts";

const kv = await Deno.openKv(":memory:");
const app = await createApp({ kv });
let lap: Lap | null = null;
app.live.onLap((l) => {
  lap ??= l;
  return Promise.resolve();
});
for (const f of new SyntheticDrive({ seed: 3, laps: 1 }).frames()) app.live.ingest(f);
await app.live.flush();
await app.shutdown();
kv.close();
if (lap === null) throw new Error("the drive stored no lap");
const { id: _id, session_id: _s, counts_for_best: _c, ...newLap } = lap as Lap;

const dir = Deno.makeTempDirSync({ prefix: "spill-bench-" });
// A folder inside this user's own: the spill refuses one whose holder others can write (/tmp).
const spill = fileSpill(join(dir, "spill"));
const probe = diskProbe(dir, false);
let seq = 0;
const keepOne = () => {
  const n = ++seq;
  const bytes = spill.write({
    seq: n,
    segment: "bench:1",
    session_id: 1,
    kind: "live",
    lap: newLap,
  });
  spill.read(n);
  spill.remove(n);
  return bytes;
};

// Timed passes outside Deno.bench print the figures.
const probes = 10_000;
let t = performance.now();
for (let i = 0; i < probes; i++) probe.freeBytes();
const probeUs = (performance.now() - t) * 1000 / probes;
let bytes = 0;
t = performance.now();
for (let i = 0; i < 20; i++) bytes = keepOne();
const spillMs = (performance.now() - t) / 20;
console.log(
  `free-space measurement ${probeUs.toFixed(1)} µs; one ${newLap.samples.dist.length}-sample lap ` +
    `spilled (${(bytes / 2 ** 20).toFixed(2)} MB written, read back, removed) ${
      spillMs.toFixed(1)
    } ms`,
);

Deno.bench("statfs of the store's disk", () => {
  probe.freeBytes();
});
Deno.bench("spill one 97 s lap: write, read back, remove", () => {
  keepOne();
});
globalThis.addEventListener("unload", () => {
  // The spill removes its folder once empty; anything left is removed here.
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch {
    // Already gone.
  }
});
