/**
 * Capture import on the Suzuka capture (6,420 packets, one lap): check,
 * decode, segment, sample and store through the use case into an in-memory
 * store, as `import FILE` does. Target: >= 100,000 packets/s.
 *
 * Three inputs: the decrypted `.gt7.gz` as opened (the figure the target
 * names), the same packets encrypted in a record file with 642 garbage
 * datagrams (the decrypt path), and the `.gt7.gz` from its bytes, gunzip
 * and split included.
 */
import { readFixture } from "../tests/_fixtures.ts";
import { buildRecordFile, mixWithGarbage } from "../tests/_capture_files.ts";
import { createApp } from "../src/app/create_app.ts";
import { type CaptureFile, openCaptureFile } from "../src/core/gt7/capture_file.ts";

const gz = readFixture("gt7/suzuka-full-lap.A.gt7.gz");
const capture = openCaptureFile(gz);
const mixed = mixWithGarbage(capture.datagrams, {
  startMs: Date.UTC(2026, 10, 24),
  periodMs: 17,
  every: 10,
  seed: 9,
});
const record = openCaptureFile(buildRecordFile(Date.UTC(2026, 10, 24), mixed.entries));

/** Imports `open()` into a fresh in-memory app; returns the ms the import took. */
async function importOnce(open: () => CaptureFile): Promise<number> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv });
    const start = performance.now();
    const result = await app.laps.importCapture(open());
    const ms = performance.now() - start;
    if (result.laps !== 1 || result.decoded !== 6420) {
      throw new Error(`expected 1 lap of 6420 packets, got ${result.laps} of ${result.decoded}`);
    }
    return ms;
  } finally {
    kv.close();
  }
}

async function figure(label: string, open: () => CaptureFile, datagrams: number): Promise<void> {
  for (let i = 0; i < 3; i++) await importOnce(open);
  const times: number[] = [];
  for (let i = 0; i < 20; i++) times.push(await importOnce(open));
  times.sort((a, b) => a - b);
  const rate = (ms: number) => Math.round(datagrams / (ms / 1000)).toLocaleString("en-US");
  console.log(
    `capture import, ${label}: median ${rate(times[10])} packets/s ` +
      `(best ${rate(times[0])}, worst ${rate(times[19])}; target >= 100,000)`,
  );
}

// Timed passes outside Deno.bench print the figures the issue names.
await figure("Suzuka .gt7.gz opened", () => capture, capture.datagrams.length);
await figure(
  "the same packets encrypted in a record file with 642 garbage datagrams",
  () => record,
  record.datagrams.length,
);
await figure(
  "Suzuka .gt7.gz from its bytes (gunzip and split included)",
  () => openCaptureFile(gz),
  capture.datagrams.length,
);

Deno.bench(`capture import, Suzuka .gt7.gz (${capture.datagrams.length} packets)`, async () => {
  await importOnce(() => capture);
});

Deno.bench(`capture import, record file (${record.datagrams.length} datagrams)`, async () => {
  await importOnce(() => record);
});
