/**
 * `identify`: names every session that has no name of the user's making
 * (unnamed, or named only from a reference line) when a known circuit
 * matches it; one summary line, or the API's JSON with `--json`.
 *
 * @module
 */
import type { Command } from "commander";
import type { IdentifyResult } from "../app/tracks/tracks.ts";
import type { Session } from "../core/laps/session.ts";
import { dataOption } from "./options.ts";
import { withStore } from "./with_store.ts";

/** Adds `identify` to `program`. */
export function addIdentifyCommand(program: Command): void {
  dataOption(
    program.command("identify")
      .description(
        "name every unnamed session (or one named only from a reference line) whose shortest " +
          "full lap matches a known circuit",
      )
      .option("--json", "print the result as JSON (as POST /api/tracks/identify answers)", false),
  ).action(async (flags: { data: string; json: boolean }) => {
    await withStore(flags.data, async (app) => {
      const before = (await app.sessions.list()).filter(isOpen);
      const r = await app.tracks.identifyUnlabelled();
      const after = new Map((await app.sessions.list()).map((s) => [s.id, s]));
      console.log(flags.json ? JSON.stringify(r) : describeIdentify(before, after, r));
    });
  });
}

/** Whether identify may name `s`: unnamed, or named only from a reference line. */
function isOpen(s: Session): boolean {
  return s.track_name === "" || s.track_source === "reference";
}

/**
 * The one summary line of an identify run: the sessions it could name,
 * split into unnamed and named from a reference line, how many had a lap to
 * try, how many it named (per circuit), and what became of the rest.
 * `before` are the open sessions before the run, `after` every session after.
 */
export function describeIdentify(
  before: readonly Session[],
  after: ReadonlyMap<number, Session>,
  r: IdentifyResult,
): string {
  const unnamed = before.filter((s) => s.track_name === "").length;
  const byReference = before.length - unnamed;
  let stillUnnamed = 0;
  let keptReference = 0;
  for (const s of before) {
    const now = after.get(s.id);
    if (!now || !isOpen(now)) continue;
    if (now.track_name === "") stillUnnamed++;
    else keptReference++;
  }
  const names = Object.entries(r.tracks).map(([name, n]) => `${name} x${n}`).join(", ");
  const left = [
    ...(keptReference > 0 ? [`${keptReference} keep their reference-line name`] : []),
    ...(stillUnnamed > 0 ? [`${stillUnnamed} stay unnamed`] : []),
  ];
  return `identify: ${before.length} session(s) to check (${unnamed} unnamed, ${byReference} ` +
    `named only from a reference line), ${r.checked} with a lap to try; named ${r.identified}` +
    (names ? ` (${names})` : "") + (left.length ? `; ${left.join(", ")}` : "");
}
