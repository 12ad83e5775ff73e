/**
 * `hub`: the team's server (src/server/hub/) on PostgreSQL (`--database`,
 * or DATABASE_URL) or on the embedded PGlite in `<data>/hub-pglite`; the
 * first start creates the team and prints its admin token once. And
 * `hub drivers add NAME|list|revoke NAME`, the admin's driver list from
 * the command line, straight on the database.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { consoleLog } from "../server/console_log.ts";
import { HubApp } from "../app/hub/hub_app.ts";
import { ADMIN_NAME, type Principal } from "../app/hub/principal.ts";
import { startHubHttp } from "../server/hub/hub_http.ts";
import { openHubStore, pgliteFolder } from "../storage/hub/open_store.ts";
import type { SqlPort } from "../storage/hub/sql_port.ts";
import { address, dataOption, port } from "./options.ts";
import { untilShutdown } from "./signals.ts";
import { type Column, formatTable } from "./table.ts";

/** The hub's default port. */
export const HUB_PORT = 8770;

/** The environment variable of the admin token a first start takes. */
export const ADMIN_TOKEN_ENV = "SIM_DATALOGGER_HUB_ADMIN_TOKEN";

interface HubFlags {
  host: string;
  port: number;
  data: string;
  database?: string;
  adminToken?: string;
}

/** The database flags as the store opener takes them (env DATABASE_URL when no flag). */
function storeOptions(flags: Pick<HubFlags, "data" | "database">) {
  return {
    database: flags.database ?? Deno.env.get("DATABASE_URL") ?? null,
    dataDir: flags.data === ":memory:" ? null : flags.data,
  };
}

/** Runs `fn` on the hub's database opened (and migrated) for it, closed afterwards. */
async function withHub<T>(flags: HubFlags, fn: (app: HubApp) => Promise<T>): Promise<T> {
  const db = await openHubStore(storeOptions(flags));
  try {
    return await fn(new HubApp({ db }));
  } finally {
    await db.close();
  }
}

/** Where the hub stores, in a line's words. */
function storeLine(db: SqlPort, flags: HubFlags): string {
  if (db.kind === "postgres") return "PostgreSQL (--database)";
  return flags.data === ":memory:" ? "PGlite in memory" : `PGlite in ${pgliteFolder(flags.data)}`;
}

/** Serves the hub until a shutdown signal. */
async function serveHub(flags: HubFlags): Promise<void> {
  const opts = storeOptions(flags);
  if (
    opts.database === undefined && flags.data !== ":memory:" &&
    !existsSync(pgliteFolder(flags.data))
  ) {
    // PGlite's first start runs initdb in WASM: tens of seconds on a small machine, said up front.
    console.log(
      `hub: creating the team's database in ${pgliteFolder(flags.data)} (up to a minute, once)`,
    );
  }
  const db = await openHubStore(opts);
  const app = new HubApp({ db });
  const made = await app.ensureTeam(flags.adminToken ?? Deno.env.get(ADMIN_TOKEN_ENV) ?? null);
  if (made !== null) {
    console.log(`hub: team created; the admin token (shown this once, keep it): ${made}`);
  }
  const server = startHubHttp(app, { hostname: flags.host, port: flags.port, log: consoleLog });
  console.log(`hub: listening on ${server.url} (${storeLine(db, flags)})`);
  await untilShutdown(async () => {
    await server.close();
    await db.close();
  });
}

const ADMIN: Principal = { name: ADMIN_NAME, admin: true };

const DRIVER_COLUMNS: Column[] = [{ heading: "name" }, { heading: "created" }, {
  heading: "revoked",
}];

/** `hub drivers add|list|revoke`, acting as the admin on the database itself. */
function addDriverCommands(hub: Command): void {
  const drivers = hub.command("drivers").description("the team's drivers: add, list, revoke");
  const flags = (cmd: Command) => cmd.optsWithGlobals() as HubFlags;
  drivers.command("add <name>").description("add a driver and print its token (once)")
    .action(async (name: string, _o: unknown, cmd: Command) => {
      const added = await withHub(flags(cmd), (app) => app.addDriver(ADMIN, name));
      console.log(`${added.name}: ${added.token}`);
    });
  drivers.command("list").description("list the drivers")
    .action(async (_o: unknown, cmd: Command) => {
      const list = await withHub(flags(cmd), (app) => app.drivers(ADMIN));
      const rows = list.map((d) => [d.name, d.created_at, d.revoked_at ?? ""]);
      console.log(list.length ? formatTable(DRIVER_COLUMNS, rows).join("\n") : "no drivers yet");
    });
  drivers.command("revoke <name>").description("revoke a driver's token (its laps stay)")
    .action(async (name: string, _o: unknown, cmd: Command) => {
      const done = await withHub(flags(cmd), (app) => app.revokeDriver(ADMIN, name));
      console.log(`${done.name}: revoked at ${done.revoked_at}`);
    });
}

/** Adds `hub` (and `hub drivers ...`) to `program`. */
export function addHubCommand(program: Command): void {
  const hub = program.command("hub")
    .description("serve the team hub: every driver's laps and bundles in one place")
    .option("--host <host>", "address to listen on", address, "127.0.0.1")
    .option("--port <port>", "HTTP port", port, HUB_PORT)
    .option("--database <url>", "postgres://… of a PostgreSQL server (or env DATABASE_URL)")
    .option(
      "--admin-token <token>",
      `the admin token a first start takes (or env ${ADMIN_TOKEN_ENV})`,
    );
  dataOption(hub);
  hub.action((opts: HubFlags) => serveHub(opts));
  addDriverCommands(hub);
}
