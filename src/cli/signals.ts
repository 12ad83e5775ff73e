/**
 * The one way the process hears it should stop: SIGINT, and SIGTERM where
 * the platform has it.
 *
 * @module
 */

const SIGNALS: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];

/**
 * An AbortSignal that fires on the first shutdown signal. Later signals are
 * taken and ignored until `dispose()` removes the listeners (it is safe to
 * call twice): call it once the store is closed, so a repeated Ctrl-C, or a
 * SIGTERM passed on twice by a task runner or service manager, cannot end
 * the process halfway through closing. After `dispose()` a signal falls
 * back to the default: ending the process.
 */
export function shutdownSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    for (const s of SIGNALS) Deno.removeSignalListener(s, stop);
  };
  for (const s of SIGNALS) Deno.addSignalListener(s, stop);
  return { signal: controller.signal, dispose };
}

/**
 * Resolves once a shutdown signal arrived and `onStop` finished; signals
 * meanwhile are ignored (see {@linkcode shutdownSignal}).
 */
export async function untilShutdown(onStop: () => Promise<void>): Promise<void> {
  const { signal, dispose } = shutdownSignal();
  await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
  console.log("\nstopping...");
  try {
    await onStop();
  } finally {
    dispose();
  }
}
