/**
 * A one-line text prompt for views: a label, the text being typed, and the
 * keys that end it. Esc is the caller's to handle (its view's input hook
 * sees it), so the prompt itself only edits and submits.
 *
 * @module
 */
import { Text } from "ink";
import { TextField } from "./text_field.tsx";

/** Props of {@linkcode LinePrompt}. */
export interface LinePromptProps {
  /** What is asked, such as "Circuit label". */
  label: string;
  value: string;
  onChange(value: string): void;
  onSubmit(value: string): void;
  /** Whether keys go to the text. */
  focus: boolean;
}

/** Shown after the text (with its leading gap, which JSX text would drop). */
const HINT = "  Enter ok  Esc cancel";

/** `label: text█  Enter ok  Esc cancel` on one line. */
export function LinePrompt({ label, value, onChange, onSubmit, focus }: LinePromptProps) {
  return (
    <Text wrap="truncate">
      {`${label}: `}
      <TextField value={value} onChange={onChange} onSubmit={onSubmit} focus={focus} />
      <Text color="gray">{HINT}</Text>
    </Text>
  );
}
