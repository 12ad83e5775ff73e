/**
 * Hooks that turn the application's state into renders at a bounded rate.
 * Packets never render anything: a timer samples the state every
 * {@linkcode SAMPLE_MS} and a render happens only when the sample differs
 * from the one on screen, so the dashboard redraws at most 20 times a second
 * however fast telemetry arrives.
 *
 * @module
 */
import { useEffect, useRef, useState } from "react";

/** Sampling period: 20 samples, so at most 20 renders, a second. */
export const SAMPLE_MS = 50;

/** Calls `fn` every `ms` until the returned function is called. */
export type Every = (fn: () => void, ms: number) => () => void;

/** {@linkcode Every} on the real clock: `setInterval`. */
export const realEvery: Every = (fn, ms) => {
  const timer = setInterval(fn, ms);
  return () => clearInterval(timer);
};

/**
 * The latest value of `sample()`, re-read every `intervalMs` (by `every`,
 * the real clock unless a test drives its own). The component re-renders
 * only when a new value differs structurally (see {@linkcode sameValue})
 * from the current one, so only at a sample. `sample` may change between
 * renders; the newest one is used.
 */
export function useSampled<T>(
  sample: () => T,
  intervalMs: number = SAMPLE_MS,
  every: Every = realEvery,
): T {
  const sampleRef = useRef(sample);
  sampleRef.current = sample;
  const [value, setValue] = useState(sample);
  const shown = useRef(value);
  useEffect(() =>
    every(() => {
      const next = sampleRef.current();
      if (sameValue(shown.current, next)) return;
      shown.current = next;
      setValue(() => next);
    }, intervalMs), [intervalMs, every]);
  return value;
}

/**
 * Structural equality of plain data (primitives, arrays, plain objects):
 * true when both would print the same. Identical references short-cut.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) {
      return false;
    }
  }
  return true;
}
