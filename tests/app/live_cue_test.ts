import { strict as assert } from "node:assert";
import { EventBus } from "../../src/app/bus.ts";
import { CUE_LEAD_M, LiveCues } from "../../src/app/live/live_cue.ts";
import type { CoachingNote, CoachingNotes } from "../../src/core/analysis/coaching_notes.ts";

function note(n: number, loss: number, at: number): CoachingNote {
  return {
    n,
    name: "",
    corner: `Turn ${n}`,
    loss_s: loss,
    causes: [],
    text: `Turn ${n}: ${loss} s lost`,
    cue: `Turn ${n}: brake later`,
    cue_at_m: at,
  };
}

function notesOf(list: CoachingNote[]): CoachingNotes {
  return {
    lap_id: 7,
    ref_id: 3,
    ref_hub_lap_id: null,
    ref_driver: null,
    source: "lap",
    lap_start_m: null,
    lap_delta_s: 0.5,
    notes_sum_s: 0.5,
    summary: "",
    unknown: [],
    notes: list,
  };
}

Deno.test("the cue is the first note's, on the next lap of the session, before its point", () => {
  const bus = new EventBus();
  const cues = new LiveCues({ bus });
  assert.equal(cues.at(1, 5, 100), null);
  bus.emit({
    type: "notes",
    session_id: 1,
    lap_number: 4,
    notes: notesOf([note(4, 0.3, 900), note(2, 0.1, 400)]),
  });
  const cue = { text: "Turn 4: brake later", n: 4, name: "", loss_s: 0.3, lap_id: 7, at_m: 900 };
  assert.deepEqual(cues.at(1, 5, 900 - CUE_LEAD_M), cue);
  assert.deepEqual(cues.at(1, 5, 899.9), cue);
  assert.equal(cues.at(1, 5, 900 - CUE_LEAD_M - 0.1), null);
  assert.equal(cues.at(1, 5, 900), null);
  // Not on the noted lap, nor two laps on, nor in another session.
  assert.equal(cues.at(1, 4, 800), null);
  assert.equal(cues.at(1, 6, 800), null);
  assert.equal(cues.at(2, 5, 800), null);
  assert.equal(cues.at(null, 5, 800), null);
  // A lap whose first note gained time, or without notes, gives no cue.
  bus.emit({ type: "notes", session_id: 1, lap_number: 5, notes: notesOf([note(1, -0.2, 500)]) });
  assert.equal(cues.at(1, 6, 400), null);
  bus.emit({ type: "notes", session_id: 1, lap_number: 6, notes: notesOf([]) });
  assert.equal(cues.at(1, 7, 400), null);
  cues.close();
  assert.equal(bus.size, 0);
});
