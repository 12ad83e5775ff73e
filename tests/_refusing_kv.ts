/**
 * A fault-injecting store for tests: a Deno KV whose writes fail, while
 * `full` is set, with the very error SQLite gives on a full disk
 * ("database or disk is full"). Reads always work, as on a full disk.
 *
 * @module
 */

/** The message Deno KV throws when SQLite finds the disk full. */
export const DISK_FULL = "database or disk is full";

/** A store that refuses writes on cue. */
export interface RefusingKv {
  /** The store to hand the code under test. */
  kv: Deno.Kv;
  /** While true, every write (set, delete, an atomic commit) throws {@linkcode DISK_FULL}. */
  full: boolean;
  /** Writes refused so far. */
  refused: number;
}

/** Wraps `kv` so its writes can be refused (see {@linkcode RefusingKv}). */
export function refusingKv(kv: Deno.Kv): RefusingKv {
  const state: RefusingKv = { kv, full: false, refused: 0 };
  const refuse = () => {
    if (!state.full) return;
    state.refused++;
    throw new TypeError(DISK_FULL);
  };
  const wrapOp = (op: Deno.AtomicOperation): Deno.AtomicOperation => {
    const proxy: Deno.AtomicOperation = new Proxy(op, {
      get(target, prop) {
        if (prop === "commit") {
          return () => {
            try {
              refuse();
            } catch (err) {
              return Promise.reject(err);
            }
            return target.commit();
          };
        }
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  state.kv = new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "atomic") return () => wrapOp(target.atomic());
      if (prop === "set" || prop === "delete" || prop === "enqueue") {
        return (...args: unknown[]) => {
          try {
            refuse();
          } catch (err) {
            return Promise.reject(err);
          }
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return state;
}
