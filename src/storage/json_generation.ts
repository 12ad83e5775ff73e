/**
 * Reading a generation written before the table encoding (no `encoding` in
 * its head): gzip'd JSON, validated in full as an imported document is.
 * Such generations exist only until the store is next opened, which
 * rewrites them as tables (bundle_migration.ts); this reader is what that
 * rewrite reads them with.
 *
 * @module
 */
import type { BundleTable } from "../core/bundle/edge_table.ts";
import { validateBundleTable } from "../core/bundle/validate.ts";
import { ImportRejected } from "../core/errors.ts";
import { BundleCorrupt } from "./bundle_corrupt.ts";

/**
 * The bundle a JSON generation of `slug` holds. Its run counters are read
 * as written when its chunks match their checksum (`intact`, as that
 * release read them), else raised to the votes.
 *
 * @throws {BundleCorrupt} for bytes that are not UTF-8 JSON, a document of
 *   another version, or one that breaks a rule.
 */
export function decodeJsonGeneration(
  slug: string,
  bytes: Uint8Array,
  intact: boolean,
): BundleTable {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (err) {
    throw new BundleCorrupt(slug, `not JSON: ${(err as Error).message}`, { cause: err });
  }
  try {
    const bundle = validateBundleTable(raw, { reconcile: !intact });
    if (bundle.version !== 4) throw new BundleCorrupt(slug, `stored as version ${bundle.version}`);
    return bundle;
  } catch (err) {
    if (err instanceof ImportRejected) {
      throw new BundleCorrupt(slug, `fails validation: ${err.message}`, { cause: err });
    }
    throw err;
  }
}
