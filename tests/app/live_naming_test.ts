/**
 * Live naming on its own, over stand-ins for the live and survey services:
 * it follows an unnamed session's frames, restarts at each lap and at each
 * new session, asks for the name once per lap, and stops following a
 * session that has a name or a labelled survey.
 */
import { strict as assert } from "node:assert";
import { LiveNaming } from "../../src/app/live/live_naming.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import type { ReferenceMatch } from "../../src/core/identify/reference_match.ts";
import { defaultReferenceIndex } from "../../src/core/identify/reference_index.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { noFixtures } from "../_fixtures.ts";
import { captureFrames } from "../core/identify/_laps.ts";

const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";

/** Stand-ins: a live session that gets a name only when `nameIt` says so. */
function stage(opts: { nameIt?: boolean; slug?: string | null } = {}) {
  const calls: { frame: number; name: string }[] = [];
  let frame = 0;
  const state = { session: null as Session | null, epoch: 0, slug: opts.slug ?? null };
  const naming = new LiveNaming({
    live: {
      tap: () => () => {},
      get session() {
        return state.session;
      },
      get epoch() {
        return state.epoch;
      },
    },
    survey: {
      get slug() {
        return state.slug;
      },
    },
    name: (match: ReferenceMatch) => {
      calls.push({ frame, name: match.name });
      if (opts.nameIt) state.session = { track_name: match.name } as Session;
      return Promise.resolve();
    },
  }, defaultReferenceIndex());
  const feed = (frames: readonly Frame[], from = 0, to = frames.length) => {
    for (frame = from; frame < to; frame++) naming.frame(frames[frame]);
  };
  return { calls, state, feed };
}

Deno.test({
  name: "an unnamed session is named once per lap, mid-lap; a named one is not followed",
  ignore: noFixtures,
  fn() {
    const frames = captureFrames(SUZUKA);
    // The session never takes the name (the user named it meanwhile, say): asked once, in lap 1.
    const a = stage();
    a.feed(frames);
    assert.deepEqual(a.calls, [{ frame: 2383, name: "Suzuka Circuit" }]);
    // Lap 1 starts at packet 375, after the run-up, where the matcher restarts.
    assert.equal(frames[374].currentLap, 0);
    assert.equal(frames[375].currentLap, 1);
    // Named: from then on nothing is followed.
    const b = stage({ nameIt: true });
    b.feed(frames);
    assert.deepEqual(b.calls.map((c) => c.frame), [2383]);
    assert.equal(b.state.session?.track_name, "Suzuka Circuit");
  },
});

Deno.test({
  name: "a new session restarts the matcher; a labelled survey stops it",
  ignore: noFixtures,
  fn() {
    const frames = captureFrames(SUZUKA);
    const a = stage();
    a.feed(frames, 0, 1500);
    // The recorder began another session at packet 1500: what came before is not its road.
    a.state.epoch++;
    a.feed(frames, 1500);
    assert.equal(a.calls.length, 1);
    assert.ok(a.calls[0].frame > 2383, String(a.calls[0].frame));
    const b = stage({ slug: "suzuka-circuit" });
    b.feed(frames);
    assert.equal(b.calls.length, 0);
    // The survey stops mid-lap: followed from there on, as if the lap began there.
    b.state.slug = null;
    b.feed(frames, 1000);
    assert.equal(b.calls.length, 1);
    assert.equal(b.calls[0].name, "Suzuka Circuit");
  },
});
