/**
 * The team's track bundles, as rows: one per circuit slug, its canonical
 * document text, its generation (raised on every change) and its authored
 * sections (what a pushed lap's sectors are timed by). A change is made
 * under a per-slug advisory lock in one transaction, so concurrent merges
 * of one circuit serialise, on one server, across hub processes.
 *
 * @module
 */
import { isoOf, type SqlRunner } from "./sql_port.ts";

/** The first key of the per-slug bundle locks ("hubb" in ASCII); the second is the slug's hash. */
export const BUNDLE_LOCK = 0x68756262;

/** A stored bundle's head: everything but its document. */
export interface BundleHeadRow {
  slug: string;
  name: string;
  generation: number;
  updated_at: string;
}

/** A stored bundle. */
export interface BundleRow extends BundleHeadRow {
  /** The canonical document text. */
  doc: string;
}

/** What a change stores: the new document, its circuit name and its sections. */
export interface BundleWrite {
  doc: string;
  name: string;
  sections: unknown[] | null;
}

function headOf(r: Record<string, unknown>): BundleHeadRow {
  return {
    slug: String(r.slug),
    name: String(r.name),
    generation: Number(r.generation),
    updated_at: isoOf(r.updated_at)!,
  };
}

/** Bundle `slug`; null when none. */
export async function getBundleRow(db: SqlRunner, slug: string): Promise<BundleRow | null> {
  const rows = await db.query(
    "select slug, name, generation, updated_at, doc from hub_bundles where slug = $1",
    [slug],
  );
  return rows.length ? { ...headOf(rows[0]), doc: String(rows[0].doc) } : null;
}

/** Every bundle's head, by slug. */
export async function listBundleRows(db: SqlRunner): Promise<BundleHeadRow[]> {
  const rows = await db.query(
    "select slug, name, generation, updated_at from hub_bundles order by slug",
  );
  return rows.map(headOf);
}

/** The authored sections of bundle `slug`; null when it has none or there is no bundle. */
export async function bundleSections(db: SqlRunner, slug: string): Promise<unknown[] | null> {
  const rows = await db.query("select sections from hub_bundles where slug = $1", [slug]);
  if (!rows.length || rows[0].sections === null) return null;
  const s = rows[0].sections;
  return (typeof s === "string" ? JSON.parse(s) : s) as unknown[];
}

/**
 * Changes bundle `slug` by `change`, which sees the stored bundle (null:
 * none) and answers what to store, or null to leave it as it is. Must run
 * inside a transaction (`tx`): the slug's lock is held to its end. Answers
 * the bundle as stored afterwards.
 */
export async function changeBundle(
  tx: SqlRunner,
  slug: string,
  change: (current: BundleRow | null) => BundleWrite | null,
): Promise<BundleRow | null> {
  await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [BUNDLE_LOCK, slug]);
  const current = await getBundleRow(tx, slug);
  const next = change(current);
  if (next === null) return current;
  const rows = await tx.query(
    `insert into hub_bundles (slug, name, generation, doc, sections, updated_at)
     values ($1, $2, 1, $3, $4::text::jsonb, now())
     on conflict (slug) do update set name = excluded.name,
       generation = hub_bundles.generation + 1, doc = excluded.doc,
       sections = excluded.sections, updated_at = excluded.updated_at
     returning slug, name, generation, updated_at, doc`,
    [slug, next.name, next.doc, next.sections === null ? null : JSON.stringify(next.sections)],
  );
  return { ...headOf(rows[0]), doc: String(rows[0].doc) };
}
