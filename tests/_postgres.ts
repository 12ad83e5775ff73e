/**
 * A real PostgreSQL server for the hub's tests: SIM_TEST_DATABASE_URL when
 * set, else a private cluster started once per test file (initdb and
 * pg_ctl of PostgreSQL 15 as the `postgres` user through runuser, on a
 * random port of 127.0.0.1, its folder and socket under /tmp, removed at
 * the end). Where the binaries are missing, null: the test skips, saying so.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Where Debian's postgresql package puts the server's programs. */
export const PG_BIN = "/usr/lib/postgresql/15/bin";

/** A server to test on: its URL, and how to let it go. */
export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed: ${text}`);
  return text;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Why no server can be started here, or null when one can. */
export function postgresMissing(): string | null {
  if (Deno.env.get("SIM_TEST_DATABASE_URL")) return null;
  if (!existsSync(join(PG_BIN, "initdb"))) return `no PostgreSQL 15 at ${PG_BIN}`;
  if (Deno.uid() !== 0) return "starting a private cluster needs root (runuser)";
  return null;
}

/** `ignore` of a real-server test: true (with the reason printed) when none can be had. */
export function noPostgres(): boolean {
  const missing = postgresMissing();
  if (missing !== null) {
    console.warn(`skipping the real PostgreSQL tests: ${missing} (set SIM_TEST_DATABASE_URL)`);
  }
  return missing !== null;
}

/** A private cluster (or the given server); see the module's note. */
export async function startPostgres(): Promise<TestPostgres> {
  const given = Deno.env.get("SIM_TEST_DATABASE_URL");
  if (given) return { url: given, stop: () => Promise.resolve() };
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "sim-datalogger-pg-" });
  await run("chown", ["postgres:postgres", dir]);
  const as = (program: string, ...args: string[]) =>
    run("runuser", ["-u", "postgres", "--", join(PG_BIN, program), ...args]);
  const data = join(dir, "data");
  await as("initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8");
  const port = freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  await as("pg_ctl", "-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start");
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop").catch(() => "");
      await Deno.remove(dir, { recursive: true });
    },
  };
}
