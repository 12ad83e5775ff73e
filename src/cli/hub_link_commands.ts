/**
 * The team hub's commands on the logger side (issue #38): `push LAP_ID…`
 * (or `--session ID`) sends stored laps, imported ones included, and
 * `bundles push SLUG` / `bundles pull SLUG` send a bundle's votes and bring
 * the team bundle into the local one. Each runs against the store (a logger
 * holding it must be stopped first, or asked through POST /api/hub/push)
 * and sends what it queued before it ends; what the hub does not take stays
 * in the outbox, for the next logger started with --hub.
 *
 * @module
 */
import type { Command } from "commander";
import type { App } from "../app/create_app.ts";
import type { HubLink } from "../app/hub_link/hub_link.ts";
import type { HubStatus } from "../app/hub_link/hub_status.ts";
import { dataOption, HUB_OPTION, HUB_TOKEN_OPTION, hubFlags, idArgument } from "./options.ts";
import { withStore } from "./with_store.ts";

interface HubCommandFlags {
  data: string;
  hub?: string;
  hubToken?: string;
}

/** Runs `fn` with the hub link of `flags` over the store of `flags.data`. */
async function withHub<T>(flags: HubCommandFlags, fn: (hub: HubLink, app: App) => Promise<T>) {
  const settings = hubFlags(flags);
  if (settings === null) {
    throw new Error(
      "no team hub given: pass --hub URL --hub-token TOKEN (or set SIM_DATALOGGER_HUB and " +
        "SIM_DATALOGGER_HUB_TOKEN)",
    );
  }
  return await withStore(flags.data, (app) => fn(app.hub!, app), { settings });
}

/** The line saying how a push went; throws when something was left unsent. */
export function pushOutcome(what: string, status: HubStatus): string {
  if (status.waiting > 0) {
    throw new Error(
      `${what}: ${status.waiting} not sent yet (${
        status.last_error ?? "the hub did not answer"
      }); ` +
        "they stay queued and go with the next logger started with --hub, or the next push",
    );
  }
  if (status.parked > 0) throw new Error(`${what}: refused by the hub: ${status.last_error}`);
  return `${what}: sent to ${status.url} (${status.sent} taken)`;
}

function hubOptions(cmd: Command): Command {
  return dataOption(cmd).option(...HUB_OPTION).option(...HUB_TOKEN_OPTION);
}

/** Adds `push` and `bundles push|pull` to `program`. */
export function addHubCommands(program: Command): void {
  hubOptions(
    program.command("push")
      .description("send stored laps (imported ones too) to the team hub")
      .argument("[lap-ids...]", "the laps to send")
      .option("--session <id>", "send every lap of this session"),
  ).action(async (ids: string[], flags: HubCommandFlags & { session?: string }) => {
    const laps = ids.map((v) => idArgument(v, "lap"));
    const session = flags.session === undefined ? null : idArgument(flags.session, "session");
    if (laps.length === 0 && session === null) {
      throw new Error("name the laps to push (push 12 13) or a session (push --session 4)");
    }
    await withHub(flags, async (hub) => {
      const queued = session === null ? await hub.pushLaps(laps) : await hub.pushSession(session);
      const n = queued.queued.length;
      console.log(pushOutcome(`${n} lap${n === 1 ? "" : "s"}`, await hub.flush()));
    });
  });
  const bundles = program.command("bundles").description("track bundles and the team hub");
  hubOptions(
    bundles.command("push")
      .description("send a bundle's survey votes to the team hub")
      .argument("<slug>", "the bundle, as `sim-datalogger export bundle` names it"),
  ).action(async (slug: string, flags: HubCommandFlags) => {
    await withHub(flags, async (hub) => {
      await hub.pushBundle(slug);
      console.log(pushOutcome(`bundle ${slug}`, await hub.flush()));
    });
  });
  hubOptions(
    bundles.command("pull")
      .description("merge the team hub's bundle of a circuit into the local one")
      .argument("<slug>", "the circuit's bundle"),
  ).action(async (slug: string, flags: HubCommandFlags) => {
    await withHub(flags, async (hub) => {
      const r = await hub.pullBundle(slug);
      console.log(
        `bundle ${r.slug}: merged the team's votes from the hub (${r.edges} edges, ` +
          `${r.added_edges} new)`,
      );
    });
  });
}
