import { strict as assert } from "node:assert";
import { VIEWS } from "../../src/tui/views.ts";
import { lapNotesNotice } from "../../src/tui/notes_line.ts";
import type { CoachingNotes } from "../../src/core/analysis/coaching_notes.ts";

Deno.test("every dashboard header drawn in docs/tui.md lists every view, in key order", () => {
  const doc = Deno.readTextFileSync(new URL("../../docs/tui.md", import.meta.url));
  // Lines drawn in the code blocks; a header is one with a view's tab marked current: `[2 Sessions]`.
  const drawn = doc.split("```").filter((_, i) => i % 2 === 1).flatMap((b) => b.split("\n"));
  const headers = drawn.filter((l) => /\[\d \w+\]/.test(l));
  assert.ok(headers.length >= 5, `${headers.length} headers`);
  const tabs = VIEWS.map((v) => `${v.key} ${v.title}`);
  for (const line of headers) {
    const found = tabs.map((t) => line.indexOf(t));
    assert.ok(found.every((at, i) => at >= 0 && (i === 0 || at > found[i - 1])), line);
  }
});

Deno.test("README quotes the notes line under the tabs in the form the dashboard draws it", () => {
  const readme = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
  const after = readme.split("the line under the tabs")[1];
  assert.ok(after !== undefined, "README mentions the line under the tabs");
  // The first quote after the mention is what the line shows.
  const quoted = /`([^`]+)`/.exec(after)?.[1];
  const notes = {
    notes: [{ corner: "Turn 3", cue: "Turn 3: brake later", loss_s: 0.9 }],
    summary: "",
    lap_delta_s: 0.9,
  } as unknown as CoachingNotes;
  assert.equal(quoted, lapNotesNotice(2, notes));
});
