/**
 * The team hub end to end (issue #38) with real processes: a hub on a real
 * PostgreSQL 15 (tests/_postgres.ts; skipped, saying so, without one), two
 * loggers started with --hub as their drivers, each fed a synthetic drive
 * over UDP. The hub is SIGKILLed and restarted on the same port twice while
 * laps are being pushed, and one logger is stopped and started again on its
 * store. Afterwards the hub holds every complete lap of both loggers exactly
 * once, its lap files' samples equal to the loggers' own exports.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { runFakeConsole } from "../../src/cli/fake_console.ts";
import { openReplaySource } from "../../src/cli/replay_source.ts";
import { noPostgres, startPostgres } from "../_postgres.ts";
import { MAIN } from "../_cli.ts";
import { run, type Running } from "./_running.ts";

const ADMIN = "admin-token-for-the-hub-e2e-0123456789";
const LAPS = 3;

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Polls `probe` every 100 ms until it answers a value, failing after `ms` with `what`. */
async function until<T>(what: string, probe: () => Promise<T | null>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function json(url: string, token?: string, init: RequestInit = {}): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { ...init, headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

interface HubRow {
  id: number;
  driver: string;
  time_ms: number;
  finished_at: string;
}

/** One logger process (serve) with its store, console port and hub. */
class LoggerProc {
  proc: Running | null = null;
  api = "";
  constructor(
    readonly data: string,
    readonly consolePort: number,
    readonly hubUrl: string,
    readonly token: string,
  ) {}

  async start(): Promise<void> {
    this.proc = run(Deno.execPath(), [
      "run",
      "-A",
      MAIN,
      "serve",
      "--data",
      this.data,
      "--port",
      "0",
      "--udp-port",
      "0",
      "--console",
      "127.0.0.1",
      "--console-port",
      String(this.consolePort),
      "--hub",
      this.hubUrl,
      "--hub-token",
      this.token,
    ]);
    const m = await this.proc.waitFor(/API on (http:\/\/\S+),/, 90_000);
    this.api = m[1];
  }

  async hub(): Promise<{ waiting: number; state: string; sent: number }> {
    return ((await json(`${this.api}/api/status`)) as { hub: never }).hub;
  }

  async completeLaps(): Promise<{ id: number; time_ms: number; finished_at: string }[]> {
    const laps = (await json(`${this.api}/api/laps?limit=100`)) as {
      id: number;
      complete: boolean;
      imported: boolean;
      time_ms: number;
      finished_at: string;
    }[];
    return laps.filter((l) => l.complete && !l.imported);
  }

  async stop(): Promise<void> {
    const s = await this.proc!.stop("SIGTERM");
    assert.equal(s.code, 0, s.stderr);
  }
}

Deno.test({
  name: "two loggers push every lap exactly once through two hub kills and a logger restart",
  ignore: noPostgres(),
  async fn() {
    const pg = await startPostgres();
    const dir = await Deno.makeTempDir({ prefix: "hub-e2e-" });
    const port = freePort();
    const hubUrl = `http://127.0.0.1:${port}`;
    const startHub = async () => {
      const p = run(Deno.execPath(), [
        "run",
        "-A",
        MAIN,
        "hub",
        "--database",
        pg.url,
        "--port",
        String(port),
        "--admin-token",
        ADMIN,
      ]);
      await p.waitFor(/hub: listening on/, 90_000);
      return p;
    };
    let hub = await startHub();
    const consoles: Promise<unknown>[] = [];
    const loggers: LoggerProc[] = [];
    try {
      const tokens: string[] = [];
      for (const name of ["alice", "bob"]) {
        const added = (await json(`${hubUrl}/api/drivers`, ADMIN, {
          method: "POST",
          body: JSON.stringify({ name }),
        })) as { token: string };
        tokens.push(added.token);
      }
      const hubLaps = async () =>
        ((await json(`${hubUrl}/api/laps?limit=100`, ADMIN)) as { laps: HubRow[] }).laps;

      // Each logger gets a fake console in this process streaming its own drive at full speed.
      for (const [i, seed] of [21, 22].entries()) {
        const source = await openReplaySource(`synthetic:${seed}`, { laps: LAPS });
        const listening = Promise.withResolvers<number>();
        consoles.push(runFakeConsole({
          hostname: "127.0.0.1",
          port: 0,
          packets: source.packets,
          // Fast, yet slow enough that laps are still being recorded and pushed around the kills.
          speed: 15,
          onListen: (p) => listening.resolve(p),
        }));
        const logger = new LoggerProc(
          join(dir, `logger-${i}`),
          await listening.promise,
          hubUrl,
          tokens[i],
        );
        loggers.push(logger);
      }
      await Promise.all(loggers.map((l) => l.start()));

      // First kill: as soon as the first lap has arrived, while the drives go on.
      await until("a first lap at the hub", async () => (await hubLaps()).length >= 1 || null);
      await hub.stop("SIGKILL");
      await until("a logger backing off", async () => {
        for (const l of loggers) if ((await l.hub()).state === "backoff") return true;
        return null;
      });
      hub = await startHub();
      const before = (await hubLaps()).length;
      await until("another lap at the hub", async () => (await hubLaps()).length > before || null);
      // Second kill, and the first logger stopped and started again on its store meanwhile.
      await hub.stop("SIGKILL");
      await Promise.all(consoles);
      await loggers[0].stop();
      await loggers[0].start();
      hub = await startHub();

      const expected = new Map<string, { api: string; id: number }>();
      for (const [i, l] of loggers.entries()) {
        const laps = await until(`logger ${i}'s laps`, async () => {
          const c = await l.completeLaps();
          return c.length === LAPS ? c : null;
        });
        for (const lap of laps) {
          expected.set(`${["alice", "bob"][i]}|${lap.finished_at}|${lap.time_ms}`, {
            api: l.api,
            id: lap.id,
          });
        }
        await until(`logger ${i}'s outbox empty`, async () => {
          const s = await l.hub();
          return s.waiting === 0 && s.state === "idle" || null;
        });
      }
      const rows = await hubLaps();
      const keys = rows.map((r) => `${r.driver}|${r.finished_at}|${r.time_ms}`);
      assert.equal(rows.length, 2 * LAPS, keys.join("\n"));
      assert.deepEqual(new Set(keys), new Set(expected.keys()));
      for (const r of rows) {
        const mine = expected.get(`${r.driver}|${r.finished_at}|${r.time_ms}`)!;
        const local = (await json(`${mine.api}/api/laps/${mine.id}/export.json`)) as {
          lap: { samples: unknown };
        };
        const remote = (await json(`${hubUrl}/api/laps/${r.id}`, ADMIN)) as {
          lap: { samples: unknown };
        };
        assert.deepEqual(remote.lap.samples, local.lap.samples);
      }
    } finally {
      for (const l of loggers) await l.proc?.stop("SIGTERM").catch(() => null);
      await hub.stop("SIGTERM").catch(() => null);
      await Promise.allSettled(consoles);
      await pg.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
