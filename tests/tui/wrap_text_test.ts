import { strict as assert } from "node:assert";
import { wrapText } from "../../src/tui/wrap_text.ts";

Deno.test("wrapText breaks after a slash or a space near the line's end, else at the width", () => {
  assert.deepEqual(wrapText("", 10, 3), [""]);
  assert.deepEqual(wrapText("short", 10, 3), ["short"]);
  const path = "wrote /home/someone/.local/share/sim-datalogger/exports/sim-datalogger-lap-12.json";
  const lines = wrapText(path, 40, 3);
  assert.deepEqual(lines, [
    "wrote /home/someone/.local/share/",
    "sim-datalogger/exports/",
    "sim-datalogger-lap-12.json",
  ]);
  assert.equal(lines.join(""), path);
  // No separator in the line's last third: a hard break.
  assert.deepEqual(wrapText("abcdefghijklmnopqrstuvwxyz", 10, 3), [
    "abcdefghij",
    "klmnopqrst",
    "uvwxyz",
  ]);
  // More than fits: the last line says so.
  assert.deepEqual(wrapText("abcdefghijklmnopqrstuvwxyz", 10, 2), ["abcdefghij", "klmnopqrs…"]);
  for (const l of wrapText(path, 25, 5)) assert.ok(l.length <= 25, l);
});
