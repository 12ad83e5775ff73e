/**
 * When the dashboard asks for a track's name, and when the prompt has the
 * keyboard. The prompt opens on the first full lap of an unnamed session
 * WITHOUT the keyboard: a driver pressing `1` for the Live view, or a
 * view's key, gets what the key always does. It takes the keyboard on `n`
 * in any view, and in a view with no keys of its own (Live) also on Enter
 * or on any other key that types a character, which becomes the name's
 * first. Esc then dismisses it, and the dashboard asks no more for the
 * rest of the run (the demo starts an unnamed session every ten laps; a
 * driver who said no once is not asked again each time).
 *
 * @module
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Key } from "ink";
import type { AppEvent } from "../app/events.ts";
import type { AppFace } from "../app/create_app.ts";

/** What the prompt asks about: a session and the lap its signature is made from. */
export interface PromptTarget {
  sessionId: number;
  lapId: number;
  lapNumber: number;
  timeMs: number;
  car: string;
}

/**
 * The prompt to open for `event`, or null: a stored complete lap that can
 * hold a best (a signature is made from it), of a session still unnamed and
 * not asked about before.
 */
export function promptFor(event: AppEvent, asked: ReadonlySet<number>): PromptTarget | null {
  if (event.type !== "lap") return null;
  const { lap, session } = event;
  if (session.track_name !== "" || !lap.counts_for_best || !lap.complete) return null;
  if (asked.has(session.id)) return null;
  return {
    sessionId: session.id,
    lapId: lap.id,
    lapNumber: lap.number,
    timeMs: lap.time_ms,
    car: session.car_name,
  };
}

/** The key that gives the prompt the keyboard in every view. */
export const PROMPT_FOCUS_KEY = "n";

/** The prompt's state at the root: what it asks, whether it has the keyboard, how it ended. */
export interface NamePromptState {
  target: PromptTarget | null;
  /** The text the prompt starts with once it has the keyboard; null while it has not. */
  typing: string | null;
  /**
   * True once an Enter came in the same read as the key that gave the
   * prompt the keyboard (a pasted `Name⏎`): the prompt saves `typing` as
   * soon as it has the keyboard, as its field would have on that Enter.
   */
  submit: boolean;
  /** How the last prompt ended, for a few seconds; null otherwise. */
  notice: string | null;
  /**
   * Offers the prompt a key before the root acts on it; true when the
   * prompt took it (as text, or as the key that gives it the keyboard).
   * `where.rootKey`: the root has a use for the key (it takes it unless the
   * prompt is typing); `where.viewHasKeys`: the view on screen has keys of
   * its own (then only `n` gives the prompt the keyboard).
   */
  take(input: string, key: Key, where: { rootKey: boolean; viewHasKeys: boolean }): boolean;
  /** Closes the prompt with `notice` (null: silently); `dismissed` stops all asking. */
  close(notice: string | null, dismissed?: boolean): void;
}

/** How long the notice of a closed prompt stays, ms. */
export const NOTICE_MS = 5000;

/** True for a key that types a character (not a named or modified key). */
function typesText(input: string, key: Key): boolean {
  return input !== "" && !key.ctrl && !key.meta && !/\p{Cc}/u.test(input);
}

/**
 * Follows `app`'s bus: opens the prompt on the first full lap of an unnamed
 * session (once per session, never after a dismissal), and closes it when
 * the session gets a name some other way (matching, a rename).
 */
export function useNamePrompt(app: AppFace): NamePromptState {
  const [target, setTarget] = useState<PromptTarget | null>(null);
  const [typing, setTyping] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submit, setSubmit] = useState(false);
  const asked = useRef(new Set<number>());
  const dismissed = useRef(false);
  // Read by the bus listener and by keys of one read, which come before any render.
  const open = useRef<PromptTarget | null>(null);
  const typed = useRef<string | null>(null);
  const show = useCallback((next: PromptTarget | null, text: string | null) => {
    open.current = next;
    typed.current = null;
    setTarget(next);
    setTyping(null);
    setSubmit(false);
    setNotice(text);
  }, []);
  useEffect(() =>
    app.bus.subscribe((event) => {
      const next = promptFor(event, asked.current);
      if (next) {
        asked.current.add(next.sessionId);
        if (open.current === null && !dismissed.current) show(next, null);
        return;
      }
      const named = event.type === "session" ? event.session : null;
      if (named && named.track_name !== "" && open.current?.sessionId === named.id) {
        show(null, `session ${named.id} is "${named.track_name}"`);
      }
    }), [app, show]);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const take = useCallback((
    input: string,
    key: Key,
    { rootKey, viewHasKeys }: { rootKey: boolean; viewHasKeys: boolean },
  ) => {
    if (open.current === null) return false;
    const type = (text: string) => {
      typed.current = text;
      setTyping(text);
      return true;
    };
    // Keys of the read that gave it the keyboard, before its field listens: they are text.
    if (typed.current !== null) {
      // Its field is not listening yet, so the Enter of a pasted line is the prompt's to pass on.
      if (key.return) {
        setSubmit(true);
        return true;
      }
      return typesText(input, key) && type(typed.current + input);
    }
    if (rootKey) return false;
    if (input === PROMPT_FOCUS_KEY && !key.ctrl && !key.meta) return type("");
    if (viewHasKeys) return false;
    if (key.return) return type("");
    return typesText(input, key) && type(input);
  }, []);
  const close = useCallback((text: string | null, dismiss = false) => {
    if (dismiss) dismissed.current = true;
    show(null, text);
  }, [show]);
  return { target, typing, submit, notice, take, close };
}
