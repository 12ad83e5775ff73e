/**
 * Medians of growing sample sets, recomputed only as often as the set grows
 * enough to move them, so estimating a width per 60 Hz frame stays cheap.
 *
 * @module
 */

/** A bounded set of samples whose median is cached between meaningful growth. */
export class SampleMedian {
  readonly #samples: Float64Array;
  #count = 0;
  #median = NaN;
  #medianCount = 0;

  /** Keeps at most `capacity` samples; later ones are ignored once full. */
  constructor(capacity: number) {
    this.#samples = new Float64Array(capacity);
  }

  /** Samples held. */
  get count(): number {
    return this.#count;
  }

  /** Adds one sample unless the set is full. */
  push(value: number): void {
    if (this.#count < this.#samples.length) this.#samples[this.#count++] = value;
  }

  /** Forgets every sample. */
  clear(): void {
    this.#count = 0;
    this.#median = NaN;
    this.#medianCount = 0;
  }

  /**
   * The median of the samples, or null with fewer than `min`. Recomputed
   * when the set has grown by `min` samples or a tenth since the last
   * computation, so it may trail the newest samples by that much.
   */
  median(min: number): number | null {
    const n = this.#count;
    if (n < min || n === 0) return null;
    if (n - this.#medianCount >= Math.max(min, this.#medianCount / 10) || this.#medianCount === 0) {
      const sorted = this.#samples.slice(0, n).sort();
      this.#median = n % 2 === 1 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      this.#medianCount = n;
    }
    return this.#median;
  }
}
