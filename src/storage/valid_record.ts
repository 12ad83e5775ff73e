/**
 * Reading a small record that a check must accept before anyone uses it:
 * one rule for every store of derived or remembered data, so a record
 * written by other rules (or damaged) reads as absent, never half-trusted.
 *
 * @module
 */

/** The value at `key` when `valid` accepts it; null when absent or refused. */
export async function getValid<T>(
  kv: Deno.Kv,
  key: Deno.KvKey,
  valid: (value: unknown) => value is T,
): Promise<T | null> {
  const entry = await kv.get(key);
  return valid(entry.value) ? entry.value : null;
}
