/**
 * The link line's packet rate, steady: the packets decoded over the last
 * {@linkcode RATE_WINDOW_MS}, from the decoded counter read at each
 * snapshot. The receiver's own figure counts packets in one-second windows
 * closed on its 100 ms tick, and packets come in bursts (the demo's
 * console catches up after each stall of its event loop; the worker hands
 * them over in batches), so a window holds half a burst or two and the
 * figure jumped (605, 1139, 1538, 2286 at the demo's 20x for ~1200). Two
 * seconds of counter hold several bursts, and slide with every sample.
 *
 * @module
 */

/** The span the rate is averaged over, ms. */
export const RATE_WINDOW_MS = 2000;

/** A sliding-window rate over a growing counter. */
export class PacketRate {
  #samples: { at: number; count: number }[] = [];

  /**
   * Takes counter `count` read at `atMs` and answers packets per second
   * over the last {@linkcode RATE_WINDOW_MS} (from the newest earlier
   * sample at least that old); null until the samples span half the
   * window. A counter or clock going back (a new receiver) starts afresh.
   */
  sample(count: number, atMs: number): number | null {
    const s = this.#samples;
    const last = s.at(-1);
    if (last && (count < last.count || atMs < last.at)) s.length = 0;
    // Two reads at one instant are one sample: the newer count.
    if (s.at(-1)?.at === atMs) s.pop();
    s.push({ at: atMs, count });
    while (s.length > 2 && atMs - s[1].at >= RATE_WINDOW_MS) s.shift();
    const span = atMs - s[0].at;
    if (span < RATE_WINDOW_MS / 2) return null;
    return ((count - s[0].count) * 1000) / span;
  }
}
