/**
 * The one way the process hears it should stop: SIGINT, and SIGTERM where
 * the platform has it.
 *
 * @module
 */

const SIGNALS: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];

/**
 * An AbortSignal that fires on the first shutdown signal. `dispose()`
 * removes the listeners (and is safe to call twice), so a later signal
 * falls back to the default: ending the process.
 */
export function shutdownSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => {
    dispose();
    controller.abort();
  };
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    for (const s of SIGNALS) Deno.removeSignalListener(s, stop);
  };
  for (const s of SIGNALS) Deno.addSignalListener(s, stop);
  return { signal: controller.signal, dispose };
}

/** Resolves once a shutdown signal arrived and `onStop` finished. */
export async function untilShutdown(onStop: () => Promise<void>): Promise<void> {
  const { signal } = shutdownSignal();
  await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
  console.log("\nstopping...");
  await onStop();
}
