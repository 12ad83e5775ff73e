/**
 * The circuit's corner map numbers each corner as the circuit's published
 * map does, where GT7's turn count is that map's: every published turn is
 * found at its own stretch of the lap, with its own number and direction,
 * on the reference line driven cleanly and driven as another driver's lap
 * (a slow 7 m lateral offset, 0.5 m of noise, 100 m of lost packets).
 *
 * A published turn's stretch is where the reference line bends for it
 * (metres along the line from its start, read off the line's heading and
 * rounded to 5 m); a turn that follows another the same way begins where
 * the curvature eases between them. Numbers and directions are as the
 * source named above each table gives them; the stretches only place them
 * on GT7's line. Suzuka is tested in circuit_corners_test.ts.
 */
import { strict as assert } from "node:assert";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { type Perturbation, perturbedLap } from "../identify/_perturbed.ts";

/** A published turn: its number, direction, and the stretch of the line it bends over (m). */
type PublishedTurn = [n: number, direction: "L" | "R", from_m: number, to_m: number];

/**
 * Formula 1's circuit map of the Italian Grand Prix (formula1.com,
 * Autodromo Nazionale Monza, 11 turns): the Variante del Rettifilo is 1-2,
 * the Curva Grande 3, the Roggia 4-5, the Lesmos 6 and 7, the Ascari 8-10,
 * the Parabolica (Curva Alboreto) 11. The Serraglio kink (3 degrees) has no
 * number.
 */
const MONZA: PublishedTurn[] = [
  [1, "R", 885, 945],
  [2, "L", 950, 1030],
  [3, "R", 1235, 1760],
  [4, "L", 2080, 2155],
  [5, "R", 2155, 2230],
  [6, "R", 2435, 2640],
  [7, "R", 2795, 2935],
  [8, "L", 3865, 3980],
  [9, "R", 3980, 4075],
  [10, "L", 4080, 4200],
  [11, "R", 5030, 5505],
];

/**
 * Formula 1's circuit map of the Spanish Grand Prix, the 2007-2022 layout
 * with the final chicane (formula1.com, Circuit de Barcelona-Catalunya, 16
 * turns): Elf 1-2, Renault 3, Repsol 4, Seat 5, the fast left 6, 7-8 up
 * the hill, Campsa 9, La Caixa 10, 11, Banc Sabadell 12, 13, the chicane
 * 14-15, New Holland 16.
 */
const BARCELONA_GP: PublishedTurn[] = [
  [1, "R", 770, 890],
  [2, "L", 890, 1020],
  [3, "R", 1025, 1470],
  [4, "R", 1615, 1965],
  [5, "L", 1975, 2215],
  [6, "L", 2265, 2440],
  [7, "L", 2440, 2595],
  [8, "R", 2600, 2715],
  [9, "R", 2775, 3005],
  [10, "L", 3395, 3515],
  [11, "L", 3515, 3620],
  [12, "R", 3625, 3850],
  [13, "R", 3890, 4030],
  [14, "L", 4035, 4105],
  [15, "R", 4105, 4180],
  [16, "R", 4180, 4425],
];

/**
 * Formula 1's circuit map of the Spanish Grand Prix from 2023, the final
 * chicane removed (formula1.com, 14 turns): 1 to 12 as before, then the
 * two fast rights 13 and 14 onto the straight.
 */
const BARCELONA_NO_CHICANE: PublishedTurn[] = [
  [1, "R", 755, 885],
  [2, "L", 885, 1020],
  [3, "R", 1025, 1450],
  [4, "R", 1600, 1940],
  [5, "L", 1955, 2220],
  [6, "L", 2265, 2450],
  [7, "L", 2450, 2590],
  [8, "R", 2595, 2705],
  [9, "R", 2770, 3000],
  [10, "L", 3370, 3505],
  [11, "L", 3505, 3610],
  [12, "R", 3615, 3840],
  [13, "R", 3880, 4095],
  [14, "R", 4140, 4395],
];

/** The reference line driven cleanly, and as laps of other drivers (see _perturbed.ts). */
const DRIVES: Omit<Perturbation, "reverse">[] = [
  { offset_m: 0, wavelength_m: 1500, phase: 0, noise_m: 0, hole_m: 0, hole_at: 0, seed: 1 },
  { offset_m: 7, wavelength_m: 1500, phase: 1, noise_m: 0.5, hole_m: 100, hole_at: 0.5, seed: 24 },
  { offset_m: 7, wavelength_m: 900, phase: 4, noise_m: 0.5, hole_m: 100, hole_at: 0.2, seed: 7 },
];

/** Each located corner's apex on `lap`, in metres along the line (the lap scaled to its length). */
function apexesOnLine(lap: LapSamples, lineLength: number, id: string) {
  const located = lapCorners(traceOf(lap), null, {}, referenceCornerMap(configurationById(id)!));
  assert.equal(located.source, "circuit", id);
  const scale = lineLength / lap.dist[lap.dist.length - 1];
  return located.corners.map((c) => ({ n: c.n, direction: c.direction, at: c.apex_m * scale }));
}

/** Every published turn is exactly one located corner, with the published number and direction. */
function assertPublishedNumbering(id: string, published: PublishedTurn[]): void {
  const line = referenceLineOf(id)!;
  assert.equal(line.configuration.turns, published.length, `${id}: GT7's count is the map's`);
  for (const drive of DRIVES) {
    const where = `${line.configuration.official_name} ${JSON.stringify(drive)}`;
    const got = apexesOnLine(perturbedLap(line, { ...drive, reverse: false }), line.length_m, id);
    assert.equal(got.length, published.length, `${where}: corners located`);
    for (const [n, direction, from, to] of published) {
      const here = got.filter((c) => c.at >= from && c.at <= to);
      assert.deepEqual(
        here.map((c) => [c.n, c.direction]),
        [[n, direction]],
        `${where}: turn ${n} (${from}-${to} m) got ${JSON.stringify(here)}`,
      );
    }
  }
}

Deno.test("Monza: the eleven turns of Formula 1's map, each at its own bend", () => {
  assertPublishedNumbering("e6817f", MONZA);
});

Deno.test("Barcelona-Catalunya GP Layout: the sixteen turns of Formula 1's 2007-2022 map", () => {
  assertPublishedNumbering("aa8dc5", BARCELONA_GP);
});

Deno.test("Barcelona-Catalunya without the chicane: the fourteen turns of Formula 1's 2023 map", () => {
  assertPublishedNumbering("a5d0f0", BARCELONA_NO_CHICANE);
});
