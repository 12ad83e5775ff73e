/**
 * A surveyed bundle's road width reaches identification through the app:
 * a bundle that speaks for Suzuka (by its official match or its name) and
 * measures a 24 m road makes a lap 14 m off Suzuka's recorded line name
 * Suzuka; without the bundle the lap stays unnamed.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { surveyedRoadWidths, SurveyedWidths } from "../../src/app/survey/surveyed_widths.ts";
import { referenceLineOf } from "../../src/core/catalog/reference_lines.ts";
import type { BundleV4 } from "../../src/core/bundle/types.ts";
import { perturbedLap } from "../core/identify/_perturbed.ts";
import { borderCells, bundleOf, ovalCentre } from "../core/geometry/_cells.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const CALM = { wavelength_m: 1e9, phase: Math.PI / 2, noise_m: 0, hole_m: 0, hole_at: 0.5 };

/** A small oval surveyed `width` metres wide, far from Suzuka: its fingerprint never matches it. */
function ovalBundle(
  track: string,
  width: number,
  official: BundleV4["meta"]["official"],
): BundleV4 {
  const doc = bundleOf(borderCells(ovalCentre(150, 90, width)), { track });
  doc.meta.official = official;
  return doc;
}

const SUZUKA_OFFICIAL = {
  track: "Suzuka Circuit",
  layout: "Full Course",
  official_id: "6e378b",
  official_name: "Suzuka Circuit",
  turns: 20,
  length_m: 5807,
  reverse: false,
};

async function identify14mOff(bundle: BundleV4 | null): Promise<string | null> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW });
  try {
    if (bundle !== null) await app.bundles.import(bundle);
    const lap = perturbedLap(referenceLineOf("6e378b")!, {
      ...CALM,
      offset_m: 14,
      seed: 3,
      reverse: false,
    });
    return (await app.tracks.identifyLap(lap))?.name ?? null;
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    kv.close();
  }
}

Deno.test("a lap 14 m off Suzuka's line is unnamed on a fresh store", async () => {
  assert.equal(await identify14mOff(null), null);
});

Deno.test("a bundle confirmed as Suzuka measuring a 24 m road names the lap 14 m off", async () => {
  assert.equal(
    await identify14mOff(ovalBundle("My oval", 24, SUZUKA_OFFICIAL)),
    "Suzuka Circuit",
  );
});

Deno.test("a bundle named as Suzuka is, measuring a 24 m road, names the lap too", async () => {
  assert.equal(await identify14mOff(ovalBundle("Suzuka Circuit", 24, null)), "Suzuka Circuit");
});

Deno.test("a bundle of a narrow road, or of no configuration, leaves the lap unnamed", async () => {
  assert.equal(await identify14mOff(ovalBundle("Suzuka Circuit", 10, null)), null);
  assert.equal(await identify14mOff(ovalBundle("My oval", 24, null)), null);
});

Deno.test("surveyed widths: the median centreline width per configuration the bundles speak for", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW });
  try {
    await app.bundles.import(ovalBundle("My oval", 24, SUZUKA_OFFICIAL));
    await app.bundles.import(ovalBundle("Other oval", 18, null));
    const widths = await surveyedRoadWidths(kv, app.geometry, { warn() {}, error() {} });
    assert.deepEqual([...widths.keys()], ["6e378b"]);
    assert.ok(Math.abs(widths.get("6e378b")! - 24) <= 0.5, `${widths.get("6e378b")}`);
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    kv.close();
  }
});

Deno.test("surveyed widths are read again only when a bundle changes", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW });
  let compiles = 0;
  const geometry = {
    compiled: (slug: string) => {
      compiles++;
      return app.geometry.compiled(slug);
    },
  };
  try {
    const widths = new SurveyedWidths(kv, geometry, { warn() {}, error() {} });
    await app.bundles.import(ovalBundle("My oval", 24, SUZUKA_OFFICIAL));
    const first = await widths.get();
    assert.equal(await widths.get(), first);
    assert.equal(compiles, 1);
    await app.bundles.import(ovalBundle("Suzuka Circuit", 20, null));
    // Read again: the 24 m oval has more cells than the 20 m one, so it still speaks for Suzuka
    // and the smaller bundle is not compiled at all.
    const again = await widths.get();
    assert.notEqual(again, first);
    assert.deepEqual([...again.keys()], ["6e378b"]);
    assert.ok(Math.abs(again.get("6e378b")! - 24) <= 0.5, `${again.get("6e378b")}`);
    assert.equal(compiles, 2);
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    kv.close();
  }
});
