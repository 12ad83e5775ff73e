/**
 * Reading back a spill folder (laps or survey saves a process before this
 * one refused to lose): one rule for both keepers, so an unreadable folder
 * or file is reported and handled the same way for either.
 *
 * @module
 */
import type { Log } from "../log.ts";
import { messageOf } from "../../core/errors.ts";

/** A spill folder as reading it back needs it. */
export interface SpillReader<E, T> {
  /** The folder, for messages. */
  readonly dir: string;
  /** The entries present; throws when the folder cannot be read. */
  list(): E[];
  /** What entry `e` holds; throws when it is missing or unreadable. */
  read(e: E): T;
  /** Removes entry `e`. */
  remove(e: E): void;
}

/**
 * Calls `each` with every readable entry of `spill` and what it holds, in
 * the folder's order, one at a time (a spill can hold more than memory
 * should). A folder that cannot be read is warned of and answers false; an
 * entry that cannot be read is logged as a lost `what`, removed, counted
 * through `onLost` and skipped.
 */
export function readSpill<E, T>(
  spill: SpillReader<E, T>,
  log: Log,
  what: string,
  onLost: () => void,
  each: (entry: E, value: T) => void,
): boolean {
  let entries: E[];
  try {
    entries = spill.list();
  } catch (err) {
    log.warn(`the spill folder ${spill.dir} cannot be read`, err);
    return false;
  }
  for (const entry of entries) {
    let value: T;
    try {
      value = spill.read(entry);
    } catch (err) {
      onLost();
      log.error(
        `a spilled ${what} in ${spill.dir} cannot be read and is lost (${messageOf(err)})`,
      );
      spill.remove(entry);
      continue;
    }
    each(entry, value);
  }
  return true;
}
