/**
 * The span guard (REFERENCE 4.2b): a lap counts for the session best only when
 * its distance span is close to the session's typical span, so a cut or an
 * aborted lap never becomes the best time.
 *
 * @module
 */

/**
 * Judges every lap of a session from the distance spans of its laps, in lap
 * order. Returns one flag per span. A lone lap always counts.
 */
export function judgeSpans(spans: readonly number[]): boolean[] {
  if (spans.length <= 1) return spans.map(() => true);
  let reference: number;
  let ratio: number;
  if (spans.length >= 3) {
    reference = median(spans.slice(-5));
    ratio = 0.97;
  } else {
    reference = Math.max(...spans);
    ratio = 0.93;
  }
  return spans.map((span) => span >= ratio * reference);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
