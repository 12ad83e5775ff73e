import { strict as assert } from "node:assert";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { compileBundle } from "../../../src/core/geometry/compile.ts";
import { MAP_COLOURS, renderMapSvg } from "../../../src/core/geometry/svg_map.ts";
import { roundScaleLength, scaleLabel } from "../../../src/core/geometry/svg_map_key.ts";
import { generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderCells, bundleOf, circuitCentre } from "./_cells.ts";

const OPTS = { compiledAt: "2026-11-21T12:00:00.000Z", appVersion: "0.1.0" };
const NAME = `Ring <7> & "Co" 'East'`;

const circuit = generateCircuit(7);
const a = circuit.arrays;
// A partial survey: only the first 600 m of each border, plus the finish crossing at s = 0.
const partial = compileBundle(
  bundleOf(borderCells(circuitCentre(circuit), { keep: [{ from: 0, to: 600 }] }), {
    track: NAME,
    finish: [{ x: a.x[0], z: a.z[0], hx: a.tx[0], hz: a.tz[0], lap: 2 }],
  }),
  OPTS,
);
/** The whole lap as the car drove it: every 5th station of the centre line, closed. */
const driven = [
  [...Array(Math.ceil(circuit.count / 5)).keys()].map((k) =>
    [a.x[5 * k], a.z[5 * k]] as [number, number]
  ),
];
driven[0].push([a.x[0], a.z[0]]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (name) => ["g", "path", "text"].includes(name),
});

type Node = Record<string, unknown>;
const group = (root: Node, id: string) =>
  (root.g as Node[]).find((g) => g["@id"] === id) as Node | undefined;

Deno.test("the SVG map is valid XML with the name escaped in its title and heading", () => {
  const { svg } = renderMapSvg(partial, { width: 900, driven });
  assert.equal(XMLValidator.validate(svg), true);
  assert.ok(svg.includes(`<title>Ring &lt;7&gt; &amp; &quot;Co&quot; &apos;East&apos;</title>`));
  const root = parser.parse(svg).svg;
  assert.equal(root.title, NAME);
  const heading = (root.text as Node[]).find((t) => t["@id"] === "heading")!;
  assert.equal(heading["#text"], NAME);
});

Deno.test("the driven line is one thin grey path per polyline, drawn before the borders", () => {
  const { svg } = renderMapSvg(partial, { width: 900, driven });
  const root = parser.parse(svg).svg;
  const g = group(root, "driven")!;
  assert.equal(g["@stroke"], MAP_COLOURS.driven);
  assert.equal((g.path as Node[]).length, 1);
  const d = String((g.path as Node[])[0]["@d"]);
  assert.equal(d.split("L").length, driven[0].length);
  // Document order is paint order: the borders are painted over the driven line.
  const at = (id: string) => svg.indexOf(`<g id="${id}"`);
  assert.ok(at("driven") > svg.indexOf(`<path id="road"`));
  assert.ok(at("driven") < at("borders"), "driven line under the borders");
  const borders = group(root, "borders")!;
  assert.ok(Number(g["@stroke-width"]) < Number(borders["@stroke-width"]));
  assert.equal(partial.borders.L.length > 0 && partial.borders.R.length > 0, true);

  const plain = renderMapSvg(partial, { width: 900 }).svg;
  assert.equal(plain.includes(`id="driven"`), false);
  assert.equal(plain.includes(">driven line<"), false);
});

Deno.test("one direction arrow sits at the finish line and points the way the lap is driven", () => {
  const { svg } = renderMapSvg(partial, { width: 900, driven });
  assert.equal(svg.split(`id="direction"`).length - 1, 1);
  const root = parser.parse(svg).svg;
  const arrow = (root.path as Node[]).find((p) => p["@id"] === "direction")!;
  const nums = String(arrow["@d"]).match(/-?\d+(\.\d+)?/g)!.map(Number);
  assert.equal(nums.length, 6);
  const [tx, tz, b1x, b1z, b2x, b2z] = nums;
  const mx = (b1x + b2x) / 2;
  const mz = (b1z + b2z) / 2;
  const len = Math.hypot(tx - mx, tz - mz);
  // The base is centred just past the finish line's middle (the crossing at s = 0), on the
  // driving line through it.
  const ahead = (mx - a.x[0]) * a.tx[0] + (mz - a.z[0]) * a.tz[0];
  const aside = (mx - a.x[0]) * a.tz[0] - (mz - a.z[0]) * a.tx[0];
  assert.ok(ahead > 0 && ahead < len / 2, `${ahead} ahead`);
  assert.ok(Math.abs(aside) < 0.2, `${aside} aside`);
  const along = ((tx - mx) * a.tx[0] + (tz - mz) * a.tz[0]) / len;
  assert.ok(along > 0.999, `arrow along the travel direction: ${along}`);
});

