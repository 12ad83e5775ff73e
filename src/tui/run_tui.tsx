/**
 * Starts the dashboard on the process's terminal, or its plain-text fallback
 * when there is no terminal, and tells the caller when the driver quit.
 *
 * @module
 */
import process from "node:process";
import { render, type RenderOptions } from "ink";
import type { AppFace } from "../app/create_app.ts";
import { AppView } from "./app_view.tsx";
import type { TuiNotices } from "./notices.ts";
import type { LivePageQr } from "./qr_overlay.tsx";
import { runPlainStatus } from "./plain_status.ts";
import { tuiMode } from "./tui_mode.ts";

export { type TuiMode, tuiMode } from "./tui_mode.ts";

/** Options of {@linkcode runTui}. */
export interface TuiOptions {
  /** Ends the dashboard from outside (a signal handler); the promise then resolves. */
  signal?: AbortSignal;
  /** Folder for exported laps and bundles (created on the first export); the current directory by default. */
  outDir?: string;
  /** The HTTP API's address, shown in the header. */
  apiUrl?: string;
  /** Notices from the command (a new store, the store's space, the demo's drive over); plain mode prints them. */
  notices?: TuiNotices;
  /** The live page's QR code (`--lan`), drawn over the view on start and on `p`; Ink mode only. */
  livePage?: LivePageQr;
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

/** Entering the alternate screen, as Ink writes it. */
export const ENTER_ALTERNATE_SCREEN = "\u001B[?1049h";

/** Clears the screen and puts the cursor at its top left. */
export const CLEAR_AND_HOME = "\u001B[2J\u001B[H";

/**
 * `stdout` with one change: right after the alternate screen is entered,
 * the screen is cleared and the cursor homed. Entering keeps the cursor
 * where the shell left it (under npm's and deno's lines), and Ink draws its
 * first frame from there, a few rows down. Everything else passes through.
 */
export function homeOnAlternateScreen<T extends NodeJS.WritableStream>(stdout: T): T {
  const write = (chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : null;
    const out = text?.includes(ENTER_ALTERNATE_SCREEN)
      ? text.replace(ENTER_ALTERNATE_SCREEN, ENTER_ALTERNATE_SCREEN + CLEAR_AND_HOME)
      : chunk;
    return (stdout.write as (...args: unknown[]) => boolean)(out, ...rest);
  };
  return new Proxy(stdout, {
    get(target, key) {
      if (key === "write") return write;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Runs the dashboard until the driver quits (`q` or Ctrl+C) or `signal`
 * aborts. In Ink mode the terminal is put in raw mode on the alternate
 * screen, and restored (screen, cursor, cooked mode) before the promise
 * resolves. In plain mode nothing touches the terminal. Closing the HTTP
 * server, the UDP socket and the store is the caller's job, after this
 * resolves.
 */
export async function runTui(app: AppFace, opts: TuiOptions = {}): Promise<void> {
  if (tuiMode(opts) === "plain") {
    return await runPlainStatus(app, {
      signal: opts.signal,
      intervalMs: opts.statusIntervalMs,
      write: opts.write,
      notices: opts.notices,
    });
  }
  const stdout = homeOnAlternateScreen(opts.streams?.stdout ?? process.stdout);
  const tree = (
    <AppView
      app={app}
      outDir={opts.outDir}
      apiUrl={opts.apiUrl}
      notices={opts.notices}
      livePage={opts.livePage}
    />
  );
  const instance = render(tree, {
    ...opts.streams,
    stdout,
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
