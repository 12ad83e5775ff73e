/**
 * The name prompt: when the live session's first full lap is stored and the
 * session is still unnamed, the dashboard asks for the track's name, with
 * official names from the catalogue as suggestions: those the lap's shape
 * points to (its reference-line verdict, GET /api/laps/{id}/identify), both
 * of a pair the shape cannot tell apart, and, as the driver types, every
 * configuration the typed words match. Saving makes a track signature from
 * that lap and names the session (POST /api/tracks semantics, through
 * `app.tracks.create`). When it asks and when it has the keyboard is
 * use_name_prompt.ts's. A session named by matching never asks.
 *
 * @module
 */
import { TextField } from "./text_field.tsx";
import { useCallback, useEffect, useRef, useState } from "react";
import { Box, Text } from "ink";
import type { AppFace } from "../app/create_app.ts";
import { MAX_TRACK_CHARS, trackNameProblem } from "../core/track_name.ts";
import { PROMPT_FOCUS_KEY, type PromptTarget } from "./use_name_prompt.ts";
import { fit, lapTime, right } from "./format.ts";
import { type LapShape, type TrackSuggestion, trackSuggestions } from "./track_suggestions.ts";
import { useLatestState } from "./use_latest_state.ts";
import { useLoad } from "./use_load.ts";
import { useKeys } from "./use_keys.ts";

