/**
 * Compiled geometry and track maps. A compiled document is cached by (slug,
 * bundle generation), in memory and in the store, so a changed bundle (a new
 * generation) is never answered with an older compile. Once
 * {@linkcode GeometryService.watch} runs, every bundle change announced on
 * the bus rebuilds the cache straight away (and a delete drops it), so reads
 * find the compile ready; a read that finds none (a deleted cache, a fresh
 * process) compiles once and stores the result.
 *
 * @module
 */
import { NotFound } from "../../core/errors.ts";
import { compileBundle } from "../../core/geometry/compile.ts";
import { type DrivenLine, drivenLine } from "../../core/geometry/driven_line.ts";
import { renderMapSvg } from "../../core/geometry/svg_map.ts";
import type { CompiledTrack } from "../../core/geometry/types.ts";
import {
  type BundleHead,
  getBundleHead,
  readBundle,
  readBundleTable,
} from "../../storage/bundles.ts";
import {
  deleteCompiled,
  getCompiledHead,
  readCompiled,
  writeCompiled,
} from "../../storage/compiled.ts";
import { bundleSlug } from "./bundle_slug.ts";
import type { AppDeps } from "../deps.ts";
import { APP_VERSION } from "../version.ts";

/** The coverage figures of one bundle-list row. */
export interface ListCoverage {
  /** Left border surveyed, % of its known length. */
  left_pct: number;
  /** Right border surveyed, % of its known length. */
  right_pct: number;
  /** Left border with the right border found across, %. */
  road_pct: number;
  /** Both borders close into loops, so the percentages are of whole laps. */
  closed: boolean;
  /** The left border closes into a loop, so left_pct is of a whole lap. */
  closed_left: boolean;
  /** The right border closes into a loop, so right_pct is of a whole lap. */
  closed_right: boolean;
}

/** The handle of {@linkcode GeometryService.watch}. */
export interface BundleWatch {
  /** Resolves once every rebuild started so far has finished. */
  idle(): Promise<void>;
  /** Stops watching and waits for rebuilds under way. */
  stop(): Promise<void>;
}

interface Entry {
  generation: number;
  doc: CompiledTrack;
  svg?: string;
}

/** Compiled geometry of the stored bundles; owns the in-memory compile cache. */
export class GeometryService {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #memory = new Map<string, Entry>();
  readonly #building = new Map<string, Promise<Entry>>();
  /** Rebuilds started by {@linkcode watch} and not yet finished. */
  readonly #rebuilding = new Set<Promise<void>>();
  /** Told, synchronously, each time the last rebuild under way finishes. */
  readonly #onSettled = new Set<() => void>();

  /** A service over `deps.kv`; {@linkcode watch} follows `deps.bus`. */
  constructor(deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">) {
    this.#deps = deps;
  }

