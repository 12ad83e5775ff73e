/**
 * The name prompt: when the live session's first full lap is stored and the
 * session is still unnamed, the dashboard asks for the track's name, with
 * official names from the catalogue as suggestions: those the lap's shape
 * points to (its reference-line verdict, GET /api/laps/{id}/identify), both
 * of a pair the shape cannot tell apart, and, as the driver types, every
 * configuration the typed words match. Saving makes a track signature from
 * that lap and names the session (POST /api/tracks semantics, through
 * `app.tracks.create`); Esc dismisses the prompt for that session for good.
 * A session named by matching never asks.
 *
 * @module
 */
import { TextField } from "./text_field.tsx";
import { useCallback, useEffect, useRef, useState } from "react";
import { Box, Text } from "ink";
import type { AppEvent } from "../app/events.ts";
import type { AppFace } from "../app/create_app.ts";
import { fit, lapTime, right } from "./format.ts";
import { type LapShape, trackSuggestions } from "./track_suggestions.ts";
import { useLatestState } from "./use_latest_state.ts";
import { useLoad } from "./use_load.ts";
import { useKeys } from "./use_keys.ts";

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

/** The prompt's state at the root: what it asks, and a line saying how it ended. */
export interface NamePromptState {
  target: PromptTarget | null;
  /** How the last prompt ended, for a few seconds; null otherwise. */
  notice: string | null;
  /** Closes the prompt with `notice` (null: silently). */
  close(notice: string | null): void;
}

/** How long the notice of a closed prompt stays, ms. */
export const NOTICE_MS = 5000;

/**
 * Follows `app`'s bus: opens the prompt on the first full lap of an unnamed
 * session (once per session), and closes it when the session gets a name
 * some other way (matching, a rename) or goes away.
 */
