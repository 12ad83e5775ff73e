/**
 * Notices from outside the dashboard (the command that started it): a new
 * store was created, the store's space is low or full, the demo's drive is
 * over. The root shows them on a line under the header: a passing one for
 * a few seconds, over the standing ones; a standing (sticky) one for as
 * long as what it says holds, whatever passes in between. Standing notices
 * have a topic (the store, the drive), so the store's state and the end of
 * the demo's drive stand side by side and a newer one of a topic replaces
 * the older. Free of React, so a command that never draws (serve) does not
 * load it; the hook is in use_notice.ts.
 *
 * @module
 */
/** How long a passing notice stays, ms. */
export const PASSING_NOTICE_MS = 8000;

/** One notice. */
export interface Notice {
  text: string;
  /** Stays until replaced or cleared (true), or passes after {@linkcode PASSING_NOTICE_MS}. */
  sticky: boolean;
  /** Increases with every notice posted, so the same text posted twice is shown twice. */
  serial: number;
}

/** Between standing notices on the one line. */
export const STANDING_SEPARATOR = "  ·  ";

/** A mailbox of notices for the dashboard; safe to post before it is drawn. */
export class TuiNotices {
  #current: Notice | null = null;
  #passing: Notice | null = null;
  #serial = 0;
  #standing = new Map<string, string>();
  #listeners = new Set<(notice: Notice | null) => void>();

  /**
   * Posts `text`: passing by default; `sticky` to stand until the next
   * sticky notice of the same `topic` ("" by default) or its
   * {@linkcode clear}.
   */
  post(text: string, opts: { sticky?: boolean; topic?: string } = {}): void {
    const notice = { text, sticky: opts.sticky ?? false, serial: ++this.#serial };
    if (notice.sticky) {
      // A topic posted again moves to the end: the newest standing notice is said last.
      this.#standing.delete(opts.topic ?? "");
      this.#standing.set(opts.topic ?? "", text);
    } else {
      this.#passing = notice;
    }
    this.#current = notice;
    for (const fn of this.#listeners) fn(notice);
  }

  /** Ends the standing notice of `topic`, if there is one. */
  clear(topic = ""): void {
    if (!this.#standing.delete(topic)) return;
    for (const fn of this.#listeners) fn(null);
  }

  /** The newest notice posted, or null before any. */
  get current(): Notice | null {
    return this.#current;
  }

  /** The newest passing notice posted, or null before any (its time is the dashboard's to keep). */
  get passing(): Notice | null {
    return this.#passing;
  }

  /** The standing notices, oldest topic first, on one line; null when none stands. */
  get standing(): string | null {
    return this.#standing.size === 0 ? null : [...this.#standing.values()].join(STANDING_SEPARATOR);
  }

  /**
   * Calls `fn` with each notice posted from now on, and with null when a
   * standing one is cleared; returns the function that stops it.
   */
  subscribe(fn: (notice: Notice | null) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}
