/**
 * Circuits named out of the box, through the app: the shared real captures
 * on a fresh store (no signature, no bundle) are named from the reference
 * lines, live during the lap or after an import; what the user made known
 * still wins; two configurations that both fit leave the session unnamed
 * with both suggested.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { referenceLineOf, referenceLines } from "../../src/core/catalog/reference_lines.ts";
import { configurationById } from "../../src/core/catalog/tracks.ts";
import { openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { ReferenceIndex } from "../../src/core/identify/reference_index.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { listBundleHeads } from "../../src/storage/bundles.ts";
import { listLaps } from "../../src/storage/laps.ts";
import { getSession, listSessions } from "../../src/storage/sessions.ts";
import { listSignatures } from "../../src/storage/signatures.ts";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { broadBeanLaps, captureFrames, ENCRYPTED_LAPS } from "../core/identify/_laps.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";

async function withApp(
  fn: (app: App, events: AppEvent[]) => Promise<void>,
  opts: { kv?: Deno.Kv; references?: ReferenceIndex } = {},
): Promise<void> {
  const kv = opts.kv ?? await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW, references: opts.references });
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  try {
    // Built before the drive, so that live naming follows it from its first frame.
    await app.tracks.warmReferences();
    await fn(app, events);
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    if (!opts.kv) kv.close();
  }
}

async function drive(app: App, frames: readonly Frame[]): Promise<void> {
  for (const f of frames) app.live.ingest(f);
  await app.live.flush();
}

/** What the bus said, in order: sessions named (with the laps they had then) and laps stored. */
function story(events: readonly AppEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === "lap") return [`lap ${e.lap.number}: ${e.session.track_name}`];
    if (e.type === "session" && e.reason === "identified" && e.session) {
      const s = e.session;
      return [`named ${s.track_name} (${s.track_source}, ${s.lap_count} laps)`];
    }
    return [];
  });
}

async function nothingKnown(app: App): Promise<void> {
  assert.deepEqual(await listSignatures(app.kv), []);
  assert.deepEqual(await listBundleHeads(app.kv), []);
}

const EXPECTED_LIVE: Record<string, string> = {
  "broad-bean-raceway--full-course.A.gt7": "BB Raceway",
  "tsukuba-circuit--full-course.A.gt7": "Tsukuba Circuit",
  "brands-hatch--indy-circuit.A.gt7": "Brands Hatch Indy Circuit",
  "suzuka-circuit--full-course.A.gt7": "Suzuka Circuit",
  "suzuka-circuit--east-course.A.gt7": "Suzuka Circuit East Course",
  "circuit-de-spa-francorchamps--full-course.A.gt7": "Circuit de Spa-Francorchamps",
};

Deno.test({
  name: "the six encrypted captures, driven live on a fresh store, are named during the lap",
  ignore: noFixtures,
  async fn() {
    for (const [file] of ENCRYPTED_LAPS) {
      await withApp(async (app, events) => {
        // Each holds one lap or so of packets thinned to the shape: no lap is ever stored.
        await drive(app, captureFrames(`gt7/encrypted/${file}`));
        await nothingKnown(app);
        assert.deepEqual(story(events), [`named ${EXPECTED_LIVE[file]} (reference, 0 laps)`], file);
        const [session] = await listSessions(app.kv);
        assert.deepEqual(
          [session.track_name, session.track_source, session.kind],
          [EXPECTED_LIVE[file], "reference", "live"],
        );
        assert.deepEqual(app.live.session, session);
      });
    }
    // The Nordschleife fragment: a lap's end and 60 s of another lap, on a road four layouts share.
    await withApp(async (app, events) => {
      await drive(app, captureFrames("gt7/nordschleife-partial.tilde.gt7.gz"));
      assert.deepEqual(story(events), []);
      assert.deepEqual(await listSessions(app.kv), []);
    });
  },
});

Deno.test({
  name: "Suzuka and Spa on a fresh store: named live before their first lap is announced",
  ignore: noFixtures,
  async fn() {
    for (
      const [file, name] of [
        [SUZUKA, "Suzuka Circuit"],
        ["gt7/spa-full-lap.C.gt7.gz", "Circuit de Spa-Francorchamps"],
      ]
    ) {
      await withApp(async (app, events) => {
        await drive(app, captureFrames(file));
        await nothingKnown(app);
        // The lap's end finds no signature or bundle: the reference line's name stands.
        assert.deepEqual(story(events), [`named ${name} (reference, 0 laps)`, `lap 1: ${name}`]);
        const created = events.findIndex((e) => e.type === "session" && e.reason === "created");
        const named = events.findIndex((e) => e.type === "session" && e.reason === "identified");
        assert.ok(created >= 0 && created < named, file);
      });
    }
  },
});

Deno.test({
  name: "imported on a fresh store: Suzuka, Spa; the Nordschleife fragment names nothing",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      const named: string[] = [];
      for (
        const file of [
          "suzuka-full-lap.A.gt7.gz",
          "spa-full-lap.C.gt7.gz",
          "nordschleife-partial.tilde.gt7.gz",
        ]
      ) {
        const bytes = await Deno.readFile(join(SHARED_FIXTURES, "gt7", file));
        const result = await app.laps.importCapture(openCaptureFile(bytes));
        named.push(...result.named.map((n) => `${n.session}: ${n.track}`));
      }
      assert.deepEqual(named, ["1: Suzuka Circuit", "2: Circuit de Spa-Francorchamps"]);
      const sessions = await listSessions(app.kv);
      assert.deepEqual(sessions.map((s) => [s.id, s.track_name, s.track_source, s.kind]), [
        [2, "Circuit de Spa-Francorchamps", "reference", "imported"],
        [1, "Suzuka Circuit", "reference", "imported"],
      ]);
      await nothingKnown(app);
      // Nothing left to name: POST /api/tracks/identify tries them against what the user knows.
      assert.deepEqual(await app.tracks.identifyUnlabelled(), {
        checked: 2,
        identified: 0,
        tracks: {},
      });
    });
  },
});

