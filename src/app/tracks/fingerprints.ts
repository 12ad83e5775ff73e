/**
 * The fingerprint cache: one occupancy grid per stored bundle, keyed by
 * (slug, generation). A bundle write makes a new generation, so a cached
 * fingerprint is never stale: every lookup compares generations with the
 * heads (which are cheap to list) and rebuilds only what changed. `bundle`
 * events on the bus (survey save, import, merge, rename, official) drop the
 * entry at once and, once identification has run in this process, rebuild
 * it in the background so the next lap finds it ready.
 *
 * @module
 */
import { buildFingerprint, type Fingerprint } from "../../core/identify/fingerprint.ts";
import type { BundleCandidate } from "../../core/identify/bundle_match.ts";
import { type BundleHead, listBundleHeads, readBundle } from "../../storage/bundles.ts";
import type { EventBus } from "../bus.ts";
import type { Log } from "../log.ts";

/** One cached fingerprint. */
export interface CachedFingerprint {
  slug: string;
  track: string;
  generation: number;
  fingerprint: Fingerprint;
}

/** Fingerprints of every stored bundle, built on demand and cached by generation. */
export class FingerprintCache {
  #kv: Deno.Kv;
  #log: Log;
  #entries = new Map<string, CachedFingerprint>();
  #building = new Map<string, Promise<CachedFingerprint | null>>();
  #background = new Set<Promise<unknown>>();
  #warm = false;
  #builds = 0;

  /**
   * A cache over `kv`, reporting a bundle it cannot read to `log`; subscribe
   * it to a bus with {@linkcode FingerprintCache.listen}.
   */
  constructor(kv: Deno.Kv, log: Log) {
    this.#kv = kv;
    this.#log = log;
  }

  /** Fingerprints built since creation: a cache hit builds none. */
  get builds(): number {
    return this.#builds;
  }

  /** The cached entry of `slug`, or null. */
  peek(slug: string): CachedFingerprint | null {
    return this.#entries.get(slug) ?? null;
  }

  /**
   * Drops `slug`'s entry when its bundle changed; once the cache has served
   * a lookup (and unless `rebuild` is false), rebuilds it in the background.
   * Never throws.
   */
  changed(slug: string, rebuild = true): void {
    this.#entries.delete(slug);
    if (!this.#warm || !rebuild) return;
    this.#track((async () => {
      const head = (await listBundleHeads(this.#kv)).find((h) => h.slug === slug);
      if (head) await this.#ensure(head);
    })());
  }

  /**
   * Subscribes to `bus`: a `bundle` event drops (and, once warm, rebuilds)
   * that bundle's entry, and live telemetry starting a session warms the
   * whole cache, so the first lap of a drive is matched without reading
   * every bundle then. Returns the unsubscribe function.
   */
  listen(bus: EventBus): () => void {
    return bus.subscribe((event) => {
      // A survey autosaves every minute while driving: its changes are picked
      // up lazily by the next lookup rather than rebuilt beside the live stream.
      if (event.type === "bundle") this.changed(event.slug, event.reason !== "survey");
      else if (event.type === "session" && event.reason === "telemetry") this.warmUp();
    });
  }

  /** Builds every missing fingerprint in the background and keeps the cache warm. Never throws. */
  warmUp(): void {
    this.#warm = true;
    this.#track(this.candidates());
  }

  #track(job: Promise<unknown>): void {
    const quiet = job.catch(() => {
      // A failed background build is retried by the next lookup.
    });
    this.#background.add(quiet);
    quiet.finally(() => this.#background.delete(quiet));
  }

  /** Resolves once no background rebuild is running. */
  async idle(): Promise<void> {
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }

  /**
   * One candidate per stored bundle with edges, each from the fingerprint
   * of the bundle's current generation. A bundle that cannot be read back
   * is left out (and logged) rather than failing identification.
   */
  async candidates(): Promise<BundleCandidate[]> {
    this.#warm = true;
    const heads = await listBundleHeads(this.#kv);
    const live = new Set(heads.map((h) => h.slug));
    for (const slug of this.#entries.keys()) if (!live.has(slug)) this.#entries.delete(slug);
    const out: BundleCandidate[] = [];
    for (const head of heads) {
      if (head.edges === 0) continue;
      const entry = await this.#ensure(head);
      if (entry) out.push({ slug: entry.slug, track: entry.track, fingerprint: entry.fingerprint });
    }
    return out;
  }

  async #ensure(head: BundleHead): Promise<CachedFingerprint | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cached = this.#entries.get(head.slug);
      if (cached && cached.generation >= head.generation) return cached;
      let job = this.#building.get(head.slug);
      if (!job) {
        job = this.#build(head.slug).finally(() => this.#building.delete(head.slug));
        this.#building.set(head.slug, job);
      }
      const built = await job;
      if (built === null) return null;
      if (built.generation >= head.generation) return built;
    }
    return this.#entries.get(head.slug) ?? null;
  }

  async #build(slug: string): Promise<CachedFingerprint | null> {
    let stored;
    try {
      stored = await readBundle(this.#kv, slug);
    } catch (err) {
      this.#log.error(`fingerprint of bundle "${slug}" skipped`, (err as Error).message);
      return null;
    }
    if (stored === null) {
      this.#entries.delete(slug);
      return null;
    }
    this.#builds++;
    const entry: CachedFingerprint = {
      slug,
      track: stored.doc.meta.track,
      generation: stored.head.generation,
      fingerprint: buildFingerprint(stored.doc.edges),
    };
    const current = this.#entries.get(slug);
    if (!current || current.generation < entry.generation) this.#entries.set(slug, entry);
    return entry;
  }
}
