import { strict as assert } from "node:assert";
import {
  isTrackName,
  MAX_TRACK_CHARS,
  trackNameFault,
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
  assert.throws(
    () => validTrackName(name),
    (e: unknown) =>
      (e as Error).message ===
        "name holds a control character, U+001B, at character 7: none is allowed",
    "session name, signature",
  );
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
      e.issues.some((i) =>
        i.path === "$.meta.track" &&
        i.message === "track holds a control character, U+001B, at character 7: none is allowed"
      ),
  );
});

Deno.test("trackNameSchema: trimmed out; each fault names the rule it broke; a long name refused, never cut", () => {
  assert.equal(trackNameSchema.parse("  Spa \t"), "Spa");
  assert.equal(trackNameSchema.parse("🏁".repeat(MAX_TRACK_CHARS)), "🏁".repeat(MAX_TRACK_CHARS));
  const fault = (value: unknown) => trackNameSchema.safeParse(value).error?.issues[0].message;
  assert.equal(fault(undefined), "is required");
  assert.equal(fault(7), "must be a string");
  const blank = "is blank: give 1 to 80 characters that are not all spaces";
  assert.equal(fault(""), blank);
  assert.equal(fault("   "), blank);
  assert.equal(fault(" \t\n "), blank);
  assert.equal(fault("x".repeat(81)), "is too long: 81 characters, at most 80");
  // Counted in code points once trimmed, as the limit is.
  assert.equal(fault(` ${"🏁".repeat(90)} `), "is too long: 90 characters, at most 80");
  const control = (code: string, at: number) =>
    `holds a control character, U+${code}, at character ${at}: none is allowed`;
  assert.equal(fault("a\u0007b"), control("0007", 2));
  assert.equal(fault("A\u0001B"), control("0001", 2));
  assert.equal(fault("Spa\x1b[2J"), control("001B", 4));
  assert.equal(fault("a\nb"), control("000A", 2));
  // The position is in the name as typed, leading spaces and emoji counted as one each.
  assert.equal(fault("  🏁a\x7fb"), control("007F", 5));
  assert.equal(trackNameFault("Suzuka"), null);
});
