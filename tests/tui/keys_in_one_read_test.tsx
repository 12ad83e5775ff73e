import { strict as assert } from "node:assert";
import { useState } from "react";
import { Text } from "ink";
import { render } from "ink-testing-library";
import type { Key } from "ink";
import { AppView } from "../../src/tui/app_view.tsx";
import { splitKeys } from "../../src/tui/split_keys.ts";
import { editLine } from "../../src/tui/line_edit.ts";
import { TextField } from "../../src/tui/text_field.tsx";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import { keysSettled, memoryApp, renderSized, waitFor } from "./_harness.tsx";

/** Ink's flags for plain text. */
const TEXT = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} satisfies Key;

/** The keys of `input` as short names: `3`, `A+shift`, `Enter`, `u+ctrl`. */
function names(input: string, key: Key = TEXT): string[] {
  return splitKeys(input, key).map(([i, k]) =>
    k.return
      ? "Enter"
      : k.tab
      ? "Tab"
      : k.backspace
      ? "Backspace"
      : k.ctrl
      ? `${i}+ctrl`
      : k.shift
      ? `${i}+shift`
      : i
  );
}

Deno.test("splitKeys: a read of several keys is each key, as Ink reports it alone", () => {
  assert.deepEqual(names("34"), ["3", "4"]);
  assert.deepEqual(names("2q"), ["2", "q"]);
  assert.deepEqual(names("AB\r"), ["A+shift", "B+shift", "Enter"]);
  assert.deepEqual(names("Spa\n"), ["S+shift", "p", "a", "Enter"]);
  assert.deepEqual(names("ab\x15c"), ["a", "b", "u+ctrl", "c"]);
  assert.deepEqual(names("a\tb\x7f"), ["a", "Tab", "b", "Backspace"]);
  // One key stays one key, whatever it is; so does a modified one.
  assert.deepEqual(names("é"), ["é"]);
  assert.deepEqual(splitKeys("u", { ...TEXT, ctrl: true }), [["u", { ...TEXT, ctrl: true }]]);
  assert.deepEqual(splitKeys("", { ...TEXT, upArrow: true }), [["", { ...TEXT, upArrow: true }]]);
});

Deno.test("editLine: Ctrl+U erases to the start, never types a u; Enter submits the line", () => {
  const line = { text: "Suzuka", cursor: 6 };
  assert.deepEqual(editLine(line, "u", { ...TEXT, ctrl: true }), {
    line: { text: "", cursor: 0 },
    submit: false,
  });
  assert.deepEqual(editLine(line, "x", { ...TEXT, ctrl: true }), { line, submit: false });
  assert.deepEqual(editLine(line, "", { ...TEXT, return: true }), { line, submit: true });
  assert.deepEqual(editLine({ text: "ab", cursor: 1 }, "X", TEXT).line, { text: "aXb", cursor: 2 });
  assert.deepEqual(editLine({ text: "ab", cursor: 1 }, "", { ...TEXT, backspace: true }).line, {
    text: "b",
    cursor: 0,
  });
  assert.deepEqual(editLine({ text: "Spa Fr", cursor: 6 }, "w", { ...TEXT, ctrl: true }).line, {
    text: "Spa ",
    cursor: 4,
  });
  // A control character among text is never typed into the line.
  assert.deepEqual(editLine({ text: "", cursor: 0 }, "a\u0007b", TEXT).line, {
    text: "ab",
    cursor: 2,
  });
});

/** A field that records each submitted text. */
function Field({ submitted }: { submitted: string[] }) {
  const [value, setValue] = useState("");
  return (
    <Text>
      {"Name: "}
      <TextField value={value} onChange={setValue} onSubmit={(v) => submitted.push(v)} />
    </Text>
  );
}

/** Renders {@linkcode Field} and waits for its key handler. */
async function field() {
  const submitted: string[] = [];
  const since = keyHandlerChanges();
  const r = render(<Field submitted={submitted} />);
  await keysSettled(since);
  return { r, submitted };
}

Deno.test("text field: AB and Enter in one read save AB; a pasted line ending in a newline saves", async () => {
  const { r, submitted } = await field();
  r.stdin.write("AB\r");
  await waitFor(() => String(submitted.length), (n) => n === "1");
  assert.deepEqual(submitted, ["AB"]);
  r.stdin.write("\x15Suzuka Circuit\n");
  await waitFor(() => String(submitted.length), (n) => n === "2");
  assert.deepEqual(submitted, ["AB", "Suzuka Circuit"]);
  r.unmount();
});

Deno.test("text field: two Backspaces in one read erase two characters; Ctrl+U is no u", async () => {
  const { r, submitted } = await field();
  r.stdin.write("abcd");
  await waitFor(r.lastFrame, (t) => t.startsWith("Name: abcd"));
  r.stdin.write("\x7f\x7f");
  await waitFor(r.lastFrame, (t) => t.trimEnd() === "Name: ab");
  // Ctrl+U alone, as Ink reports it: "u" with ctrl.
  r.stdin.write("\x15");
  await waitFor(r.lastFrame, (t) => t.trimEnd() === "Name:");
  r.stdin.write("xy\x15z\r");
  await waitFor(() => String(submitted.length), (n) => n === "1");
  assert.deepEqual(submitted, ["z"]);
  r.unmount();
});

Deno.test("view keys in one read: 34 opens Tracks, 6? the Bests view's help, 2q quits", async () => {
  const { app, close } = await memoryApp();
  let quits = 0;
  const since = keyHandlerChanges();
  const r = renderSized(<AppView app={app} onQuit={() => quits++} />, 100, 30);
  await keysSettled(since);
  r.stdin.write("34");
  await waitFor(r.lastFrame, (t) => t.includes("[4 Tracks]"));
  r.stdin.write("6?");
  await waitFor(r.lastFrame, (t) => t.includes("[6 Bests]") && t.includes("Bests view\n"));
  r.stdin.write("2q");
  await r.waitUntilExit();
  assert.equal(quits, 1);
  close();
});
