/**
 * How many fuzz inputs a run tries: the 20,000 by default,
 * FUZZ_RUNS to change it while developing.
 *
 * @module
 */

/** Inputs per fuzzed importer. */
export const FUZZ_RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? 20_000);

/** The fixed seed, so every CI run tries the same inputs; FUZZ_SEED explores others. */
export const FUZZ_SEED = Number(Deno.env.get("FUZZ_SEED") ?? 20_261_121);