export function useNamePrompt(app: AppFace): NamePromptState {
  const [target, setTarget] = useState<PromptTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const asked = useRef(new Set<number>());
  // The bus listener outlives renders: it reads the open prompt from here.
  const open = useRef<PromptTarget | null>(null);
  const show = useCallback((next: PromptTarget | null, text: string | null) => {
    open.current = next;
    setTarget(next);
    setNotice(text);
  }, []);
  useEffect(() =>
    app.bus.subscribe((event) => {
      const next = promptFor(event, asked.current);
      if (next) {
        asked.current.add(next.sessionId);
        if (open.current === null) show(next, null);
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
  const close = useCallback((text: string | null) => show(null, text), [show]);
  return { target, notice, close };
}

/** Props of {@linkcode NamePrompt}. */
export interface NamePromptProps {
  app: AppFace;
  target: PromptTarget;
  columns: number;
  /** Rows of the panel it is drawn in (under the live view), its rule included. */
  rows: number;
  /** Called once the prompt is done: saved (with what to say) or dismissed. */
  onClose(notice: string | null): void;
}

/** The line above the suggestions: where they come from, or why there are none. */
export function heading(typed: string, shape: LapShape | null, count: number): string {
  const typing = typed.trim() !== "";
  if (count === 0) {
    if (typing) return "No official circuit matches; Enter saves the name as typed.";
    return shape === null
      ? "Looking at the lap's shape..."
      : "The lap's shape fits no official circuit; type its name.";
  }
  if (typing) return "Official circuits (the lap's shape first):";
  const fits = shape?.suggestions.filter((s) => s.fit === "fits").length ?? 0;
  if (fits > 1) return "The lap's shape fits these equally; pick one:";
  return fits === 1 ? "The lap's shape fits:" : "The lap ran close to:";
}

/** The prompt's keys, on its last line: how to save it and how to dismiss it. */
export const PROMPT_KEYS = "Enter save  Esc dismiss (leave it unnamed)";

/** Before {@linkcode PROMPT_KEYS} while there are suggestions to pick from. */
export const PICK_KEYS = "↑↓ pick  Tab copy it  ";

/** The prompt's last line: the picking keys only while there is something to pick. */
export function promptKeys(suggestions: number): string {
  return (suggestions > 0 ? PICK_KEYS : "") + PROMPT_KEYS;
}

/** After the title: while the prompt is up, every key is text (a constant: JSX would lose the spaces). */
const TYPING_NOTE = "  (keys are text)";

/** Rows the prompt uses besides its suggestions: its rule, title, input, heading, message, keys. */
const FIXED_ROWS = 6;

/**
 * The prompt itself, a panel of at most `rows` rows drawn under the view
 * (which stays on screen); it has the keyboard while shown, and its last
 * line says that Esc dismisses it.
 */
export function NamePrompt({ app, target, columns, rows, onClose }: NamePromptProps) {
  const [text, setText] = useState("");
  // Read back by the handlers, so Down then Enter in one burst saves the row Down picked.
  const picked = useLatestState(-1);
  const pick = picked.value;
  // Bumped when Tab fills the text: the input is remade, so its cursor starts at the end.
  const [fills, setFills] = useState(0);
  const [shape, setShape] = useState<LapShape | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useLoad(
    () => app.tracks.explainLap(target.lapId),
    [app, target.lapId],
    (why) => setShape({ length_m: why.length_m, suggestions: why.suggestions }),
    // The lap went away meanwhile: no shape to go by, the name can still be typed.
    () => setShape({ length_m: null, suggestions: [] }),
  );

  const lengthM = shape?.length_m ?? null;
  // A panel of `rows` under the live view: the suggestions get what the fixed rows leave.
  const limit = Math.max(1, Math.min(8, rows - FIXED_ROWS));
  const suggestions = trackSuggestions(text, shape, limit);
  const chosenAt = (at: number) => at >= 0 && at < suggestions.length ? suggestions[at] : null;

  const save = useCallback((typed: string) => {
    const name = chosenAt(picked.get())?.name ?? typed;
    if (saving) return;
    setSaving(true);
    app.tracks.create({ name, lap_id: target.lapId }).then(
      (r) => onClose(`session ${target.sessionId} named "${r.signature.name}"`),
      (err) => {
        setSaving(false);
        setError((err as Error).message);
      },
    );
  }, [app, target, suggestions, saving, onClose]);

  useKeys((input, key) => {
    if (key.escape) {
      onClose(`session ${target.sessionId} left unnamed`);
    } else if (key.upArrow) {
      picked.set(Math.max(-1, picked.get() - 1));
    } else if (key.downArrow) {
      picked.set(Math.min(suggestions.length - 1, picked.get() + 1));
    } else if (key.tab) {
      const s = chosenAt(picked.get()) ?? suggestions[0];
      if (s) {
        setText(s.name);
        picked.set(-1);
        setFills((n) => n + 1);
      }
    } else if (input !== "" && !key.return) {
      setError(null);
    }
  });

  const width = Math.max(40, columns);
  const length = lengthM === null ? "" : `, ${(lengthM / 1000).toFixed(2)} km`;
  return (
    <Box
      flexDirection="column"
      width={width}
      borderStyle="single"
      borderColor="cyan"
      borderTop
      borderBottom={false}
      borderLeft={false}
      borderRight={false}
    >
      <Text bold wrap="truncate">
        {`Name this track: session ${target.sessionId}, lap ${target.lapNumber} ` +
          `${lapTime(target.timeMs)}${length}`}
        <Text color="gray" bold={false}>{TYPING_NOTE}</Text>
      </Text>
      <Text wrap="truncate">
        {"Track name: "}
        <TextField
          key={fills}
          value={text}
          onChange={(v) => {
            setText(v);
            picked.set(-1);
          }}
          onSubmit={save}
          focus
        />
      </Text>
      <Text color="gray">{heading(text, shape, suggestions.length)}</Text>
      {suggestions.map((s, i) => (
        <Text key={s.name} wrap="truncate" inverse={i === pick}>
          {`${i === pick ? ">" : " "} ${fit(s.name, width - 22)} ${
            right((s.length_m / 1000).toFixed(3) + " km", 9)
          }${s.off === null ? "" : right(`${(s.off * 100).toFixed(1)}%`, 7)}`}
        </Text>
      ))}
      <Text color={error ? "red" : "cyan"} wrap="truncate">
        {error ?? (saving ? "saving..." : " ")}
      </Text>
      <Text color="gray" wrap="truncate">{promptKeys(suggestions.length)}</Text>
    </Box>
  );
}
