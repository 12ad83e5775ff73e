/**
 * The race engineer end to end (issue #40's Must-show) with real
 * processes: two `hub` processes on one real PostgreSQL 15 (skipped, saying
 * so, without one), a logger (`serve --share-live`) fed the Suzuka capture
 * at 2x by a fake console, sending to hub A. An engineer's stream on hub B
 * gets >= 9 frames a second with the delta and the fuel, p95 age <= 250 ms
 * from the frame's own time stamp; the engineer's page on B in Chromium
 * draws the frames (lap, gap box, tyres); a message posted to B is in the
 * logger's own /api/live frames within 2 s; hub A SIGKILLed: the logger
 * goes on recording (the Suzuka lap ends complete and stored), and once A
 * is back on its port B's stream resumes within seconds. About 62 s: the
 * Suzuka lap alone is 53 s at 2x.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { runFakeConsole } from "../../src/cli/fake_console.ts";
import { openReplaySource } from "../../src/cli/replay_source.ts";
import { noPostgres, startPostgres } from "../_postgres.ts";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { MAIN } from "../_cli.ts";
import { addDriver, readFrames, until } from "../_engineer.ts";
import { launchChromium, NO_CHROMIUM, percentile } from "./_browser.ts";
import { run, type Running } from "./_running.ts";

const ADMIN = "admin-token-for-the-engineer-e2e-0123";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function startHub(database: string, port: number): Promise<Running> {
  const p = run(Deno.execPath(), [
    "run",
    "-A",
    MAIN,
    "hub",
    "--database",
    database,
    "--port",
    String(port),
    "--admin-token",
    ADMIN,
  ]);
  await p.waitFor(/hub: listening on/, 60_000);
  return p;
}

/** Polls `probe` every 100 ms until it answers a value; throws after `ms`. */
async function until2<T>(probe: () => Promise<T | null>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error("timed out waiting for the complete lap");
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Frame = { at: string; packet_id: number; delta: unknown; fuel: unknown; lap: number };

Deno.test({
  name: "an engineer on a second hub follows a logger sharing live to the first, and messages it",
  ignore: noPostgres() || noFixtures,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pg = await startPostgres();
    const dir = await Deno.makeTempDir({ prefix: "engineer-e2e-" });
    const [portA, portB] = [freePort(), freePort()];
    const [urlA, urlB] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
    // Started together: the replay's lap (53 s at 2x) sets the test's length, not the start-up.
    let [hubA, hubB] = await Promise.all([startHub(pg.url, portA), startHub(pg.url, portB)]);
    const ac = new AbortController();
    let logger: Running | null = null;
    const closers: (() => Promise<unknown>)[] = [];
    try {
      const alice = await addDriver(urlA, ADMIN, "alice");
      const source = await openReplaySource(join(SHARED_FIXTURES, "gt7/suzuka-full-lap.A.gt7.gz"));
      const listening = Promise.withResolvers<number>();
      const fakeConsole = runFakeConsole({
        hostname: "127.0.0.1",
        port: 0,
        packets: source.packets,
        speed: 2,
        signal: ac.signal,
        onListen: (p) => listening.resolve(p),
      });
      closers.push(() => fakeConsole.catch(() => null));
      logger = run(Deno.execPath(), [
        "run",
        "-A",
        MAIN,
        "serve",
        "--data",
        join(dir, "logger"),
        "--port",
        "0",
        "--udp-port",
        "0",
        "--console",
        "127.0.0.1",
        "--console-port",
        String(await listening.promise),
        "--hub",
        urlA,
        "--hub-token",
        alice,
        "--share-live",
      ]);
      const api = (await logger.waitFor(/API on (http:\/\/\S+),/, 60_000))[1];

      // The engineer on hub B: >= 9 frames a second over 4 s, each with its delta and fuel.
      const engineer = await readFrames(`${urlB}/api/live/alice?token=${ADMIN}`);
      closers.push(() => engineer.close());
      assert.equal(engineer.status, 200);
      await until(() => engineer.frames.length > 0, "a first frame on hub B", 30_000);
      const from = engineer.frames.length;
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, 4000));
      const window = engineer.frames.slice(from).filter((f) => f.arrived - t0 <= 4000);
      const frames = window.map((f) => f.data.frame as Frame);
      assert.ok(window.length >= 36, `only ${window.length} frames in 4 s on hub B`);
      for (const f of frames) assert.ok(f.delta !== undefined && typeof f.fuel === "number");
      const ages = window.map((f) => f.arrived - Date.parse((f.data.frame as Frame).at));
      assert.ok(percentile(ages, 95) <= 250, `p95 age ${percentile(ages, 95)} ms`);

      // The engineer's page on hub B draws the driver's frames.
      if (NO_CHROMIUM === null) {
        const browser = await launchChromium();
        closers.push(() => browser.close());
        const page = await browser.newPage();
        await page.goto(`${urlB}/live/alice?token=${ADMIN}`);
        await page.waitForFunction(
          () =>
            (globalThis as unknown as { engineerStats?: { drawn: number } }).engineerStats!.drawn >
              5,
          { timeout: 15_000 },
        );
        const shown = await page.evaluate(() => ({
          lap: document.getElementById("lap-no")!.textContent,
          delta: document.getElementById("delta")!.textContent,
          tyre: document.getElementById("tyre-0")!.textContent,
          who: document.getElementById("who")!.textContent,
        }));
        const lastLap = String((engineer.frames.at(-1)!.data.frame as Frame).lap);
        assert.equal(shown.who, "alice");
        assert.equal(shown.lap, lastLap);
        assert.match(shown.delta!, /^(--\.--|[+-−]?\d+\.\d\d)$/);
        assert.match(shown.tyre!, /^\d+°$/);
      }

      // A message posted to hub B is in the logger's own frames within 2 s.
      const own = await readFrames(`${api}/api/live?hz=10`);
      closers.push(() => own.close());
      const posted = await fetch(`${urlB}/api/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ driver: "alice", text: "box this lap" }),
      });
      assert.equal(posted.status, 201);
      const sentAt = Date.now();
      await until(
        () =>
          own.frames.some((f) =>
            (f.data.message as { text?: string } | null)?.text === "box this lap"
          ),
        "the message in the logger's frames",
        2000,
      );
      assert.ok(Date.now() - sentAt <= 2000);

      // Hub A killed: the logger goes on recording; A back on its port, B streams again.
      await hubA.stop("SIGKILL");
      const ownBefore = own.frames.length;
      await until(
        () => own.frames.length >= ownBefore + 20,
        "the logger's frames while A is down",
        10_000,
      );
      const engineerBefore = engineer.frames.length;
      hubA = await startHub(pg.url, portA);
      const restarted = Date.now();
      await until(
        () => engineer.frames.length > engineerBefore + 5,
        "frames on B after A's restart",
        15_000,
      );
      assert.ok(Date.now() - restarted < 15_000);
      // Nothing recorded was lost to the hub's death: the lap driven through it is complete and stored.
      let seen: unknown = null;
      const laps = await until2(async () => {
        const all = (await (await fetch(`${api}/api/laps?limit=10`)).json()) as {
          complete: boolean;
          time_ms: number;
        }[];
        seen = all;
        return all.some((l) => l.complete) ? all : null;
      }, 60_000).catch((err) => {
        throw new Error(`${err.message}; the logger's laps: ${JSON.stringify(seen)}`);
      });
      assert.equal(laps.filter((l) => l.complete).length, 1);
    } finally {
      ac.abort();
      for (const close of closers.reverse()) await close().catch(() => null);
      await logger?.stop("SIGTERM").catch(() => null);
      await hubA.stop("SIGTERM").catch(() => null);
      await hubB.stop("SIGTERM").catch(() => null);
      await pg.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
