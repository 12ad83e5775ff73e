/**
 * Starts the dashboard on the process's terminal, or its plain-text fallback
 * when there is no terminal, and tells the caller when the driver quit.
 *
 * @module
 */
import { render, type RenderOptions } from "ink";
import type { App } from "../app/create_app.ts";
import { AppView } from "./app_view.tsx";
import { runPlainStatus } from "./plain_status.ts";

/** Options of {@linkcode runTui}. */
export interface TuiOptions {
  /** Ends the dashboard from outside (a signal handler); the promise then resolves. */
  signal?: AbortSignal;
  /** Folder for exported laps; the current directory by default. */
  outDir?: string;
  /**
   * Draw with Ink (true) or print plain lines (false). By default Ink runs
   * only when both stdin and stdout are terminals: raw mode needs a terminal
   * on stdin, and redrawing needs one on stdout.
   */
  interactive?: boolean;
  /** Plain mode: milliseconds between status lines (5000). */
  statusIntervalMs?: number;
  /** Plain mode: where lines go (`console.log`). */
  write?: (line: string) => void;
  /** Ink mode: streams to use instead of the process's (tests). */
  streams?: Pick<RenderOptions, "stdin" | "stdout" | "stderr">;
}

/** Which face {@linkcode runTui} chose. */
export type TuiMode = "ink" | "plain";

/** The face `runTui` picks for `opts` on this process. */
export function tuiMode(opts: Pick<TuiOptions, "interactive"> = {}): TuiMode {
  const interactive = opts.interactive ?? (Deno.stdin.isTerminal() && Deno.stdout.isTerminal());
  return interactive ? "ink" : "plain";
}

/**
 * Runs the dashboard until the driver quits (`q` or Ctrl+C) or `signal`
 * aborts. In Ink mode the terminal is put in raw mode on the alternate
 * screen, and restored (screen, cursor, cooked mode) before the promise
 * resolves. In plain mode nothing touches the terminal. Closing the HTTP
 * server, the UDP socket and the store is the caller's job, after this
 * resolves.
 */
export async function runTui(app: App, opts: TuiOptions = {}): Promise<void> {
  if (tuiMode(opts) === "plain") {
    return await runPlainStatus(app, {
      signal: opts.signal,
      intervalMs: opts.statusIntervalMs,
      write: opts.write,
    });
  }
  const instance = render(<AppView app={app} outDir={opts.outDir} />, {
    ...opts.streams,
    exitOnCtrlC: true,
    patchConsole: true,
    maxFps: 20,
    alternateScreen: true,
    // We only get here on a terminal. Ink would otherwise fall back to
    // printing one final frame whenever a CI variable is set.
    interactive: true,
  });
  const unmount = () => instance.unmount();
  if (opts.signal?.aborted) unmount();
  else opts.signal?.addEventListener("abort", unmount, { once: true });
  try {
    await instance.waitUntilExit();
  } finally {
    opts.signal?.removeEventListener("abort", unmount);
  }
}