  /**
   * The compiled geometry of the bundle stored under `slug`, compiled from
   * its current generation.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when no bundle is stored.
   */
  async compiled(slug: string): Promise<CompiledTrack> {
    return (await this.#entryFor(slug)).doc;
  }

  /**
   * The SVG map of the bundle stored under `slug` (see
   * src/core/geometry/svg_map.ts), drawn from its current compile with the
   * bundle's driven line beneath the borders.
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when no bundle is stored.
   */
  async mapSvg(slug: string): Promise<string> {
    const entry = await this.#entryFor(slug);
    if (entry.svg !== undefined) return entry.svg;
    const driven = await this.drivenLine(slug);
    return entry.svg ??= renderMapSvg(entry.doc, { driven }).svg;
  }

  /**
   * Where the survey drove on the circuit stored under `slug`, recovered
   * from its border records (src/core/geometry/driven_line.ts).
   *
   * @throws {BadRequest} for a non-canonical slug; {NotFound} when no bundle is stored.
   */
  async drivenLine(slug: string): Promise<DrivenLine> {
    const stored = await readBundle(this.#deps.kv, bundleSlug(slug));
    if (stored === null) throw new NotFound(`no bundle for this track: ${slug}`);
    return drivenLine(stored.doc.edges);
  }

  /**
   * The coverage figures of a bundle-list row: null for a bundle without
   * cells, otherwise taken from the cache of its current generation (the
   * stored head carries them, so no document is read), compiling only when
   * nothing is cached.
   */
  async coverage(head: BundleHead): Promise<ListCoverage | null> {
    if (head.edges === 0) return null;
    const held = this.#memory.get(head.slug);
    let coverage = held?.generation === head.generation ? held.doc.coverage : null;
    if (coverage === null) {
      const stored = await getCompiledHead(this.#deps.kv, head.slug);
      if (stored?.generation === head.generation) coverage = stored.coverage;
    }
    if (coverage === null) {
      try {
        coverage = (await this.#ensure(head.slug, head.generation)).doc.coverage;
      } catch (err) {
        // Deleted between listing and compiling: the list shows what it read.
        if (err instanceof NotFound) return null;
        throw err;
      }
    }
    return {
      left_pct: coverage.L.pct,
      right_pct: coverage.R.pct,
      road_pct: coverage.road_pct,
      closed: coverage.L.closed && coverage.R.closed,
      closed_left: coverage.L.closed,
      closed_right: coverage.R.closed,
    };
  }

  /** Forgets the compiled geometry of `slug`, in memory and in the store. */
  async drop(slug: string): Promise<void> {
    this.#memory.delete(slug);
    await deleteCompiled(this.#deps.kv, slug);
  }

  /**
   * Rebuilds the compiled geometry whenever the bus announces a bundle
   * change (survey save, import, merge, rename, authoring, official match)
   * and drops it when the bundle is deleted. Failures are logged; the next
   * read compiles again.
   */
  watch(): BundleWatch {
    const { kv, bus, log } = this.#deps;
    const running = this.#rebuilding;
    const unsubscribe = bus.subscribe((event) => {
      if (event.type !== "bundle") return;
      const task = (async () => {
        try {
          // The change that announced itself answers its caller first (an import's HTTP
          // response is written on the next turns): a compile is 60-100 ms of main thread.
          await new Promise((resolve) => setTimeout(resolve, 0));
          const head = await getBundleHead(kv, event.slug);
          if (event.reason === "delete" || head === null) await this.drop(event.slug);
          else await this.#ensure(event.slug, head.generation);
        } catch (err) {
          log.error(`rebuilding the compiled geometry of "${event.slug}" failed`, err);
        }
      })();
      running.add(task);
      void task.then(() => {
        running.delete(task);
        if (running.size === 0) this.#settled();
      });
    });
    const idle = () => this.rebuilt();
    return {
      idle,
      stop: async () => {
        unsubscribe();
        await idle();
      },
    };
  }

  /**
   * Resolves once every rebuild that {@linkcode watch} has started (before
   * or while this waits) has finished; at once when none runs. A listener
   * subscribed to the bus after the watch sees the rebuild of the event it
   * is told of already started, so waiting here follows that rebuild.
   */
  async rebuilt(): Promise<void> {
    while (this.#rebuilding.size > 0) await Promise.all([...this.#rebuilding]);
  }

  /**
   * Calls `fn` each time the rebuilds under way (see {@linkcode watch}) all
   * finish, synchronously, before anything waiting in {@linkcode rebuilt}
   * resumes; returns the function that stops it. A throwing `fn` is logged.
   */
  onRebuilt(fn: () => void): () => void {
    this.#onSettled.add(fn);
    return () => this.#onSettled.delete(fn);
  }

  #settled(): void {
    for (const fn of this.#onSettled) {
      try {
        fn();
      } catch (err) {
        this.#deps.log.error("a listener of geometry rebuilds failed", err);
      }
    }
  }

  #remember(slug: string, entry: Entry): Entry {
    const held = this.#memory.get(slug);
    if (held === undefined || held.generation <= entry.generation) this.#memory.set(slug, entry);
    return entry;
  }

  /** Compiles the stored bundle of `slug` and stores the result; null when none is stored. */
  async #build(slug: string): Promise<Entry | null> {
    const { kv, now, log } = this.#deps;
    // The table, not objects: a rebuild after an import then costs a few MB, not a bundle's worth.
    const stored = await readBundleTable(kv, slug);
    if (stored === null) return null;
    const { generation, json_bytes } = stored.head;
    const doc = compileBundle(stored.bundle, {
      compiledAt: now().toISOString(),
      appVersion: APP_VERSION,
      identity: [generation, json_bytes],
    });
    try {
      await writeCompiled(kv, slug, generation, doc);
    } catch (err) {
      // The cache is an optimisation: the document is still right, only not kept.
      log.warn(`compiled geometry of "${slug}" was not cached`, err);
    }
    return { generation, doc };
  }

  /** The entry of `slug` at `generation` (or newer), from memory, the store or a compile. */
  #ensure(slug: string, generation: number): Promise<Entry> {
    const held = this.#memory.get(slug);
    if (held !== undefined && held.generation === generation) return Promise.resolve(held);
    const key = `${generation}/${slug}`;
    let pending = this.#building.get(key);
    if (pending === undefined) {
      pending = (async () => {
        const cached = await readCompiled(this.#deps.kv, slug, generation);
        if (cached !== null) return this.#remember(slug, { generation, doc: cached });
        const built = await this.#build(slug);
        if (built === null) throw new NotFound(`no bundle for this track: ${slug}`);
        return this.#remember(slug, built);
      })().finally(() => this.#building.delete(key));
      this.#building.set(key, pending);
    }
    return pending;
  }

  async #entryFor(slug: string): Promise<Entry> {
    const head = await getBundleHead(this.#deps.kv, bundleSlug(slug));
    if (head === null) throw new NotFound(`no bundle for this track: ${slug}`);
    return await this.#ensure(slug, head.generation);
  }
}
