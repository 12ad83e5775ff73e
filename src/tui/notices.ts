/**
 * Notices from outside the dashboard (the command that started it): a new
 * store was created, the demo's drive is over. The root shows the newest
 * one on a line under the header: a passing one for a few seconds, a
 * sticky one until another replaces it. Free of React, so a command that
 * never draws (serve) does not load it; the hook is in use_notice.ts.
 *
 * @module
 */
/** How long a passing notice stays, ms. */
export const PASSING_NOTICE_MS = 8000;

/** One notice. */
export interface Notice {
  text: string;
  /** Stays until replaced (true), or passes after {@linkcode PASSING_NOTICE_MS}. */
  sticky: boolean;
  /** Increases with every notice posted, so the same text posted twice is shown twice. */
  serial: number;
}

/** A mailbox of notices for the dashboard; safe to post before it is drawn. */
export class TuiNotices {
  #current: Notice | null = null;
  #serial = 0;
  #listeners = new Set<(notice: Notice) => void>();

  /** Posts `text`: passing by default, `sticky` to stay until the next notice. */
  post(text: string, opts: { sticky?: boolean } = {}): void {
    const notice = { text, sticky: opts.sticky ?? false, serial: ++this.#serial };
    this.#current = notice;
    for (const fn of this.#listeners) fn(notice);
  }

  /** The newest notice, or null before any. */
  get current(): Notice | null {
    return this.#current;
  }

  /** Calls `fn` with each notice posted from now on; returns the function that stops it. */
  subscribe(fn: (notice: Notice) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}
