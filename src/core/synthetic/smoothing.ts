/**
 * Moving averages over sampled curves, used to turn noisy per-station
 * estimates (curvature, lateral offsets) into smooth signals.
 *
 * @module
 */

/**
 * Returns the centred moving average of `values` over `2 * half + 1` samples.
 * With `closed`, the series wraps around (a lap); otherwise the window is
 * clipped at both ends. The input is not modified; `half <= 0` copies it.
 */
export function movingAverage(
  values: ArrayLike<number>,
  half: number,
  closed: boolean,
): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const h = Math.max(0, Math.floor(half));
  if (n === 0) return out;
  if (h === 0) {
    for (let i = 0; i < n; i++) out[i] = values[i];
    return out;
  }
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + values[i];
  const total = prefix[n];
  for (let i = 0; i < n; i++) {
    let lo = i - h;
    let hi = i + h;
    if (!closed || 2 * h + 1 > n) {
      if (closed) {
        out[i] = total / n;
        continue;
      }
      lo = Math.max(0, lo);
      hi = Math.min(n - 1, hi);
      out[i] = (prefix[hi + 1] - prefix[lo]) / (hi - lo + 1);
      continue;
    }
    let sum: number;
    if (lo < 0) sum = prefix[hi + 1] + (total - prefix[n + lo]);
    else if (hi >= n) sum = (prefix[n] - prefix[lo]) + prefix[hi - n + 1];
    else sum = prefix[hi + 1] - prefix[lo];
    out[i] = sum / (2 * h + 1);
  }
  return out;
}
