import { strict as assert } from "node:assert";
import { VIEWS } from "../../src/tui/views.ts";

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
