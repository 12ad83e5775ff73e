/**
 * The published JSON Schema of the v4 bundle, generated from the zod schema
 * that validation uses, so the two cannot disagree.
 *
 * @module
 */
import { z } from "zod";
import { bundleV4Schema } from "./schema.ts";

/**
 * JSON Schema (draft 2020-12) of a v4 bundle as it may be submitted. Rules a
 * schema cannot state (count <= max(last_run, 1), non-blank track, kind
 * resolution, renumbering) are enforced by validation only.
 */
export function bundleJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(bundleV4Schema, {
    io: "input",
    target: "draft-2020-12",
    // Vote entries are checked by a hand-written predicate; their metadata carries the shape.
    unrepresentable: "any",
  });
  return {
    ...schema,
    title: "sim-datalogger track bundle (format v4)",
    description:
      "One circuit's survey evidence: voted border records, finish-line crossings and hand-authored corners and sections. Versions 1 to 3 are also read and upgraded; this schema describes version 4 only.",
  };
}
