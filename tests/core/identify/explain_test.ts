/**
 * Explaining a verdict: every stage judged, and always the very name the
 * precedence gives (identifyWithReferences), with the shape's suggestions.
 */
import { strict as assert } from "node:assert";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import { explainIdentification, shapeSuggestions } from "../../../src/core/identify/explain.ts";
import { buildFingerprint } from "../../../src/core/identify/fingerprint.ts";
import type { SignatureCandidate } from "../../../src/core/identify/identify.ts";
import { identifyWithReferences } from "../../../src/core/identify/identify_with_references.ts";
import { ReferenceIndex } from "../../../src/core/identify/reference_index.ts";
import { matchReferenceLines } from "../../../src/core/identify/reference_match.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";
import { type LapTrace, signatureOf } from "../../../src/core/identify/signature.ts";
import { lapPath } from "../../../src/core/identify/signature_path.ts";
import { generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderPoints, syntheticLaps } from "./_laps.ts";

const suzuka = replayLine(referenceLineOf("6e378b")!);
const [ring] = syntheticLaps(3);
const sig = (id: number, name: string, lap: LapTrace): SignatureCandidate => ({
  id,
  name,
  ...signatureOf(lap)!,
  path: lapPath(lap),
});
const bundle = (track: string, lap: LapTrace) => ({
  slug: track.toLowerCase(),
  track,
  fingerprint: buildFingerprint(Array.from(lap.pos_x, (x, i) => ({ x, z: lap.pos_z[i] }))),
});

Deno.test("the explanation names exactly what the precedence names, stage by stage", () => {
  const cases = [
    { lap: suzuka, sigs: [sig(1, "My Suzuka", suzuka)], bundles: [bundle("Mine", suzuka)] },
    { lap: suzuka, sigs: [sig(1, "Ring", ring.samples)], bundles: [bundle("Mine", suzuka)] },
    { lap: suzuka, sigs: [], bundles: [] },
    { lap: ring.samples, sigs: [], bundles: [] },
  ];
  const names = cases.map(({ lap, sigs, bundles }) => {
    const why = explainIdentification(lap, sigs, bundles);
    assert.deepEqual(why.identification, identifyWithReferences(lap, sigs, bundles).identification);
    return `${why.identification?.by ?? "none"}: ${why.identification?.name ?? ""}`;
  });
  assert.deepEqual(names, [
    "signature: My Suzuka",
    "bundle: Mine",
    "reference: Suzuka Circuit",
    "none: ",
  ]);
});

Deno.test("each stage says why each candidate was kept or dropped", () => {
  const why = explainIdentification(
    suzuka,
    [sig(1, "Ring", ring.samples), sig(2, "Mine", suzuka)],
    [
      bundle("Mine", suzuka),
      {
        slug: "ring",
        track: "Ring",
        fingerprint: buildFingerprint(borderPoints(generateCircuit(3))),
      },
    ],
  );
  assert.equal(
    why.reason,
    'named by signature 2 "Mine": passes the four gates, driven the same way round',
  );
  assert.deepEqual(why.signatures.map((s) => [s.id, s.kept, s.gate, s.direction]), [
    [1, false, 2, null],
    [2, true, null, "forward"],
  ]);
  assert.deepEqual(why.signatures[1].scores, {
    length_share: 0,
    centre_dx_m: 0,
    centre_dz_m: 0,
    width_share: 0,
    depth_share: 0,
  });
  // The later stages are judged too, though the signature already named the lap.
  assert.deepEqual(why.bundles.candidates.map((b) => [b.slug, b.kept, b.coverage]), [
    ["mine", true, 1],
    // The synthetic circuit lies partly where Suzuka is: 83 of the 600 positions tested.
    ["ring", false, 83 / 600],
  ]);
  assert.equal(why.bundles.candidates[1].reason, "coverage 13.8 % is under 60.0 %");
  assert.equal(why.reference.match?.name, "Suzuka Circuit");
  assert.deepEqual(why.suggestions.map((s) => [s.official_id, s.fit]), [["6e378b", "fits"]]);
  assert.equal(why.length_m, Math.round(why.length_m * 10) / 10);
});

Deno.test("suggestions: both of an ambiguous pair, twins, the reverse layout, close lines", () => {
  const line = referenceLineOf("6e378b")!;
  const east = { ...line, configuration: configurationById("4414cb")!, twins: [] };
  const twofold = matchReferenceLines(suzuka, new ReferenceIndex([line, east]));
  assert.equal(twofold.match, null);
  assert.deepEqual(shapeSuggestions(twofold).map((s) => [s.official_name, s.fit]), [
    ["Suzuka Circuit", "fits"],
    ["Suzuka Circuit East Course", "fits"],
  ]);
  const spa = matchReferenceLines(replayLine(referenceLineOf("3c4be1")!));
  assert.deepEqual(shapeSuggestions(spa).map((s) => s.official_id), ["3c4be1", "d60ebc"]);
  const back = matchReferenceLines(replayLine(referenceLineOf("1fb373")!, { reverse: true }));
  assert.deepEqual(shapeSuggestions(back).map((s) => s.official_name), ["BB Raceway (Reverse)"]);
  // 70 % of Suzuka: no line fits a partial lap, but the lap is all on Suzuka's.
  const part = matchReferenceLines(replayLine(line, { fraction: 0.7 }));
  assert.equal(part.match, null);
  const close = shapeSuggestions(part);
  assert.deepEqual([close[0].official_name, close[0].fit], ["Suzuka Circuit", "close"]);
  // A lap near no line suggests nothing.
  assert.deepEqual(shapeSuggestions(matchReferenceLines(ring.samples)), []);
});
