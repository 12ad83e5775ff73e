import { strict as assert } from "node:assert";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { CAR_COUNT, carName, isKnownCar } from "../../../src/core/catalog/cars.ts";
import { noFixtures, SHARED_REFERENCE } from "../../_fixtures.ts";

Deno.test("carName: known codes give the car's name", () => {
  assert.equal(carName(24), "180SX Type X '96");
  assert.equal(carName(3315), "McLaren VGT"); // the Suzuka capture's car
  assert.equal(carName(3582), "Corvette CX.R Vision Gran Turismo Concept"); // Spa's
  assert.equal(carName(36), "Chevelle SS 454 Sport Coupé '70");
  assert.equal(carName(3603), "Twingo '93");
  assert.equal(isKnownCar(24), true);
});

Deno.test("carName: unknown codes give Car <id>", () => {
  assert.equal(carName(999_999), "Car 999999");
  assert.equal(carName(0), "Car 0");
  assert.equal(carName(-1), "Car -1");
  assert.equal(isKnownCar(999_999), false);
});

Deno.test({
  name: "carName: every row of the shared car list maps to its name",
  ignore: noFixtures,
  fn() {
    const text = Deno.readTextFileSync(join(SHARED_REFERENCE, "gt7-cars.csv"));
    const rows: { id: string; name: string }[] = parse(text, { columns: true });
    assert.ok(rows.length > 500);
    for (const { id, name } of rows) assert.equal(carName(Number(id)), name, `car ${id}`);
    assert.equal(CAR_COUNT, rows.length);
  },
});
