/**
 * The team's track bundles: a driver's surveyed votes merged into the
 * circuit's team bundle with SPEC's vote merge (src/core/bundle/merge.ts,
 * the logger's own), under the circuit's lock in one transaction; read back
 * as the bundle file the logger imports, and as compiled geometry
 * (src/core/geometry/compile.ts). Merging the same votes twice changes
 * nothing, not even the generation; any order of merges stores the same
 * bundle (but for `updated_at`).
 *
 * @module
 */
import { z } from "zod";
import { BadRequest, NotFound } from "../../core/errors.ts";
import { readBundleBytes } from "../../core/bundle/bundle_bytes.ts";
import type { BundleTable } from "../../core/bundle/edge_table.ts";
import { mergeTables } from "../../core/bundle/merge.ts";
import { canonicalBundle, serialiseBundle } from "../../core/bundle/serialise.ts";
import { slugify } from "../../core/bundle/slug.ts";
import { docOf, tableBundleOf } from "../../core/bundle/table_convert.ts";
import type { BundleV4 } from "../../core/bundle/types.ts";
import { upgradeImported } from "../../core/bundle/upgrade.ts";
import { validateBundleTable } from "../../core/bundle/validate.ts";
import { compileBundle } from "../../core/geometry/compile.ts";
import type { CompiledTrack } from "../../core/geometry/types.ts";
import { jsonBody } from "../../core/json_body.ts";
import {
  type BundleHeadRow,
  type BundleRow,
  changeBundle,
  getBundleRow,
  listBundleRows,
} from "../../storage/hub/bundles.ts";
import type { SqlPort, SqlRunner } from "../../storage/hub/sql_port.ts";
import { APP_VERSION } from "../version.ts";

/** What a merge of votes answers. */
export const votesMergedSchema = z.strictObject({
  slug: z.string(),
  name: z.string(),
  generation: z.int(),
  edges: z.int(),
  runs: z.int(),
  changed: z.boolean().describe("false: the votes were all there already"),
  updated_at: z.string(),
});

/** A bundle as listed. */
export const hubBundleItemSchema = z.strictObject({
  slug: z.string(),
  name: z.string(),
  generation: z.int(),
  updated_at: z.string(),
});

/** The table of a bundle document's text (a stored one, or a body). */
function tableOfBytes(bytes: Uint8Array): BundleTable {
  const table = readBundleBytes(bytes);
  if (table !== null) return table;
  const validated = validateBundleTable(jsonBody(bytes));
  return validated.version === 4 ? validated : tableBundleOf(upgradeImported(validated));
}

function textOf(table: BundleTable, updatedAt: string): string {
  return serialiseBundle(
    canonicalBundle(docOf({ ...table, meta: { ...table.meta, updated_at: updatedAt } })),
  );
}

/**
 * Merges the votes of the bundle file in `bytes` into team bundle `slug`
 * (its `meta.track` must name that circuit). The first merged name stays
 * the team bundle's name, so names differing only in case or spacing do
 * not make the order matter.
 *
 * @throws {BadRequest} for bytes that are not UTF-8 JSON, or a bundle of
 *   another circuit; {ImportRejected} for a bundle SPEC refuses, or a merge
 *   past the bundle limits. Nothing is written then.
 */
export async function mergeVotes(
  db: SqlPort,
  slug: string,
  bytes: Uint8Array,
  now: string,
): Promise<z.output<typeof votesMergedSchema>> {
  const incoming = tableOfBytes(bytes);
  if (slugify(incoming.meta.track) !== slug) {
    throw new BadRequest(
      `the bundle is of ${incoming.meta.track} (${slugify(incoming.meta.track)}), not ${slug}`,
      [{ path: "$.meta.track", message: `must name the circuit ${slug}` }],
    );
  }
  let changed = false;
  let edges = 0;
  let runs = 0;
  const stored = await db.transaction((tx) =>
    changeBundle(tx, slug, (current) => {
      const local = current === null ? null : tableOfBytes(new TextEncoder().encode(current.doc));
      const same = local?.meta.updated_at ?? now;
      const merged = mergeTables(local, incoming, { now: same, track: local?.meta.track }).merged;
      edges = merged.edges.length;
      runs = merged.meta.runs;
      if (current !== null && textOf(merged, same) === current.doc) return null;
      changed = true;
      return { doc: textOf(merged, now), name: merged.meta.track, sections: merged.sections };
    })
  );
  return {
    slug,
    name: stored!.name,
    generation: stored!.generation,
    edges,
    runs,
    changed,
    updated_at: stored!.updated_at,
  };
}

/** Every team bundle's head, by slug. */
export function bundleList(db: SqlRunner): Promise<BundleHeadRow[]> {
  return listBundleRows(db);
}

async function stored(db: SqlRunner, slug: string): Promise<BundleRow> {
  const row = await getBundleRow(db, slug);
  if (row === null) throw new NotFound(`no team bundle for ${slug}`);
  return row;
}

/**
 * Team bundle `slug` as its canonical document (what the logger's bundle
 * import reads).
 *
 * @throws {NotFound} for no such bundle.
 */
export async function bundleDoc(db: SqlRunner, slug: string): Promise<BundleV4> {
  return JSON.parse((await stored(db, slug)).doc) as BundleV4;
}

/**
 * Team bundle `slug`'s compiled geometry, compiled from the stored bundle
 * (stamped with its generation and size, and its update time as compile
 * time, so one generation always compiles alike).
 *
 * @throws {NotFound} for no such bundle.
 */
export async function bundleCompiled(db: SqlRunner, slug: string): Promise<CompiledTrack> {
  const row = await stored(db, slug);
  const bytes = new TextEncoder().encode(row.doc);
  return compileBundle(tableOfBytes(bytes), {
    compiledAt: row.updated_at,
    appVersion: APP_VERSION,
    identity: [row.generation, bytes.byteLength],
  });
}
