import { strict as assert } from "node:assert";
import { identifyTrace, type SignatureCandidate } from "../../../src/core/identify/identify.ts";
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
