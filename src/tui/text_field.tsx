/**
 * The dashboard's one-line text field. Each key goes through
 * {@linkcode editLine} against the line as the previous key left it, not as
 * the last render drew it, so every key of one read counts: two Backspaces,
 * `AB` then Enter (the Enter submits "AB"), a pasted name ending in a
 * newline. Its key handler is a {@linkcode useKeys} one, counted in
 * `keyHandlerChanges` like every other.
 *
 * @module
 */
import { useRef, useState } from "react";
import { Text } from "ink";
import { editLine, type LineState } from "./line_edit.ts";
import { useKeys } from "./use_keys.ts";

/** Props of {@linkcode TextField}. */
export interface TextFieldProps {
  /** The text shown; the field starts with its cursor at the end. */
  value: string;
  /** Called with the new text after each key that changed it. */
  onChange(value: string): void;
  /** Called on Enter with the text as every key before it left it. */
  onSubmit?(value: string): void;
  /** Whether keys go to the field (and the cursor is drawn); true by default. */
  focus?: boolean;
}

/**
 * The text with an inverse cursor while focused. A `value` that changes
 * from outside (not by this field's own keys: a suggestion copied in, the
 * letter that opened a prompt) is taken as is, the cursor at its end.
 */
export function TextField({ value, onChange, onSubmit, focus = true }: TextFieldProps) {
  const line = useRef<LineState>({ text: value, cursor: [...value].length });
  // The value this field last saw from its parent: a different one came from outside.
  const seen = useRef(value);
  // A key that only moves the cursor changes no prop: this redraws the field.
  const [, setMoves] = useState(0);
  if (value !== seen.current) {
    seen.current = value;
    if (value !== line.current.text) {
      line.current = { text: value, cursor: [...value].length };
    }
  }
  useKeys((input, key) => {
    const step = editLine(line.current, input, key);
    const before = line.current;
    line.current = step.line;
    if (step.line.text !== before.text) onChange(step.line.text);
    else if (step.line.cursor !== before.cursor) setMoves((n) => n + 1);
    if (step.submit) onSubmit?.(step.line.text);
  }, { isActive: focus });
  const chars = [...line.current.text];
  if (!focus) return <Text>{line.current.text}</Text>;
  const c = line.current.cursor;
  return (
    <Text>
      {chars.slice(0, c).join("")}
      <Text inverse>{chars[c] ?? " "}</Text>
      {chars.slice(c + 1).join("")}
    </Text>
  );
}
