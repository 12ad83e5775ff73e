/**
 * The child side of the crash tests: how a child process tells its parent,
 * line by line on standard output, where the write under test stands, so
 * the parent can aim its SIGKILL and afterwards know whether the kill landed
 * before, inside or after the write.
 *
 * Every line is `<event> <n> <ms>`: an event name, the 1-based ordinal of
 * the write it belongs to (0 when none), and milliseconds since the child
 * started. `console.log` writes synchronously, so every line printed before
 * the kill reaches the parent.
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
 * Resolves after the event loop has had a turn, so queued storage work can
 * progress. (A chain of zero-delay timeouts would be clamped to 4 ms each.)
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
