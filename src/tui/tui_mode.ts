/**
 * Which face the dashboard takes: Ink on a terminal, plain status lines
 * otherwise. A module of its own so that `start` can ask before loading the
 * dashboard's modules (Ink and React cost `serve` ~15 MB it never uses).
 *
 * @module
 */

/** Which face {@linkcode tuiMode} chose. */
export type TuiMode = "ink" | "plain";

/**
 * "ink" when `interactive` says so or, when it is not given, when both
 * standard input and output are terminals (raw-mode keys need one);
 * "plain" otherwise.
 */
export function tuiMode(opts: { interactive?: boolean } = {}): TuiMode {
  const interactive = opts.interactive ?? (Deno.stdin.isTerminal() && Deno.stdout.isTerminal());
  return interactive ? "ink" : "plain";
}
