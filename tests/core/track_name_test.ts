import { strict as assert } from "node:assert";
import {
  isTrackName,
  MAX_TRACK_CHARS,
  trackNameProblem,
  trackNameSchema,
} from "../../src/core/track_name.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { ImportRejected } from "../../src/core/errors.ts";
import { trackLabelSchema, validTrackName } from "../../src/app/request_body.ts";

Deno.test("trackNameProblem: blank, too long (in code points), control characters", () => {
  assert.equal(trackNameProblem("Suzuka Circuit"), null);
  assert.equal(trackNameProblem("  Spa \t"), null, "trimmed first");
  assert.equal(trackNameProblem(" \t\n "), "blank");
  assert.equal(trackNameProblem("🏁".repeat(MAX_TRACK_CHARS)), null);
  assert.equal(trackNameProblem("🏁".repeat(MAX_TRACK_CHARS + 1)), "too long");
  for (const c of ["\n", "\r", "\x1b[2J", "\x00", "\x7f", "\u0085"]) {
    assert.equal(trackNameProblem(`Suz${c}uka`), "control", JSON.stringify(c));
  }
});

Deno.test("every place a circuit name enters refuses a control character", () => {
  const name = "Suzuka\x1b[31m Circuit";
  assert.equal(isTrackName(name), false);
  assert.equal(trackLabelSchema.safeParse(name).success, false, "survey label, bundle rename");
  assert.throws(() => validTrackName(name), /control characters/, "session name, signature");
  const doc = {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: { track: name, runs: 0, source_runs: {}, updated_at: "", official: null },
    edges: [],
    finish_crossings: [],
    corners: [],
    sections: [],
  };
  assert.throws(
    () => validateBundle(doc),
    (e: unknown) =>
      e instanceof ImportRejected &&
      e.issues.some((i) => i.path === "$.meta.track" && /control characters/.test(i.message)),
  );
});

Deno.test("trackNameSchema: trimmed out; each fault with its exact words; a long name refused, never cut", () => {
  const rule = "must be 1 to 80 characters, not blank, with no control characters";
  assert.equal(trackNameSchema.parse("  Spa \t"), "Spa");
  assert.equal(trackNameSchema.parse("🏁".repeat(MAX_TRACK_CHARS)), "🏁".repeat(MAX_TRACK_CHARS));
  const fault = (value: unknown) => trackNameSchema.safeParse(value).error?.issues[0].message;
  assert.equal(fault(undefined), "is required");
  assert.equal(fault(7), "must be a string");
  for (const bad of [" ", "x".repeat(81), "A\u0001B", "Spa\x1b[2J", "a\nb"]) {
    assert.equal(fault(bad), rule, JSON.stringify(bad));
  }
});
