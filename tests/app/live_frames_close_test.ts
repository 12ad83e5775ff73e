import { strict as assert } from "node:assert";
import { EventBus } from "../../src/app/bus.ts";
import { LiveFrameService } from "../../src/app/live/live_frames.ts";
import { stubSession } from "../_sessions.ts";

const SESSION = stubSession();

/** A frame service whose session reads wait for `release`, then fail as a closed store does. */
function service() {
  const warnings: string[] = [];
  const log = { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
  const bus = new EventBus(log);
  let release = () => {};
  const gate = new Promise<void>((done) => release = done);
  let reads = 0;
  const frames = new LiveFrameService({ bus, now: () => new Date(0), log }, {
    live: { tap: () => () => {}, epoch: 0, session: SESSION },
    sessions: {
      laps: async () => {
        reads++;
        await gate;
        throw new Error("Database is closed");
      },
      lap: () => Promise.reject(new Error("unused")),
      bests: () => Promise.resolve([]),
    },
    bundles: { marks: () => Promise.resolve(null) },
  });
  return { frames, bus, warnings, release, reads: () => reads };
}

Deno.test("a reference read failing while the frames are open is reported", async () => {
  const s = service();
  s.bus.emit({ type: "session", session: SESSION, reason: "named" });
  s.release();
  await s.frames.settled();
  assert.deepEqual(s.warnings, ["reading the live reference lap failed"]);
  s.frames.close();
});

Deno.test("closing the frames: a read under way ends quietly, one queued never starts", async () => {
  const s = service();
  s.bus.emit({ type: "session", session: SESSION, reason: "named" });
  // Queued behind the first: it would read again.
  s.bus.emit({ type: "session", session: SESSION, reason: "named" });
  await new Promise((done) => setTimeout(done, 0));
  assert.equal(s.reads(), 1);
  s.frames.close();
  // The store closes under the read under way.
  s.release();
  await s.frames.settled();
  assert.equal(s.reads(), 1);
  assert.deepEqual(s.warnings, []);
  // Events after closing start nothing.
  s.bus.emit({ type: "session", session: SESSION, reason: "named" });
  await s.frames.settled();
  assert.equal(s.reads(), 1);
});
