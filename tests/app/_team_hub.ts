/**
 * A small fake team hub (a real Deno.serve on an ephemeral port) that
 * answers the contract's leaderboard and lap file, counts requests, and can
 * go down; Suzuka's recorded lap stored as the driver's own best; and a
 * drive of that lap into an app with `--reference team` (#38). Shared by
 * team_reference_test.ts and team_cue_test.ts.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import type { Log } from "../../src/app/log.ts";
import { defaultReferenceIndex } from "../../src/core/identify/reference_index.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { toLapFile } from "../../src/core/laps/lap_file.ts";
import { finishRecordedLap } from "../../src/core/laps/recorded_lap.ts";
import { getLap, saveLap } from "../../src/storage/laps.ts";
import { testSession } from "../_stored_laps.ts";
import { captureFrames, recordLaps } from "../core/identify/_laps.ts";

/** The capture driven: one lap of Suzuka and the start of the next. */
export const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";
/** The token the fake hub takes. */
export const TOKEN = "alice-token";

/** The fake hub's leaderboard top row. */
export interface Board {
  driver: string;
  best_ms: number;
  lap_id: number;
}

/** A fake hub of one circuit and car: the board's top row and the lap file it names. */
export function fakeHub(car: number, file: unknown) {
  const state = { board: null as Board | null, requests: [] as string[], nonsense: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    state.requests.push(url.pathname + url.search);
    if (req.headers.get("authorization") !== `Bearer ${TOKEN}`) {
      return Response.json({ title: "Unauthorized" }, { status: 401 });
    }
    if (url.pathname === "/api/me") return Response.json({ name: "bob", admin: false });
    if (url.pathname === "/api/leaderboard") {
      if (state.nonsense) return Response.json({ rows: [{ driver: "alice" }] });
      const rows = state.board ? [{ ...state.board, car_id: car, gap_ms: 0 }] : [];
      return Response.json({ circuit: url.searchParams.get("circuit"), car_id: car, rows });
    }
    if (url.pathname === `/api/laps/${state.board?.lap_id}`) return Response.json(file);
    return Response.json({ title: "Not Found" }, { status: 404 });
  });
  return { state, server, url: `http://127.0.0.1:${server.addr.port}` };
}

/** A log that keeps its warnings. */
export function keptLog(): Log & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    error: (m: string) => warnings.push(m),
    warn: (m: string) => warnings.push(m),
  } as Log & { warnings: string[] };
}

/** Suzuka's recorded lap stored as the best of a session named "Suzuka Circuit", and its file. */
export async function suzukaBest(kv: Deno.Kv): Promise<{ lap: Lap; file: unknown }> {
  const recorded = recordLaps(captureFrames(SUZUKA))[0];
  const session = await testSession(kv, "Suzuka Circuit", recorded.car_id);
  const saved = await saveLap(kv, session.id, finishRecordedLap(recorded, "2026-11-24T10:00:00Z"));
  const lap = (await getLap(kv, saved.lap.id))!;
  return { lap, file: toLapFile(lap, { track_name: "Suzuka Circuit", car_name: "" }) };
}

/** What a drive saw: the 20 Hz frames of lap 1, every frame, and the notes announced. */
export interface TeamDrive {
  lap1: LiveFrame[];
  frames: LiveFrame[];
  notes: Extract<AppEvent, { type: "notes" }>[];
}

/**
 * Drives Suzuka every third frame into an app with `--reference team` at
 * `hub`; with `onward`, drives on into lap 2 that many more frames of the
 * capture, replayed from lap 1's as lap 2's (the capture's lap 2 ends a
 * few metres past the line, before any corner a cue is for).
 */
export async function driveTeam(kv: Deno.Kv, hub: string, onward = 0): Promise<TeamDrive> {
  const app = await createApp({
    kv,
    references: defaultReferenceIndex(),
    teamReference: { link: { url: hub, token: TOKEN }, options: { timeoutMs: 2000 } },
  });
  const frames = app.frames as LiveFrameService;
  const seen: LiveFrame[] = [];
  const notes: TeamDrive["notes"] = [];
  app.bus.subscribe((e) => {
    if (e.type === "notes") notes.push(e);
  });
  frames.subscribe(20, (f) => seen.push(f));
  const drive = captureFrames(SUZUKA).filter((_, i) => i % 3 === 0);
  const lap1 = drive.filter((f) => f.currentLap === 1);
  const from = drive.length - drive.indexOf(lap1.at(-1)!) - 1;
  const gap = drive.at(-1)!.packetId - lap1[from - 1].packetId;
  drive.push(
    ...lap1.slice(from, from + onward).map((f) => ({
      ...f,
      currentLap: 2,
      packetId: f.packetId + gap,
    })),
  );
  for (const [i, frame] of drive.entries()) {
    app.live.ingest(frame);
    if (i % 10 === 0) {
      await app.live.flush();
      await frames.settled();
    }
  }
  await app.shutdown();
  return { lap1: seen.filter((f) => f.lap === 1), frames: seen, notes };
}
