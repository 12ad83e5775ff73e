import { strict as assert } from "node:assert";
import { planDrive } from "../../../src/core/synthetic/drive.ts";

Deno.test("a mistake every lap: lap 1 as clean, every later lap slower", () => {
  for (const seed of [7, 25, 42]) {
    const clean = planDrive({ seed, laps: 5, steady: true });
    const mistaken = planDrive({ seed, laps: 5, steady: true, mistakeEveryLap: true });
    assert.equal(mistaken.lapTimesMs[0], clean.lapTimesMs[0], `seed ${seed}`);
    for (let lap = 1; lap < 5; lap++) {
      // Each costs more than the notes' 0.05 s threshold.
      assert.ok(
        mistaken.lapTimesMs[lap] >= clean.lapTimesMs[lap] + 50,
        `seed ${seed} lap ${lap + 1}: ${mistaken.lapTimesMs} against ${clean.lapTimesMs}`,
      );
    }
  }
});

Deno.test("a mistake every lap adds to the mistakes asked for, and one lap makes none", () => {
  const asked = { kind: "slow_apex", lap: 1, atM: 1900, kmh: 8 } as const;
  const one = planDrive({ seed: 25, laps: 1, steady: true, mistakeEveryLap: true });
  assert.deepEqual(one.lapTimesMs, planDrive({ seed: 25, laps: 1, steady: true }).lapTimesMs);
  const both = planDrive({
    seed: 25,
    laps: 2,
    steady: true,
    mistakes: [asked],
    mistakeEveryLap: true,
  });
  const alone = planDrive({ seed: 25, laps: 2, steady: true, mistakes: [asked] });
  assert.equal(both.lapTimesMs[0], alone.lapTimesMs[0]);
  assert.ok(both.lapTimesMs[1] >= alone.lapTimesMs[1] + 50, `${both.lapTimesMs}`);
});
