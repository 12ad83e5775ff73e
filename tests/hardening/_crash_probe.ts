/**
 * The child side of the crash tests: how a child process tells its parent,
 * line by line on standard output, where the write under test stands, so
 * the parent can aim its SIGKILL and afterwards know whether the kill landed
 * before, inside or after the write.
 *
 * Every line is `<event> <n> <ms>`: an event name, the 1-based ordinal of
 * the write it belongs to (0 when none), and milliseconds since the child
 * started. `console.log` writes synchronously, so every line printed before
 * the kill reaches the parent. A child given a {@linkcode Gate} kills itself
 * there, so that moment of a write is tried exactly, on any machine.
 *
 * @module
 */
import { setImmediate } from "node:timers";

const started = performance.now();

/** Prints `event n ms` for the parent. */
export function say(event: string, n = 0): void {
  console.log(`${event} ${n} ${(performance.now() - started).toFixed(1)}`);
}

/** What {@linkcode watchCommits} reports about one atomic commit. */
export interface CommitInfo {
  /** Keys the commit sets. */
  sets: Deno.KvKey[];
  /** Keys the commit deletes. */
  deletes: Deno.KvKey[];
}

/** Hooks around every atomic commit made on a store. */
export interface CommitHooks {
  /** Called synchronously when a commit is issued, before it reaches the database. */
  before?: (info: CommitInfo) => void;
  /** Called once the commit has resolved. */
  after?: (info: CommitInfo, ok: boolean) => void;
}

/** True when `key` starts with `prefix`, part by part. */
export function keyStartsWith(key: Deno.KvKey, prefix: Deno.KvKey): boolean {
  return prefix.length <= key.length && prefix.every((part, i) => key[i] === part);
}

/**
 * Calls `hooks` around every `kv.atomic()` commit, with the keys it sets and
 * deletes, so a child can tell which write a commit belongs to without
 * touching the code under test. Plain `kv.set` calls are not seen.
 */
export function watchCommits(kv: Deno.Kv, hooks: CommitHooks): void {
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const info: CommitInfo = { sets: [], deletes: [] };
    const set = op.set.bind(op);
    const del = op.delete.bind(op);
    const commit = op.commit.bind(op);
    op.set = (key, value, options) => {
      info.sets.push(key);
      return set(key, value, options);
    };
    op.delete = (key) => {
      info.deletes.push(key);
      return del(key);
    };
    op.commit = async () => {
      hooks.before?.(info);
      const result = await commit();
      hooks.after?.(info, result.ok);
      return result;
    };
    return op;
  };
}

/**
 * A point of a write where a child kills itself (SIGKILL): just before the
 * write's `commit`-th commit is issued, or just after it resolved. Counting
 * only the write's own commits, the same gate is the same moment of the
 * write in every run, however the machine schedules it.
 */
export interface Gate {
  /** The write (1-based). */
  n: number;
  /** Its commit (1-based). */
  commit: number;
  when: "before" | "after";
}

/** A gate as a child takes it on its command line: `n:commit:when`. */
export function formatGate(gate: Gate): string {
  return `${gate.n}:${gate.commit}:${gate.when}`;
}

/** Parses {@linkcode formatGate}'s text; null for no text. Throws on anything else. */
export function parseGate(text: string | undefined): Gate | null {
  if (text === undefined || text === "") return null;
  const m = /^(\d+):(\d+):(before|after)$/.exec(text);
  if (!m) throw new Error(`bad gate "${text}": expected n:commit:before|after`);
  return { n: Number(m[1]), commit: Number(m[2]), when: m[3] as Gate["when"] };
}

/**
 * The progress lines of a child's numbered writes, and its gate. The child
 * calls {@linkcode issuing} as each commit of write `n` is issued and
 * {@linkcode resolved} once it resolved; the tracker prints `write n` at the
 * write's first commit, `done n` after each of its commits, `visible n`
 * once the commit that makes the write readable went through, and kills the
 * process at the gate (after printing, so the parent sees where it stood).
 */
export class WriteTracker {
  readonly #gate: Gate | null;
  #n = 0;
  #commits = 0;

  /** Tracks writes; kills the process at `gate` when one is given. */
  constructor(gate: Gate | null) {
    this.#gate = gate;
  }

  /** The next commit of write `n` (its first: the write begins) is about to be issued. */
  issuing(n: number): void {
    if (n !== this.#n) {
      this.#n = n;
      this.#commits = 0;
      say("write", n);
    }
    this.#commits++;
    this.#stopAt("before");
  }

  /** The commit last issued for write `n` resolved; `visible` when it made the write readable. */
  resolved(n: number, visible: boolean): void {
    say("done", n);
    if (visible) say("visible", n);
    this.#stopAt("after");
  }

  #stopAt(when: Gate["when"]): void {
    const g = this.#gate;
    if (g && g.when === when && g.n === this.#n && g.commit === this.#commits) {
      Deno.kill(Deno.pid, "SIGKILL");
    }
  }
}

/**
 * Resolves after the event loop has had a turn, so queued storage work can
 * progress. (A chain of zero-delay timeouts would be clamped to 4 ms each.)
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
