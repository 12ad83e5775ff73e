/**
 * Source ids: the anonymous identity of the installation that cast a vote,
 * and the synthetic identity given to the votes of an imported v1-v3 file
 * (REFERENCE.md 1.3).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { SOURCE_ID_PATTERN } from "./limits.ts";
import type { BundleLegacy, BundleV1 } from "./types.ts";

/** True when `value` is a valid source id (6 to 32 lowercase hex characters). */
export function isSourceId(value: unknown): value is string {
  return typeof value === "string" && SOURCE_ID_PATTERN.test(value);
}

/**
 * The source id an imported v1-v3 document's votes are attributed to: the
 * first 12 hex characters of a SHA-256 over the trimmed name, the run count
 * and every record's `|x,z,side,kind`, in document order. The same document
 * always gets the same id, so re-importing it is idempotent; two documents
 * that differ anywhere in their records get different ids.
 *
 * Pass the validated document before upgrade.
 */
export function syntheticSourceId(doc: BundleV1 | BundleLegacy): string {
  const hash = createHash("sha256");
  hash.update(doc.meta.track, "utf8");
  hash.update(String(doc.meta.runs), "utf8");
  let chunk = "";
  for (const edge of doc.edges) {
    chunk += `|${edge.x},${edge.z},${edge.side},${edge.kind}`;
    if (chunk.length > 65536) {
      hash.update(chunk, "utf8");
      chunk = "";
    }
  }
  hash.update(chunk, "utf8");
  return hash.digest("hex").slice(0, 12);
}