Deno.test({
  name: "the four Broad Bean laps, driven the other way round, are BB Raceway (Reverse)",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      for (const lap of broadBeanLaps()) {
        const found = await app.tracks.identifyLap(lap);
        assert.deepEqual(found, {
          by: "reference",
          name: "BB Raceway (Reverse)",
          official_id: "092b5e",
          official_ids: ["092b5e"],
          direction: "reverse",
        });
      }
    });
  },
});

Deno.test({
  name: "user knowledge wins: a signature's name replaces the reference line's at the lap's end",
  ignore: noFixtures,
  async fn() {
    const kv = await Deno.openKv(":memory:");
    try {
      await withApp(async (app) => {
        await drive(app, captureFrames(SUZUKA));
        const [lap] = await listLaps(kv, 1);
        // The driver calls it something else: a signature of that lap, and session 1 renamed.
        await app.tracks.create({ name: "My Suzuka", lap_id: lap.id });
        assert.deepEqual(
          [(await getSession(kv, 1))?.track_name, (await getSession(kv, 1))?.track_source],
          ["My Suzuka", "user"],
        );
      }, { kv });
      // Another drive on the same circuit, by a fresh process on the same store.
      await withApp(async (app, events) => {
        await drive(app, captureFrames(SUZUKA));
        assert.deepEqual(story(events), [
          "named Suzuka Circuit (reference, 0 laps)",
          "named My Suzuka (signature, 1 laps)",
          "lap 1: My Suzuka",
        ]);
        const session = app.live.session!;
        assert.deepEqual([session.id, session.track_name, session.track_source], [
          2,
          "My Suzuka",
          "signature",
        ]);
        assert.deepEqual(await getSession(kv, 2), session);
      }, { kv });
    } finally {
      kv.close();
    }
  },
});

Deno.test({
  name: "a name the user types during the lap is never replaced, by the lap's end or anything",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, events) => {
      const frames = captureFrames(SUZUKA);
      let at = 0;
      // Up to the frame that named the session live.
      while (at < frames.length && app.live.session === null) {
        app.live.ingest(frames[at++]);
        if (at % 64 === 0) await app.live.flush();
      }
      await app.live.flush();
      const live = app.live.session as Session | null;
      assert.deepEqual([live?.track_name, live?.lap_count], ["Suzuka Circuit", 0]);
      await app.sessions.rename(live!.id, "Typed Name");
      await drive(app, frames.slice(at));
      assert.deepEqual(
        [app.live.session?.track_name, app.live.session?.track_source, app.live.session?.lap_count],
        ["Typed Name", "user", 1],
      );
      assert.deepEqual(story(events).at(-1), "lap 1: Typed Name");
      assert.deepEqual(await app.tracks.identifyUnlabelled(), {
        checked: 0,
        identified: 0,
        tracks: {},
      });
    });
  },
});

/**
 * Suzuka's reference line twice: as itself and as its East Course. A Suzuka
 * lap fits both, so which one it is cannot be told.
 */
function ambiguousIndex(): ReferenceIndex {
  const suzuka = referenceLineOf("6e378b")!;
  const east = { ...suzuka, configuration: configurationById("4414cb")!, twins: [] };
  return new ReferenceIndex([suzuka, east]);
}

Deno.test({
  name: "two configurations that fit leave the session unnamed, with both suggested",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app, events) => {
      await drive(app, captureFrames(SUZUKA));
      assert.deepEqual(story(events), ["lap 1: "]);
      const [lap] = await listLaps(app.kv, 1);
      const why = await app.tracks.explainLap(lap.id);
      assert.equal(why.identification, null);
      assert.deepEqual(why.suggestions.map((s) => [s.official_name, s.fit]), [
        ["Suzuka Circuit", "fits"],
        ["Suzuka Circuit East Course", "fits"],
      ]);
      assert.match(
        why.reason,
        /^no signature or bundle names the lap; reference lines: 2 reference lines fit the lap and name different configurations/,
      );
    }, { references: ambiguousIndex() });
  },
});

Deno.test({
  name: "GET /api/laps/{id}/identify on a real Suzuka lap: the reference line, and why",
  ignore: noFixtures,
  async fn() {
    await withApp(async (app) => {
      await drive(app, captureFrames(SUZUKA));
      const [lap] = await listLaps(app.kv, 1);
      const why = await app.tracks.explainLap(lap.id);
      assert.deepEqual(why.identification, {
        by: "reference",
        name: "Suzuka Circuit",
        official_id: "6e378b",
        official_ids: ["6e378b"],
        direction: "forward",
      });
      assert.deepEqual(why.suggestions.map((s) => [s.official_name, s.fit]), [
        ["Suzuka Circuit", "fits"],
      ]);
      assert.deepEqual(why.signatures, []);
      assert.equal(why.bundles.reason, "no bundle is stored");
      assert.equal(why.reference.candidates.length, referenceLines().length);
      const [first, second] = why.reference.candidates;
      assert.deepEqual([first.official_id, first.fits, first.direction], [
        "6e378b",
        true,
        "forward",
      ]);
      assert.equal(second.fits, false);
      const east = why.reference.candidates.find((c) => c.official_id === "4414cb")!;
      assert.match(east.reason, /^\d+ m of the lap is off the line/);
    });
  },
});
