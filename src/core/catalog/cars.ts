/**
 * GT7 car names by the car code the telemetry carries. The rows are
 * generated data (cars_data.ts, written by scripts/gen_cars.ts); this module
 * is the code that reads them.
 *
 * @module
 */
import { CAR_ROWS } from "./cars_data.ts";

const CARS: ReadonlyMap<number, string> = new Map<number, string>(CAR_ROWS);

/** The number of cars the table knows. */
export const CAR_COUNT = CARS.size;

/** The car's name for a car code, or `Car <id>` when the code is unknown. */
export function carName(id: number): string {
  return CARS.get(id) ?? `Car ${id}`;
}

/** True when the table knows the car code. */
export function isKnownCar(id: number): boolean {
  return CARS.has(id);
}
