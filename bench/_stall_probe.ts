/**
 * How long the main thread's event loop went without running a timer: a
 * 5 ms interval notes the longest gap between its runs.
 *
 * @module
 */

/** A running probe. */
export interface StallProbe {
  /** The longest gap seen so far, ms. */
  longest(): number;
  /** Stops probing. */
  stop(): void;
}

/** Starts a probe of main-loop stalls. */
export function stallProbe(): StallProbe {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return { longest: () => longest, stop: () => clearInterval(timer) };
}
