/**
 * The official match of a bundle (SPEC.md 1, 3): a suggestion from the
 * catalogue for a human to look at, and the human's confirmation. A
 * suggestion never writes anything; only {@linkcode OfficialMatch.confirm}
 * sets `meta.official`.
 *
 * @module
 */
import { bundleCleanupWarnings } from "../log.ts";
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import { parseBody } from "../request_body.ts";
import { bundleV4Schema } from "../../core/bundle/schema.ts";
import { slugify } from "../../core/bundle/slug.ts";
import type { Official } from "../../core/bundle/types.ts";
import { suggestOfficial } from "../../core/catalog/suggest.ts";
import type { OfficialConfirmation, OfficialSuggestionResult } from "./bundle_answers.ts";
import { getBundleHead, updateBundle } from "../../storage/bundles.ts";
import { listSignatures } from "../../storage/signatures.ts";
import { bundleSlug } from "./bundle_slug.ts";
import type { AppDeps } from "../deps.ts";

export type { OfficialConfirmation, OfficialSuggestionResult } from "./bundle_answers.ts";

/**
 * The body of PUT .../official: `{official}`, an object or null (to clear),
 * held to the same rules as an imported document's `meta.official`. The
 * route validates with it, the OpenAPI document publishes it.
 */
export const officialBodySchema = z.object({
  official: bundleV4Schema.shape.meta.shape.official.unwrap(),
}, { error: "must be an object {official}" });

/** What a caller sends to confirm (or clear) a match. */
export type OfficialBody = z.input<typeof officialBodySchema>;

/** The official match of stored bundles: the catalogue's suggestion and a human's confirmation. */
export class OfficialMatch {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;

  /** Matches over `deps.kv`; a confirmation is announced on `deps.bus`. */
  constructor(deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">) {
    this.#deps = deps;
  }

  /**
   * Suggests the official configuration of bundle `slug` from its name and
   * the length of the newest signature carrying that name (same slug). Reads
   * only; `meta.official` is never touched.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when no bundle is stored.
   */
  async suggestion(slug: string): Promise<OfficialSuggestionResult> {
    const { kv } = this.#deps;
    const head = await getBundleHead(kv, bundleSlug(slug));
    if (!head) throw new NotFound(`no bundle for this track: ${slug}`);
    const own = (await listSignatures(kv)).filter((s) => slugify(s.name) === head.slug);
    const length = own.length ? own[own.length - 1].length_m : null;
    return {
      slug: head.slug,
      track: head.track,
      official: head.official,
      length_m: length,
      suggestion: head.official === null ? suggestOfficial(head.track, length) : null,
    };
  }

  /**
   * Stores a human's confirmation `{official}` on bundle `slug` (null clears
   * it), in one atomic write, and announces `{type: "bundle", reason:
   * "official"}`. The value follows the bundle rules of `meta.official`
   * (unknown keys dropped, missing fields defaulted).
   *
   * @throws {BadRequest} for a non-canonical slug or a body that breaks the rules (nothing written).
   * @throws {NotFound} when no bundle is stored under `slug`.
   */
  async confirm(slug: string, body: OfficialBody): Promise<OfficialConfirmation> {
    const key = bundleSlug(slug);
    const official: Official | null =
      parseBody(officialBodySchema, body, "official match").official ?? null;
    const now = this.#deps.now().toISOString();
    const { head } = await updateBundle(this.#deps.kv, key, (current) => {
      if (current === null) throw new NotFound(`no bundle for this track: ${key}`);
      const bundle = current.bundle;
      return {
        bundle: { ...bundle, meta: { ...bundle.meta, official, updated_at: now } },
        result: null,
      };
    }, bundleCleanupWarnings(this.#deps.log));
    this.#deps.bus.emit({ type: "bundle", slug: key, track: head.track, reason: "official" });
    return { slug: key, track: head.track, generation: head.generation, official: head.official };
  }
}
