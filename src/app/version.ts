/**
 * The application's version: reported by /api/health and stamped on every
 * compiled geometry document.
 *
 * @module
 */

/** The application's version. */
export const APP_VERSION = "0.1.0";
