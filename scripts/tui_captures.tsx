/**
 * Writes docs/tui_captures.md: every dashboard view drawn at 100x30 and
 * 80x24 over one scripted, deterministic drive (a survey lap of synthetic
 * circuit 7, then five race laps of it, the last one half driven). Run it
 * again whenever a view changes:
 *
 *     deno run -A scripts/tui_captures.tsx
 *
 * It draws with the dashboard's own components on an in-memory store, the
 * way the view tests do, so what the file shows is what the views draw.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { AppView } from "../src/tui/app_view.tsx";
import { VIEWS } from "../src/tui/views.ts";
import { SyntheticDrive, syntheticFrames } from "../src/core/synthetic/drive.ts";
import type { App } from "../src/app/create_app.ts";
import {
  fakeTelemetry,
  feed,
  memoryApp,
  plain,
  renderSized,
  sleep,
} from "../tests/tui/_harness.tsx";

const OUT = fileURLToPath(new URL("../docs/tui_captures.md", import.meta.url));
const TRACK = "Demo Ring 7";
const SIZES = [[100, 30], [80, 24]] as const;
/** Long enough for every background read a view starts to land. */
const SETTLE_MS = 1_500;

/** The screen of `view` at `columns` x `rows`, once its reads have landed. */
async function capture(app: App, view: string, columns: number, rows: number): Promise<string> {
  const r = renderSized(
    <AppView app={app} initialView={view} apiUrl="http://127.0.0.1:8765" />,
    columns,
    rows,
  );
  await sleep(SETTLE_MS);
  const text = plain(r.lastFrame()).split("\n").map((l) => l.trimEnd()).join("\n");
  r.unmount();
  return text;
}

async function main(): Promise<void> {
  const { app, close } = await memoryApp();
  app.attachTelemetry(fakeTelemetry());
  const shots = new Map<string, string>();

  // The survey, captured half way round its lap.
  await app.survey.start({ track: TRACK });
  const survey = [...syntheticFrames({ seed: 7, laps: 1, mode: "survey" })];
  await feed(app, survey.slice(0, Math.floor(survey.length * 0.6)));
  await app.survey.flush();
  for (const [c, r] of SIZES) shots.set(`survey ${c}x${r}`, await capture(app, "survey", c, r));
  await feed(app, survey.slice(Math.floor(survey.length * 0.6)));
  await app.survey.stop();

  // Five race laps, stopped half way through the last: the Live view has a lap in progress.
  const race = [...new SyntheticDrive({ seed: 7, laps: 5, startPacketId: 500_000 }).frames()];
  const cut = Math.floor(race.length * 0.9);
  await feed(app, race.slice(0, Math.floor(race.length * 0.3)));
  const session = app.live.session;
  if (session) await app.sessions.rename(session.id, TRACK);
  await feed(app, race.slice(Math.floor(race.length * 0.3), cut - 600));
  // The frames' reference (the best lap here) loads in the background.
  await sleep(SETTLE_MS);
  await feed(app, race.slice(cut - 600, cut));

  for (const view of VIEWS) {
    if (view.id === "survey") continue;
    for (const [c, r] of SIZES) {
      shots.set(`${view.id} ${c}x${r}`, await capture(app, view.id, c, r));
    }
  }
  await app.shutdown();
  close();

  const parts = [
    "# Dashboard captures",
    "",
    "Every view at 100x30 and 80x24, drawn by the dashboard's own components over one scripted",
    `drive: a survey lap of synthetic circuit 7 labelled "${TRACK}" (the Survey view is caught half`,
    "way round it), then five race laps of the same circuit, the last one half driven. Written by",
    "`deno run -A scripts/tui_captures.tsx`; run it again when a view changes. docs/tui.md explains",
    "what each view shows and its keys.",
    "",
  ];
  for (const view of VIEWS) {
    parts.push(`## ${view.key} ${view.title}`, "");
    for (const [c, r] of SIZES) {
      parts.push(`${c}x${r}:`, "", "```", shots.get(`${view.id} ${c}x${r}`) ?? "", "```", "");
    }
  }
  await Deno.writeTextFile(OUT, parts.join("\n"));
  // Formatted as the repository's check wants it, so a fresh capture passes `deno fmt --check`.
  const fmt = await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", OUT] }).output();
  if (!fmt.success) throw new Error(`deno fmt ${OUT} failed`);
  console.log(`wrote ${OUT}`);
}

if (import.meta.main) await main();