/** Props of {@linkcode NamePrompt}. */
export interface NamePromptProps {
  app: AppFace;
  target: PromptTarget;
  columns: number;
  /** Rows of the panel it is drawn in (under the live view), its rule included. */
  rows: number;
  /**
   * The text it starts with once it has the keyboard (the key that gave it
   * the keyboard, and those typed in the same read), or null while the
   * view's and the root's keys work.
   */
  typing: string | null;
  /** True when the read that gave it the keyboard ended with Enter: it saves `typing` at once. */
  submit?: boolean;
  /** Whether the view on screen has keys of its own: then only `n` gives the prompt the keyboard. */
  viewHasKeys: boolean;
  /** The dashboard's own keys, as the waiting prompt names them (`1-6 ? q`). */
  rootKeys: string;
  /** Told the rows the panel takes now (at most `rows`), so the view above can use the rest. */
  onRows?(rows: number): void;
  /** Called once the prompt is done: saved (with what to say) or dismissed (`dismissed` true). */
  onClose(notice: string | null, dismissed?: boolean): void;
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

/**
 * One suggestion's line, `width` wide at most: the official name, its
 * official length, and how far the driven lap's length is from it, said as
 * such (`lap 1.0% off`), never a bare percentage.
 */
export function suggestionLine(s: TrackSuggestion, picked: boolean, width: number): string {
  const off = s.off === null ? "" : `  lap ${right(`${(s.off * 100).toFixed(1)}%`, 6)} off`;
  const km = right((s.length_m / 1000).toFixed(3) + " km", 9);
  return `${picked ? ">" : " "} ${fit(s.name, width - 28)} ${km}${off}`;
}

/** The prompt's keys, on its last line: how to save it and how to dismiss it. */
export const PROMPT_KEYS = "Enter save  Esc dismiss (leave it unnamed)";

/** Before {@linkcode PROMPT_KEYS} while there are suggestions to pick from. */
export const PICK_KEYS = "↑↓ pick  Tab copy it  ";

/** The prompt's last line: the picking keys only while there is something to pick. */
export function promptKeys(suggestions: number): string {
  return (suggestions > 0 ? PICK_KEYS : "") + PROMPT_KEYS;
}

/** After the title while the prompt has the keyboard: every key is text (JSX would lose the spaces). */
const TYPING_NOTE = "  (keys are text)";

/**
 * The last line while the prompt has no keyboard: what gives it the
 * keyboard. A view with keys of its own keeps them all but `n`; on one
 * without (Live) a typed letter starts the name, and `rootKeys` (the
 * dashboard's own keys, such as `1-6 ? q`) keep their use.
 */
export function waitingKeys(viewHasKeys: boolean, rootKeys: string): string {
  return viewHasKeys
    ? `${PROMPT_FOCUS_KEY} name it (the view's keys work until then)`
    : `type the name, or ${PROMPT_FOCUS_KEY} or Enter first (${rootKeys} keep their use until then)`;
}

/**
 * Why `name` cannot be saved, naming the field and the one rule of
 * src/core/track_name.ts in words that fit 80 columns, or null when it
 * can: a name is never cut to fit, always refused with the reason.
 */
export function nameRefusal(name: string): string | null {
  switch (trackNameProblem(name)) {
    case null:
      return null;
    case "blank":
      return `track name is blank: type 1 to ${MAX_TRACK_CHARS} characters, or pick one`;
    case "too long":
      return `track name is too long: ${[...name.trim()].length} characters, ` +
        `at most ${MAX_TRACK_CHARS} (type a shorter one)`;
    case "control":
      return "track name holds a control character: none is allowed";
  }
}

/** Rows the prompt uses besides its suggestions: its rule, title, input, heading, message, keys. */
const FIXED_ROWS = 6;

/**
 * The prompt itself, a panel of at most `rows` rows drawn under the view
 * (which stays on screen); it has the keyboard once `typing` is not null,
 * and its last line says what gives it the keyboard, then that Esc
 * dismisses it.
 */
export function NamePrompt(props: NamePromptProps) {
  const { app, target, columns, rows, typing, submit, viewHasKeys, rootKeys, onClose } = props;
  const [text, setText] = useState("");
  // Read back by the handlers, so Down then Enter in one burst saves the row Down picked.
  const picked = useLatestState(-1);
  const pick = picked.value;
  // Bumped when Tab fills the text: the input is remade, so its cursor starts at the end.
  const [fills, setFills] = useState(0);
  const [shape, setShape] = useState<LapShape | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const focused = typing !== null;
  // The keys that gave the prompt the keyboard start its text, set while rendering so the
  // first frame with the field listening already holds them.
  const [seed, setSeed] = useState<string | null>(null);
  if (typing !== seed) {
    setSeed(typing);
    if (typing !== null) setText(typing);
  }

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
  const used = FIXED_ROWS + suggestions.length;
  useEffect(() => props.onRows?.(used), [used, props.onRows]);
  const chosenAt = (at: number) => at >= 0 && at < suggestions.length ? suggestions[at] : null;

  const save = useCallback((typed: string) => {
    const name = chosenAt(picked.get())?.name ?? typed.trim();
    if (saving) return;
    const refused = nameRefusal(name);
    if (refused) {
      setError(refused);
      return;
    }
    setSaving(true);
    app.tracks.create({ name, lap_id: target.lapId }).then(
      (r) => onClose(`session ${target.sessionId} named "${r.signature.name}"`),
      (err) => {
        setSaving(false);
        setError((err as Error).message);
      },
    );
  }, [app, target, suggestions, saving, onClose]);

  useEarlyEnter(submit === true, typing, save);

  useKeys((_input, key) => {
    if (key.escape) {
      onClose(
        `session ${target.sessionId} left unnamed; no more asking (Sessions: r names it)`,
        true,
      );
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
    }
  }, { isActive: focused });

  const width = Math.max(40, columns);
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
      <Title target={target} lengthM={lengthM} focused={focused} />
      <Text wrap="truncate">
        {"Track name: "}
        <TextField
          key={fills}
          value={text}
          onChange={(v) => {
            // Here, not in the prompt's key handler: that one sees a read's keys after the field's.
            setError(null);
            setText(v);
            picked.set(-1);
          }}
          onSubmit={save}
          focus={focused}
        />
      </Text>
      <Text color="gray">{heading(text, shape, suggestions.length)}</Text>
      {suggestions.map((s, i) => (
        <Text key={s.name} wrap="truncate" inverse={i === pick}>
          {suggestionLine(s, i === pick, width)}
        </Text>
      ))}
      <Text color={error ? "red" : "cyan"} wrap="truncate">
        {error ?? (saving ? "saving..." : " ")}
      </Text>
      <Text color="gray" wrap="truncate">
        {focused ? promptKeys(suggestions.length) : waitingKeys(viewHasKeys, rootKeys)}
      </Text>
    </Box>
  );
}

/**
 * Saves `typing` once when `submit`: a pasted `Name⏎` gave the prompt the
 * keyboard, and its Enter came before the field listened.
 */
function useEarlyEnter(submit: boolean, typing: string | null, save: (typed: string) => void) {
  const submitted = useRef(false);
  useEffect(() => {
    if (!submit || typing === null || submitted.current) return;
    submitted.current = true;
    save(typing);
  }, [submit, typing, save]);
}

/** The prompt's first line: what it asks about, and whether keys are text now. */
function Title(
  { target, lengthM, focused }: { target: PromptTarget; lengthM: number | null; focused: boolean },
) {
  const length = lengthM === null ? "" : `, ${(lengthM / 1000).toFixed(2)} km`;
  return (
    <Text bold wrap="truncate">
      {`Name this track: session ${target.sessionId}, lap ${target.lapNumber} ` +
        `${lapTime(target.timeMs)}${length}`}
      {focused ? <Text color="gray" bold={false}>{TYPING_NOTE}</Text> : null}
    </Text>
  );
}
