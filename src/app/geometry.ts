/**
 * Compiled geometry and track maps as application services. A compiled
 * document is cached by (slug, bundle generation), in memory and in the
 * store, so a changed bundle (a new generation) is never answered with an
 * older compile. Once {@linkcode watchBundles} runs, every bundle change
 * announced on the bus rebuilds the cache straight away (and a delete drops
 * it), so reads find the compile ready; a read that finds none (a deleted
 * cache, a fresh process) compiles once and stores the result.
 *
 * @module
 */
import { NotFound } from "../core/errors.ts";
import { bundleSlug } from "./bundle_slug.ts";
import { compileBundle } from "../core/geometry/compile.ts";
import { renderMapSvg } from "../core/geometry/svg_map.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import { type BundleHead, getBundleHead, readBundle } from "../storage/bundles.ts";
import {
  deleteCompiled,
  getCompiledHead,
  readCompiled,
  writeCompiled,
} from "../storage/compiled.ts";
import { type App, APP_VERSION } from "./context.ts";

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
}

interface Entry {
  generation: number;
  doc: CompiledTrack;
  svg?: string;
}

class GeometryCache {
  readonly memory = new Map<string, Entry>();
  readonly building = new Map<string, Promise<Entry>>();
}

const caches = new WeakMap<App, GeometryCache>();

function cacheOf(app: App): GeometryCache {
  let cache = caches.get(app);
  if (cache === undefined) {
    cache = new GeometryCache();
    caches.set(app, cache);
  }
  return cache;
}

function remember(cache: GeometryCache, slug: string, entry: Entry): Entry {
  const held = cache.memory.get(slug);
  if (held === undefined || held.generation <= entry.generation) cache.memory.set(slug, entry);
  return entry;
}

/** Compiles the stored bundle of `slug` and stores the result; null when none is stored. */
async function build(app: App, slug: string): Promise<Entry | null> {
  const stored = await readBundle(app.kv, slug);
  if (stored === null) return null;
  const { generation, json_bytes } = stored.head;
  const doc = compileBundle(stored.doc, {
    compiledAt: app.now().toISOString(),
    appVersion: APP_VERSION,
    identity: [generation, json_bytes],
  });
  try {
    await writeCompiled(app.kv, slug, generation, doc);
  } catch (err) {
    // The cache is an optimisation: the document is still right, only not kept.
    console.error(`compiled geometry of "${slug}" was not cached:`, err);
  }
  return { generation, doc };
}

/** The entry of `slug` at `generation` (or newer), from memory, the store or a compile. */
function ensure(app: App, slug: string, generation: number): Promise<Entry> {
  const cache = cacheOf(app);
  const held = cache.memory.get(slug);
  if (held !== undefined && held.generation === generation) return Promise.resolve(held);
  const key = `${generation}/${slug}`;
  let pending = cache.building.get(key);
  if (pending === undefined) {
    pending = (async () => {
      const cached = await readCompiled(app.kv, slug, generation);
      if (cached !== null) return remember(cache, slug, { generation, doc: cached });
      const built = await build(app, slug);
      if (built === null) throw new NotFound(`no bundle for this track: ${slug}`);
      return remember(cache, slug, built);
    })().finally(() => cache.building.delete(key));
    cache.building.set(key, pending);
  }
  return pending;
}

async function entryFor(app: App, slug: string): Promise<Entry> {
  const head = await getBundleHead(app.kv, bundleSlug(slug));
  if (head === null) throw new NotFound(`no bundle for this track: ${slug}`);
  return await ensure(app, slug, head.generation);
}

/**
 * The compiled geometry of the bundle stored under `slug`, compiled from its
 * current generation.
 *
 * @throws {BadRequest} for a non-canonical slug; {NotFound} when no bundle is stored.
 */
export async function compiledFor(app: App, slug: string): Promise<CompiledTrack> {
  return (await entryFor(app, slug)).doc;
}

/**
 * The SVG map of the bundle stored under `slug` (see
 * src/core/geometry/svg_map.ts), drawn from its current compile.
 *
 * @throws {BadRequest} for a non-canonical slug; {NotFound} when no bundle is stored.
 */
export async function mapSvg(app: App, slug: string): Promise<string> {
  const entry = await entryFor(app, slug);
  return entry.svg ??= renderMapSvg(entry.doc).svg;
}

/**
 * The coverage figures of a bundle-list row: null for a bundle without
 * cells, otherwise taken from the cache of its current generation (the
 * stored head carries them, so no document is read), compiling only when
 * nothing is cached.
 */
export async function coverageFor(app: App, head: BundleHead): Promise<ListCoverage | null> {
  if (head.edges === 0) return null;
  const held = cacheOf(app).memory.get(head.slug);
  let coverage = held?.generation === head.generation ? held.doc.coverage : null;
  if (coverage === null) {
    const stored = await getCompiledHead(app.kv, head.slug);
    if (stored?.generation === head.generation) coverage = stored.coverage;
  }
  if (coverage === null) {
    try {
      coverage = (await ensure(app, head.slug, head.generation)).doc.coverage;
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
  };
}

/** Forgets the compiled geometry of `slug`, in memory and in the store. */
export async function dropCompiled(app: App, slug: string): Promise<void> {
  cacheOf(app).memory.delete(slug);
  await deleteCompiled(app.kv, slug);
}

/** The handle of {@linkcode watchBundles}. */
export interface BundleWatch {
  /** Resolves once every rebuild started so far has finished. */
  idle(): Promise<void>;
  /** Stops watching and waits for rebuilds under way. */
  stop(): Promise<void>;
}

/**
 * Rebuilds the compiled geometry whenever the bus announces a bundle change
 * (survey save, import, merge, rename, authoring, official match) and drops
 * it when the bundle is deleted. Failures are logged; the next read
 * compiles again.
 */
export function watchBundles(app: App): BundleWatch {
  const running = new Set<Promise<void>>();
  const unsubscribe = app.bus.subscribe((event) => {
    if (event.type !== "bundle") return;
    const task = (async () => {
      try {
        const head = await getBundleHead(app.kv, event.slug);
        if (event.reason === "delete" || head === null) await dropCompiled(app, event.slug);
        else await ensure(app, event.slug, head.generation);
      } catch (err) {
        console.error(`rebuilding the compiled geometry of "${event.slug}" failed:`, err);
      }
    })();
    running.add(task);
    task.finally(() => running.delete(task));
  });
  const idle = async () => {
    while (running.size > 0) await Promise.all([...running]);
  };
  return {
    idle,
    stop: async () => {
      unsubscribe();
      await idle();
    },
  };
}
