/**
 * A long-running command under test: its standard output read line by line
 * as it comes, waited on for a line, then stopped with a signal.
 *
 * @module
 */
import { alive, descendants, HAS_PROC } from "./_process_tree.ts";

/** How a command ended. */
export interface Stopped {
  code: number;
  signal: Deno.Signal | null;
  stderr: string;
  /** Processes it started that outlived it (and were then killed). */
  left: number[];
}

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
  /**
   * Sends `signal` and resolves once it has ended, with its exit status, its
   * standard error, and the ids of the processes it started that were still
   * running after it ended (Linux; killed then, so nothing outlives the test).
   */
  stop(signal?: Deno.Signal): Promise<Stopped>;
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
      const tree = HAS_PROC ? descendants(child.pid) : [];
      try {
        child.kill(signal);
      } catch {
        // Already ended: its status says how.
      }
      const status = await child.status;
      // A process it started and left running (a task runner killed outright, or one that did
      // not pass the signal on) would hold the output pipe open forever: end it here.
      const left = tree.filter(alive);
      for (const pid of left) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // Gone meanwhile.
        }
      }
      await reading;
      return { code: status.code, signal: status.signal, stderr: await stderr, left };
    },
  };
}
