/**
 * Identification on real GT7 telemetry: signatures made from one lap of each
 * of the six encrypted captures and from one Broad Bean lap of the decoded
 * JSON, then every other lap of those circuits named, and no lap of another
 * circuit named.
 */
import { strict as assert } from "node:assert";
import { checkGates } from "../../../src/core/identify/gates.ts";
import { identifyTrace, type SignatureCandidate } from "../../../src/core/identify/identify.ts";
import { type LapTrace, signatureOf } from "../../../src/core/identify/signature.ts";
import { noFixtures } from "../../_fixtures.ts";
import {
  broadBeanLaps,
  captureFrames,
  ENCRYPTED_LAPS,
  recordLaps,
  samplesOfFrames,
} from "./_laps.ts";

const BROAD_BEAN = "Broad Bean Raceway";
const SUZUKA = "Suzuka Circuit";
const SUZUKA_EAST = "Suzuka Circuit East Course";
const SPA = "Circuit de Spa-Francorchamps";

function signatures(): SignatureCandidate[] {
  const out: SignatureCandidate[] = ENCRYPTED_LAPS.map(([file, name], i) => ({
    id: i + 1,
    name,
    ...signatureOf(samplesOfFrames(captureFrames(`gt7/encrypted/${file}`)))!,
  }));
  out.push({ id: out.length + 1, name: BROAD_BEAN, ...signatureOf(broadBeanLaps()[0])! });
  return out;
}

function nameOf(trace: LapTrace, sigs: readonly SignatureCandidate[]): string | null {
  return identifyTrace(trace, sigs, [])?.name ?? null;
}

Deno.test({
  name: "the six encrypted laps give the signatures their circuits' official lengths suggest",
  ignore: noFixtures,
  fn() {
    const sigs = signatures();
    const official: Record<string, number> = {
      [BROAD_BEAN]: 1665,
      "Tsukuba Circuit": 2045,
      "Brands Hatch Indy Circuit": 1944,
      [SUZUKA]: 5807,
      [SUZUKA_EAST]: 2243,
      [SPA]: 7004,
    };
    for (const s of sigs) {
      const share = Math.abs(s.length_m - official[s.name]) / official[s.name];
      assert.ok(share < 0.04, `${s.name}: ${s.length_m} m`);
    }
    // The exact figures, so a change to integration or sampling shows up here.
    assert.deepEqual(sigs.map((s) => s.length_m), [
      1643.29,
      2051.25,
      1908.55,
      5682.17,
      2189.03,
      6859.13,
      1699.4,
    ]);
    assert.deepEqual(sigs[3], {
      id: 4,
      name: SUZUKA,
      length_m: 5682.17,
      min_x: -980.46,
      max_x: 980.19,
      min_z: -525.84,
      max_z: 517.31,
    });
  },
});

Deno.test({
  name: "each encrypted lap is named after its own circuit and no other signature passes",
  ignore: noFixtures,
  fn() {
    const sigs = signatures();
    for (const [file, name] of ENCRYPTED_LAPS) {
      const lap = samplesOfFrames(captureFrames(`gt7/encrypted/${file}`));
      const shape = signatureOf(lap)!;
      const passing = sigs.filter((s) => checkGates(shape, s).match).map((s) => s.name);
      // Broad Bean has two signatures of its own (encrypted lap and JSON lap).
      assert.deepEqual([...new Set(passing)], [name], file);
      assert.equal(nameOf(lap, sigs), name);
    }
  },
});

Deno.test({
  name: "the full-rate Suzuka and Spa laps, cut by the lap recorder, are named correctly",
  ignore: noFixtures,
  fn() {
    const sigs = signatures();
    const suzuka = recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"));
    assert.equal(suzuka.length, 1);
    assert.equal(suzuka[0].samples.t.length, 5942);
    assert.equal(nameOf(suzuka[0].samples, sigs), SUZUKA);
    const spa = recordLaps(captureFrames("gt7/spa-full-lap.C.gt7.gz"));
    assert.equal(spa.length, 1);
    assert.equal(nameOf(spa[0].samples, sigs), SPA);
  },
});

Deno.test({
  name: "the other three Broad Bean laps are named Broad Bean, by either signature alone",
  ignore: noFixtures,
  fn() {
    const sigs = signatures();
    const laps = broadBeanLaps();
    const encryptedOnly = sigs.filter((s) => s.id !== 7);
    const jsonOnly = sigs.filter((s) => s.id === 7 || s.name !== BROAD_BEAN);
    for (const lap of laps.slice(1)) {
      assert.equal(nameOf(lap, sigs), BROAD_BEAN);
      assert.equal(nameOf(lap, encryptedOnly), BROAD_BEAN);
      assert.equal(nameOf(lap, jsonOnly), BROAD_BEAN);
    }
  },
});

Deno.test({
  name: "Suzuka Full and Suzuka East are never confused, each way, by length and by centre",
  ignore: noFixtures,
  fn() {
    const sigs = signatures();
    const full = sigs.find((s) => s.name === SUZUKA)!;
    const east = sigs.find((s) => s.name === SUZUKA_EAST)!;
    const fullLap = recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"))[0].samples;
    const eastLap = samplesOfFrames(
      captureFrames("gt7/encrypted/suzuka-circuit--east-course.A.gt7"),
    );
    assert.deepEqual(checkGates(signatureOf(fullLap)!, east), {
      match: false,
      gate: 2,
      reason: "lengths differ by 162.75 %",
    });
    assert.equal(checkGates(signatureOf(eastLap)!, full).match, false);
    // Even with the length gate out of the way, the boxes' centres are 650 m apart.
    const eastAsLong = { ...signatureOf(eastLap)!, length_m: full.length_m };
    assert.equal((checkGates(eastAsLong, full) as { gate: number }).gate, 3);
    assert.equal(nameOf(fullLap, [east]), null);
    assert.equal(nameOf(eastLap, [full]), null);
  },
});

Deno.test({
  name: "no lap of another circuit is named: Nordschleife, and each lap without its own signature",
  ignore: noFixtures,
  fn() {
    const sigs = signatures();
    const frames = captureFrames("gt7/nordschleife-partial.tilde.gt7.gz");
    // The lap recorder keeps no lap (the completed one is a 442-packet stub).
    assert.equal(recordLaps(frames).length, 0);
    assert.equal(nameOf(samplesOfFrames(frames), sigs), null);
    assert.equal(nameOf(samplesOfFrames(frames.slice(442)), sigs), null);
    // Leave a circuit's own signatures out: its laps must then stay unnamed.
    const laps: [string, LapTrace][] = [
      ...ENCRYPTED_LAPS.map(([file, name]) =>
        [name, samplesOfFrames(captureFrames(`gt7/encrypted/${file}`))] as [string, LapTrace]
      ),
      [SUZUKA, recordLaps(captureFrames("gt7/suzuka-full-lap.A.gt7.gz"))[0].samples],
      [SPA, recordLaps(captureFrames("gt7/spa-full-lap.C.gt7.gz"))[0].samples],
      ...broadBeanLaps().map((l) => [BROAD_BEAN, l] as [string, LapTrace]),
    ];
    for (const [name, lap] of laps) {
      assert.equal(nameOf(lap, sigs.filter((s) => s.name !== name)), null, name);
    }
  },
});
