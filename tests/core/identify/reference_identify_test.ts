/**
 * The three kinds of knowledge in their order: a user's signature wins, then
 * a surveyed bundle, then the reference lines; the reference lines alone
 * name a lap on a fresh store.
 */
import { strict as assert } from "node:assert";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import { buildFingerprint } from "../../../src/core/identify/fingerprint.ts";
import { identifyWithReferences } from "../../../src/core/identify/identify_with_references.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";
import { signatureOf } from "../../../src/core/identify/signature.ts";
import { syntheticLaps } from "./_laps.ts";

const suzukaLine = referenceLineOf("6e378b")!;
const suzuka = replayLine(suzukaLine);
const points = Array.from(suzukaLine.x, (x, i) => ({ x, z: suzukaLine.z[i] }));
const bundle = { slug: "mine", track: "Surveyed Suzuka", fingerprint: buildFingerprint(points) };

Deno.test("a user's signature with another name for the circuit wins over the reference line", () => {
  const mine = { id: 3, name: "My Suzuka", ...signatureOf(suzuka)! };
  assert.deepEqual(identifyWithReferences(suzuka, [mine], [bundle]), {
    identification: { by: "signature", name: "My Suzuka", signature_id: 3 },
    reference: null,
  });
});

Deno.test("a surveyed bundle comes before the reference lines", () => {
  const out = identifyWithReferences(suzuka, [], [bundle]);
  assert.equal(out.identification?.by, "bundle");
  assert.equal(out.identification?.name, "Surveyed Suzuka");
  assert.equal(out.reference, null);
});

Deno.test("with no signature and no bundle the reference lines name the lap", () => {
  const out = identifyWithReferences(suzuka, [], []);
  assert.deepEqual(out.identification, {
    by: "reference",
    name: "Suzuka Circuit",
    official_id: "6e378b",
    official_ids: ["6e378b"],
    direction: "forward",
  });
  assert.equal(out.reference?.match?.name, "Suzuka Circuit");
  const back = identifyWithReferences(
    replayLine(referenceLineOf("1fb373")!, { reverse: true }),
    [],
    [],
  );
  assert.equal(back.identification?.name, "BB Raceway (Reverse)");
  const spa = identifyWithReferences(replayLine(referenceLineOf("3c4be1")!), [], []);
  assert.deepEqual(spa.identification, {
    by: "reference",
    name: "Circuit de Spa-Francorchamps",
    official_id: null,
    official_ids: ["3c4be1", "d60ebc"],
    direction: "forward",
  });
});

Deno.test("a lap that fits no reference line stays unnamed, with the verdict saying why", () => {
  const synthetic = syntheticLaps(2)[0].samples;
  const out = identifyWithReferences(synthetic, [], []);
  assert.equal(out.identification, null);
  assert.equal(out.reference?.match, null);
  assert.match(out.reference!.reason, /^no reference line (fits|passes near) the lap/);
});