Deno.test("without a finish line the arrow follows the driven line's start", () => {
  const noFinish = { ...partial, finish: null };
  const svg = renderMapSvg(noFinish, { width: 900, driven }).svg;
  const root = parser.parse(svg).svg;
  const arrow = (root.path as Node[]).find((p) => p["@id"] === "direction")!;
  const [tx, tz, b1x, b1z, b2x, b2z] = String(arrow["@d"]).match(/-?\d+(\.\d+)?/g)!.map(Number);
  const mx = (b1x + b2x) / 2;
  const mz = (b1z + b2z) / 2;
  const dx = driven[0][1][0] - driven[0][0][0];
  const dz = driven[0][1][1] - driven[0][0][1];
  const aside = ((mx - driven[0][0][0]) * dz - (mz - driven[0][0][1]) * dx) / Math.hypot(dx, dz);
  assert.ok(Math.abs(aside) < 0.2, `${aside} aside`);
  const cos = ((tx - mx) * dx + (tz - mz) * dz) /
    (Math.hypot(tx - mx, tz - mz) * Math.hypot(dx, dz));
  assert.ok(cos > 0.999, `${cos}`);
  // Nothing says which way: no arrow at all.
  const empty = { ...noFinish, borders: { L: [], R: [] }, centerline: [] };
  assert.equal(renderMapSvg(empty, { width: 400 }).svg.includes(`id="direction"`), false);
});

Deno.test("the scale bar is a round length, labelled with it, and as long as it says", () => {
  for (const width of [300, 900, 2000]) {
    const { svg, scale_m, frame } = renderMapSvg(partial, { width, driven });
    const root = parser.parse(svg).svg;
    const scale = group(root, "scale")!;
    const bar = (scale.path as Node[]).find((p) => p["@id"] === "scale-bar")!;
    const m = String(bar["@d"]).match(/^M(-?[\d.]+) (-?[\d.]+)h([\d.]+)$/)!;
    const drawn = Number(m[3]);
    // The view box is in metres, so the bar's drawn length is its length in metres.
    assert.equal(drawn, scale_m);
    const label = String((scale.text as Node[])[0]["#text"]);
    const said = label.endsWith(" km") ? 1000 * parseFloat(label) : parseFloat(label);
    assert.equal(said, drawn, label);
    assert.match(label, /^(1|2|5)(0*) (m|km)$/);
    const [, viewW] = String(root["@viewBox"]).split(" ").slice(1, 3).map(Number);
    assert.ok(Math.abs(viewW - frame.spanX) < 0.01);
    // Round, and at most 30 % of the drawing's width, but more than 12 % (the next round step up
    // would pass 30 %).
    assert.ok(
      drawn <= 0.3 * frame.spanX && drawn > 0.12 * frame.spanX,
      `${drawn} of ${frame.spanX}`,
    );
    assert.equal(width * drawn / frame.spanX > 20, true);
  }
  assert.deepEqual([1, 7, 10, 19.9, 20, 49, 50, 99, 2600].map(roundScaleLength), [
    1,
    5,
    10,
    10,
    20,
    20,
    50,
    50,
    2000,
  ]);
  assert.deepEqual([50, 500, 1000, 2000].map(scaleLabel), ["50 m", "500 m", "1 km", "2 km"]);
});

Deno.test("the legend names exactly what is drawn, in each colour", () => {
  const withGap = compileBundle(
    bundleOf(
      borderCells(circuitCentre(circuit), {
        holes: [{ side: "L", from: 500, to: 530 }],
        kind: "wall",
      }),
      {
        track: NAME,
        finish: [{ x: a.x[0], z: a.z[0], hx: a.tx[0], hz: a.tz[0], lap: 2 }],
      },
    ),
    OPTS,
  );
  const entries = (svg: string) => {
    const legend = group(parser.parse(svg).svg, "legend")!;
    return (legend.g as Node[]).map((e) => [
      String((e.text as Node[])[0]["#text"]),
      (e.path as Node[])[0]["@stroke"],
    ]);
  };
  assert.deepEqual(entries(renderMapSvg(withGap, { driven }).svg), [
    ["driven line", MAP_COLOURS.driven],
    ["left border", MAP_COLOURS.left],
    ["right border", MAP_COLOURS.right],
    ["wall", MAP_COLOURS.wall],
    ["survey gap", MAP_COLOURS.gap],
    ["start/finish", MAP_COLOURS.finish],
  ]);
  assert.deepEqual(entries(renderMapSvg(partial).svg), [
    ["left border", MAP_COLOURS.left],
    ["right border", MAP_COLOURS.right],
    ["start/finish", MAP_COLOURS.finish],
  ]);
  // Legend rows wrap inside a narrow drawing instead of running off it.
  const narrow = renderMapSvg(withGap, { width: 240, driven });
  const legend = group(parser.parse(narrow.svg).svg, "legend")!;
  const rows = new Set((legend.g as Node[]).map((e) => (e.text as Node[])[0]["@y"]));
  assert.ok(rows.size >= 3, `${rows.size} rows`);
  assert.ok(narrow.height > renderMapSvg(withGap, { width: 240 }).height);
});
