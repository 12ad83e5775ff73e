/**
 * The load the UDP benches run beside the stream: the largest bundle import
 * the API takes.
 *
 * @module
 */
import { MAX_IMPORT_BYTES } from "../src/server/body.ts";
import { syntheticBundle } from "../tests/_bundles.ts";

/** A 64 MB import body: the 50,000-edge, 3-source bundle of `seed`, indented and padded to the limit. */
export function importBody(seed: number): string {
  const raw = syntheticBundle({
    cells: 50_000,
    sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
    runs: 25,
    seed,
    dx: 0.2,
  });
  const text = JSON.stringify(raw, null, 7);
  return text + " ".repeat(Math.max(0, MAX_IMPORT_BYTES - 1024 - text.length));
}

/** Posts each of `bodies` to POST /api/track-bundles/import at `url`, one after the other; throws on a refusal. */
export async function importBundles(url: string, bodies: string[]): Promise<void> {
  for (const body of bodies) {
    const res = await fetch(`${url}/api/track-bundles/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    if (!res.ok) throw new Error(`import: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
  }
}
