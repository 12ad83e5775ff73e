import { strict as assert } from "node:assert";
import {
  identifyTrace,
  judgeSignature,
  type SignatureCandidate,
} from "../../../src/core/identify/identify.ts";
import { lapPath } from "../../../src/core/identify/signature_path.ts";
import { buildFingerprint } from "../../../src/core/identify/fingerprint.ts";
import { signatureOf } from "../../../src/core/identify/signature.ts";
import { generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderPoints, syntheticLaps } from "./_laps.ts";

const [lap] = syntheticLaps(2);
const shape = signatureOf(lap.samples)!;
const bundle = {
  slug: "s2",
  track: "Bundle Name",
  fingerprint: buildFingerprint(borderPoints(generateCircuit(2))),
};

Deno.test("a matching signature wins over a matching bundle", () => {
  const sig: SignatureCandidate = { id: 7, name: "Signature Name", ...shape };
  assert.deepEqual(identifyTrace(lap.samples, [sig], [bundle]), {
    by: "signature",
    name: "Signature Name",
    signature_id: 7,
  });
});

Deno.test("of several matching signatures the first (oldest) names the lap", () => {
  const far: SignatureCandidate = {
    id: 1,
    name: "Elsewhere",
    ...shape,
    length_m: shape.length_m * 2,
  };
  const a: SignatureCandidate = { id: 2, name: "First", ...shape };
  const b: SignatureCandidate = { id: 3, name: "Second", ...shape };
  assert.equal(identifyTrace(lap.samples, [far, a, b], [])?.name, "First");
});

Deno.test("without a matching signature the bundle names the lap", () => {
  const far: SignatureCandidate = { id: 1, name: "Elsewhere", ...shape, length_m: 100 };
  const found = identifyTrace(lap.samples, [far], [bundle]);
  assert.equal(found?.by, "bundle");
  assert.equal(found?.name, "Bundle Name");
  assert.equal(found?.by === "bundle" && found.coverage, 1);
});

Deno.test("nothing known, or nothing sure, names nothing", () => {
  assert.equal(identifyTrace(lap.samples, [], []), null);
  const elsewhere = { ...bundle, fingerprint: buildFingerprint([{ x: 9000, z: 9000 }]) };
  assert.equal(identifyTrace(lap.samples, [], [elsewhere]), null);
  assert.equal(identifyTrace({ t: [], speed: [], pos_x: [], pos_z: [] }, [], [bundle]), null);
});

Deno.test("a signature with a path names only laps driven its way round; without one, either way", () => {
  const [first, second] = syntheticLaps(3, 2);
  const forward = signatureOf(first.samples)!;
  const withPath: SignatureCandidate = {
    id: 4,
    name: "Ring",
    ...forward,
    path: lapPath(first.samples),
  };
  const back = {
    ...second.samples,
    pos_x: [...second.samples.pos_x].reverse(),
    pos_z: [...second.samples.pos_z].reverse(),
    speed: [...second.samples.speed].reverse(),
  };
  assert.equal(identifyTrace(second.samples, [withPath], [])?.name, "Ring");
  assert.equal(identifyTrace(back, [withPath], []), null);
  const judged = judgeSignature(signatureOf(back)!, back, withPath);
  assert.deepEqual([judged.kept, judged.gate, judged.direction, judged.forward_share], [
    false,
    null,
    "reverse",
    0,
  ]);
  assert.equal(
    judged.reason,
    "passes the four gates but is driven the other way round from the lap it was made from",
  );
  // A later signature made from a lap the other way round names it.
  const reverse: SignatureCandidate = {
    id: 5,
    name: "Ring Reverse",
    ...forward,
    path: lapPath(back),
  };
  assert.equal(identifyTrace(back, [withPath, reverse], [])?.name, "Ring Reverse");
  // Stored before paths were kept: the direction is unknown and either way matches.
  const old: SignatureCandidate = { id: 6, name: "Old Ring", ...forward };
  assert.equal(identifyTrace(back, [old], [])?.name, "Old Ring");
  assert.equal(judgeSignature(signatureOf(back)!, back, old).direction, "not recorded");
  // A gate refuses before any direction is looked at.
  const far = judgeSignature(forward, first.samples, { ...withPath, length_m: 100 });
  assert.deepEqual([far.kept, far.gate, far.direction], [false, 2, null]);
  assert.match(far.reason, /^gate 2: lengths differ by /);
});
