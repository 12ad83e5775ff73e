/**
 * How long the hub sender waits before trying the hub again after it was
 * down, slow or the machine offline: exponential with jitter, so a team's
 * loggers that lost the hub together do not all knock at the same moment
 * when it comes back, and never a busy loop.
 *
 * @module
 */

/** Wait after the first failure, ms (before jitter). */
export const HUB_FIRST_MS = 2_000;
/** Longest wait between two tries, ms: a hub back up is found within five minutes. */
export const HUB_MAX_MS = 5 * 60_000;

/** Live sharing's first wait, ms: an engineer watching sees the stream back within seconds. */
export const LIVE_FIRST_MS = 1_000;
/** Live sharing's longest wait, ms: a live view is worthless minutes late, so the cap is short. */
export const LIVE_MAX_MS = 15_000;

/**
 * The wait before try `failures + 1`, ms, with `random` in [0, 1): the
 * doubling step ({@linkcode HUB_FIRST_MS} × 2^(failures - 1), at most
 * {@linkcode HUB_MAX_MS}) scaled into its upper half, [step/2, step), so it
 * is never shorter than half the step (no busy loop) and spread over the
 * other half (no thundering herd). `failures` counts from 1.
 */
export function hubBackoffMs(failures: number, random: number): number {
  return backoffMs(failures, random, HUB_FIRST_MS, HUB_MAX_MS);
}

/**
 * The same rule as {@linkcode hubBackoffMs} for the live link's socket,
 * with {@linkcode LIVE_FIRST_MS} and {@linkcode LIVE_MAX_MS}: always within
 * [LIVE_FIRST_MS / 2, LIVE_MAX_MS).
 */
export function liveBackoffMs(failures: number, random: number): number {
  return backoffMs(failures, random, LIVE_FIRST_MS, LIVE_MAX_MS);
}

function backoffMs(failures: number, random: number, firstMs: number, maxMs: number): number {
  const n = Math.max(1, Math.floor(failures));
  const step = Math.min(firstMs * 2 ** Math.min(n - 1, 30), maxMs);
  const r = Math.min(Math.max(random, 0), 1 - Number.EPSILON);
  return Math.round(step / 2 + r * step / 2);
}
