/**
 * `ink-text-input`'s field with its key handler counted like every other
 * dashboard handler (see use_keys.ts): the field attaches its handler in an
 * effect of its own, so a field mounted afresh (a prompt that refills its
 * text by remounting it) listens only some time after the frame that shows
 * it; the count says when.
 *
 * @module
 */
import TextInput from "ink-text-input";
import type { ComponentProps } from "react";
import { useKeysCounted } from "./use_keys.ts";

/** The props of `ink-text-input`'s field. */
export type TextFieldProps = ComponentProps<typeof TextInput>;

/** `ink-text-input`'s field, its handler counted in `keyHandlerChanges` once attached. */
export function TextField(props: TextFieldProps) {
  // The child's effects (which attach its handler) run before this component's.
  useKeysCounted(props.focus !== false);
  return <TextInput {...props} />;
}
