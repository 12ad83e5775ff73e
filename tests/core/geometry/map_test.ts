import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { compileBundle } from "../../../src/core/geometry/compile.ts";
import { MAP_COLOURS, renderMapSvg } from "../../../src/core/geometry/svg_map.ts";
import { CAR_MARKER, renderBrailleMap } from "../../../src/tui/braille_map.ts";
import { generateCircuit } from "../../../src/core/synthetic/circuit.ts";
import { borderCells, bundleOf, circuitCentre, ovalCentre } from "./_cells.ts";

const OPTS = { compiledAt: "2026-11-21T12:00:00.000Z", appVersion: "0.1.0" };

await initWasm(
  readFileSync(fileURLToPath(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm"))),
);

const circuit = generateCircuit(42);
const doc = compileBundle(
  bundleOf(borderCells(circuitCentre(circuit), { holes: [{ side: "L", from: 500, to: 530 }] }), {
    track: "Synthetic <42> & Co",
    finish: [{
      x: circuit.arrays.x[0],
      z: circuit.arrays.z[0],
      hx: circuit.arrays.tx[0],
      hz: circuit.arrays.tz[0],
      lap: 2,
    }],
    corners: [{
      n: 1,
      name: 'Turn "One"',
      direction: null,
      apex: { x: circuit.arrays.x[300], z: circuit.arrays.z[300] },
      entry: null,
      exit: null,
      note: "",
    }],
  }),
  OPTS,
);

Deno.test("the SVG map is well-formed XML with the road, borders, a dashed gap, the finish and the corner", () => {
  const { svg } = renderMapSvg(doc, { width: 800 });
  assert.equal(XMLValidator.validate(svg), true);
  const tree = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(svg);
  const root = tree.svg;
  assert.equal(root.title, "Synthetic <42> & Co");
  assert.equal(root["@width"], "800");
  const road = root.path.find((p: Record<string, unknown>) => p["@id"] === "road");
  assert.equal(road["@fill"], MAP_COLOURS.road);
  const borders = root.g.find((g: Record<string, unknown>) => g["@id"] === "borders");
  assert.deepEqual(
    [...new Set(borders.path.map((p: Record<string, unknown>) => p["@class"]))],
    ["left", "right"],
  );
  const gaps = root.g.find((g: Record<string, unknown>) => g["@id"] === "gaps");
  assert.ok(gaps["@stroke-dasharray"]);
  assert.equal(gaps.line["@stroke"] ?? gaps["@stroke"], MAP_COLOURS.gap);
  assert.equal(root.line["@id"], "finish");
  const corners = root.g.find((g: Record<string, unknown>) => g["@id"] === "corners");
  assert.equal(corners.g.text["#text"], 1);
  assert.equal(corners.g.title, 'Turn "One"');
});

Deno.test("rendered to PNG, road pixels lie on the generator's road and its middle is drawn as road", () => {
  const { svg, frame, width, height } = renderMapSvg(doc, { width: 1000 });
  const image = new Resvg(svg).render();
  assert.equal(image.width, width);
  assert.equal(image.height, height);
  const px = image.pixels;
  const road = [0x4a, 0x4a, 0x4a];
  const isRoad = (i: number, j: number) => {
    const k = 4 * (j * width + i);
    return px[k] === road[0] && px[k + 1] === road[1] && px[k + 2] === road[2];
  };
  const metresPerPixel = frame.spanX / width;
  let roadPixels = 0;
  let off = 0;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      if (!isRoad(i, j)) continue;
      roadPixels++;
      const x = frame.minX + (i + 0.5) * metresPerPixel;
      const z = frame.minZ + (j + 0.5) * metresPerPixel;
      const at = circuit.locate(x, z);
      if (at === null || Math.abs(at.lateral) > at.width / 2 + metresPerPixel) off++;
    }
  }
  assert.ok(roadPixels > 8_000, `${roadPixels} road pixels`);
  assert.equal(off, 0, `${off} of ${roadPixels} road pixels off the road`);
  // The true centre line, away from the hole, the finish and the corner marker, is painted road.
  let centre = 0;
  let painted = 0;
  for (let k = 0; k < circuit.count; k += 5) {
    const s = circuit.arrays.s[k];
    if (s > 450 && s < 600) continue;
    const i = Math.floor((circuit.arrays.x[k] - frame.minX) / metresPerPixel);
    const j = Math.floor((circuit.arrays.z[k] - frame.minZ) / metresPerPixel);
    centre++;
    if (isRoad(i, j)) painted++;
  }
  assert.ok(painted / centre >= 0.97, `${painted} of ${centre} centre points painted as road`);
});

Deno.test("the braille map fills exactly cols x rows cells and marks the car", () => {
  const ring = compileBundle(bundleOf(borderCells(ovalCentre(100, 100, 10))), OPTS);
  const map = renderBrailleMap(ring, { cols: 40, rows: 12, car: { x: 0, z: -100 } });
  assert.equal(map.lines.length, 12);
  for (const line of map.lines) assert.equal([...line].length, 40);
  assert.deepEqual(map.car, { col: 20, row: 0 });
  assert.equal([...map.lines[0]][20], CAR_MARKER);
  const dots = map.lines.join("").replace(CAR_MARKER, "").split("").filter((c) => c !== "\u2800");
  assert.ok(dots.length > 60, `${dots.length} cells drawn`);
  // The middle of the ring is empty; its leftmost and rightmost columns hold the borders.
  assert.equal([...map.lines[6]][20], "\u2800");
  // Halfway down, the outer and inner borders show on both sides of the empty middle.
  const middle = [...map.lines[5]];
  for (const col of [9, 10, 29, 30]) assert.notEqual(middle[col], "\u2800", `column ${col}`);
  const again = renderBrailleMap(ring, { cols: 40, rows: 12, car: { x: 0, z: -100 } });
  assert.deepEqual(again, map);
  assert.equal(renderBrailleMap(ring, { cols: 40, rows: 12, car: { x: 5000, z: 0 } }).car, null);
});
