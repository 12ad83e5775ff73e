/**
 * A long-running command under test: its standard output read line by line
 * as it comes, waited on for a line, then stopped with a signal.
 *
 * @module
 */

/** A command running in the background. */
export interface Running {
  /** Every line of standard output so far. */
  readonly lines: readonly string[];
  /**
   * Resolves with the match of the first line (seen or to come) matching
   * `pattern`; rejects when output ends first, quoting what came, or after
   * `timeoutMs` (a hang must fail the test, not stall the suite).
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` and resolves with the exit status and standard error once it has ended. */
  stop(signal?: Deno.Signal): Promise<{ code: number; signal: Deno.Signal | null; stderr: string }>;
  /** The process. */
  readonly child: Deno.ChildProcess;
}

/** Starts `cmd` with `args` (in `cwd`, with `env` added), reading its output as it comes. */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Running {
  const child = new Deno.Command(cmd, {
    args: [...args],
    cwd: opts.cwd,
    env: opts.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const stderr = new Response(child.stderr).text();
  const reading = (async () => {
    let rest = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      let nl: number;
      while ((nl = rest.indexOf("\n")) >= 0) {
        lines.push(rest.slice(0, nl));
        rest = rest.slice(nl + 1);
      }
      for (const w of waiters) w();
    }
    if (rest !== "") lines.push(rest);
    ended = true;
    for (const w of waiters) w();
  })();
  return {
    lines,
    child,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line matching ${pattern} in ${timeoutMs} ms:\n${lines.join("\n")}`));
        }, timeoutMs);
        const check = () => {
          for (const line of lines) {
            const m = line.match(pattern);
            if (m) {
              clearTimeout(timer);
              waiters.delete(check);
              return resolve(m);
            }
          }
          if (ended) {
            clearTimeout(timer);
            waiters.delete(check);
            stderr.then((e) =>
              reject(new Error(`output ended before ${pattern}:\n${lines.join("\n")}\n${e}`))
            );
          }
        };
        waiters.add(check);
        check();
      });
    },
    async stop(signal = "SIGINT") {
      try {
        child.kill(signal);
      } catch {
        // Already ended: its status says how.
      }
      const status = await child.status;
      await reading;
      return { code: status.code, signal: status.signal, stderr: await stderr };
    },
  };
}
