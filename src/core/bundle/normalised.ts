/**
 * Documents known, in this process, to be normalised: every edge's kind is
 * the one its votes resolve to, and each source's run counter is at least
 * every last_run it holds in a vote. Validation, upgrade and a reconciling
 * merge establish both for the documents they return, and mark them here;
 * a merge then keeps the kinds of a marked document's edges without
 * resolving them again, and takes its counters as its run watermarks
 * without scanning every vote. Only those functions mark, only the objects
 * they built, and documents are never changed once built (every function
 * in src/core/bundle treats them as immutable). A document read from the
 * store is never marked: it is resolved and scanned again.
 *
 * @module
 */
import type { BundleV4 } from "./types.ts";

const known = new WeakSet<BundleV4>();

/** Records that `doc` is normalised (see the module doc); returns it. */
export function markNormalised<T extends BundleV4>(doc: T): T {
  known.add(doc);
  return doc;
}

/** True when `doc` was built normalised in this process by a function that marks. */
export function isNormalised(doc: BundleV4): boolean {
  return known.has(doc);
}
