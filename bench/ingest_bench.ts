/**
 * The whole ingest path on the Suzuka capture: decrypt, decode, segment and
 * sample, as the logger does for every datagram. Target: >= 100,000
 * packets/s on one core.
 */
import { readGzFixture } from "../tests/_fixtures.ts";
import { parseCapture } from "../src/core/gt7/capture.ts";
import { decryptPacket, encryptPacket } from "../src/core/gt7/cipher.ts";
import { decodeFrame } from "../src/core/gt7/decode.ts";
import { LapRecorder } from "../src/core/laps/recorder.ts";

const plain = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets;
const encrypted = plain.map((p, i) => encryptPacket(p, (i * 2654435761) >>> 0));

function ingestAll(): number {
  const recorder = new LapRecorder();
  let laps = 0;
  for (const datagram of encrypted) {
    const packet = decryptPacket(datagram);
    if (packet === null) throw new Error("fixture packet failed to decrypt");
    for (const e of recorder.push(decodeFrame(packet))) if (e.type === "lap") laps++;
  }
  if (laps !== 1) throw new Error(`expected 1 lap, got ${laps}`);
  return laps;
}

// One timed pass outside Deno.bench prints the figure the issue names.
ingestAll();
const rounds = 20;
const start = performance.now();
for (let i = 0; i < rounds; i++) ingestAll();
const seconds = (performance.now() - start) / 1000;
console.log(
  `ingest (decrypt+decode+segment+sample): ${
    Math.round(encrypted.length * rounds / seconds).toLocaleString("en-US")
  } packets/s (target >= 100,000)`,
);

Deno.bench(`ingest Suzuka capture (${encrypted.length} packets)`, () => {
  ingestAll();
});
