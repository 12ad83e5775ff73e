/**
 * The road widths the surveyed bundles measure, per official configuration:
 * what identification takes as "near the line" for that configuration in
 * place of the shipped width (docs/identification.md). A bundle speaks for
 * the configuration a person confirmed as its official match, else for the
 * configuration whose official name is the bundle's track name.
 *
 * @module
 */
import { CONFIGURATIONS } from "../../core/catalog/tracks.ts";
import { medianRoadWidthM } from "../../core/geometry/road_width.ts";
import type { RoadWidths } from "../../core/identify/reference_index.ts";
import { type BundleHead, listBundleHeads, readBundleTable } from "../../storage/bundles.ts";
import type { GeometryService } from "../bundles/geometry.ts";
import type { Log } from "../log.ts";

const BY_NAME: ReadonlyMap<string, string> = new Map(
  CONFIGURATIONS.map((c) => [c.official_name, c.official_id]),
);

/**
 * The median road width of every stored bundle that has a centreline and
 * speaks for a configuration, by official id. Two bundles of one
 * configuration: the one with the most edges wins. A bundle that cannot be
 * read or compiled is left out (and logged), never failing identification.
 */
export async function surveyedRoadWidths(
  kv: Deno.Kv,
  geometry: Pick<GeometryService, "compiled">,
  log: Log,
  heads?: readonly BundleHead[],
): Promise<RoadWidths> {
  const widths = new Map<string, number>();
  const edgesOf = new Map<string, number>();
  for (const head of heads ?? await listBundleHeads(kv)) {
    if (head.edges === 0) continue;
    try {
      const stored = await readBundleTable(kv, head.slug);
      if (stored === null) continue;
      const meta = stored.bundle.meta;
      const id = meta.official?.official_id ?? BY_NAME.get(meta.track);
      if (id === undefined || (edgesOf.get(id) ?? -1) >= head.edges) continue;
      const width = medianRoadWidthM(await geometry.compiled(head.slug));
      if (width === null) continue;
      widths.set(id, width);
      edgesOf.set(id, head.edges);
    } catch (err) {
      log.error(`road width of bundle "${head.slug}" skipped`, (err as Error).message);
    }
  }
  return widths;
}

/**
 * {@linkcode surveyedRoadWidths}, kept while no bundle changes: each call
 * lists the bundle heads (cheap) and reads the bundles again only when a
 * slug or generation differs from the last call's.
 */
export class SurveyedWidths {
  readonly #kv: Deno.Kv;
  readonly #geometry: Pick<GeometryService, "compiled">;
  readonly #log: Log;
  #last: { key: string; widths: RoadWidths } | null = null;

  /** Widths of the bundles in `kv`, compiled through `geometry`; failures go to `log`. */
  constructor(kv: Deno.Kv, geometry: Pick<GeometryService, "compiled">, log: Log) {
    this.#kv = kv;
    this.#geometry = geometry;
    this.#log = log;
  }

  /** The surveyed widths of the bundles stored now. */
  async get(): Promise<RoadWidths> {
    const heads = await listBundleHeads(this.#kv);
    const key = heads.map((h) => `${h.slug}@${h.generation}`).sort().join(",");
    if (this.#last?.key === key) return this.#last.widths;
    const widths = await surveyedRoadWidths(this.#kv, this.#geometry, this.#log, heads);
    this.#last = { key, widths };
    return widths;
  }
}
