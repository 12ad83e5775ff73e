/**
 * The error of a stored bundle that cannot be read back, apart from the
 * store so that every decoder of a generation can throw it.
 *
 * @module
 */
import { StoredUnreadable } from "../core/errors.ts";

/**
 * The stored document of a bundle cannot be read back: a damaged store, not
 * the caller's error ({@linkcode StoredUnreadable}: its problem names the bundle).
 */
export class BundleCorrupt extends StoredUnreadable {
  /** Creates the error naming the bundle and what is wrong. */
  constructor(slug: string, why: string, options?: ErrorOptions) {
    super(`stored bundle "${slug}" is unreadable: ${why}`, options);
    this.name = "BundleCorrupt";
  }
}
