/**
 * The error of a stored bundle that cannot be read back, apart from the
 * store so that every decoder of a generation can throw it.
 *
 * @module
 */

/** The stored document of a bundle cannot be read back: a damaged store, not a user error. */
export class BundleCorrupt extends Error {
  /** Creates the error naming the bundle and what is wrong. */
  constructor(slug: string, why: string, options?: ErrorOptions) {
    super(`stored bundle "${slug}" is unreadable: ${why}`, options);
    this.name = "BundleCorrupt";
  }
}
