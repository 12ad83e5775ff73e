/**
 * How long work the store refused (its disk full) waits before it is tried
 * again: the live laps (src/app/live/live.ts) and the survey's saves
 * (src/app/survey/survey_saves.ts) back off on the same schedule, so a freed disk
 * is found by both within the same wait.
 *
 * @module
 */

/** First wait before refused work is tried again, ms; it doubles up to {@linkcode RETRY_MAX_MS}. */
export const RETRY_FIRST_MS = 1_000;
/** Longest wait between two tries of the work waiting for the store, ms. */
export const RETRY_MAX_MS = 30_000;

/**
 * The wait before try number `retries + 1` of refused work, ms:
 * {@linkcode RETRY_FIRST_MS} after the first refusal, doubling with each
 * refusal since the last success, never more than {@linkcode RETRY_MAX_MS}.
 */
export function retryDelayMs(retries: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** retries, RETRY_MAX_MS);
}
