/**
 * The race engineer end to end (issue #40's Must-show) with real
 * processes: two `hub` processes on one real PostgreSQL 15 (skipped, saying
 * so, without one), a logger (`serve --share-live`) fed the Suzuka capture
 * at 2x by a fake console, sending to hub A. The logger's store holds a
 * best lap of Suzuka before it starts (the capture's lap, through the
 * logger's own `import`, while the database and hubs start), so lap 1's
 * frames carry a signed gap from its first seconds. Once they do, an
 * engineer's stream on hub B gets frames, each with its gap and the fuel, at
 * most 10 a second (the rate and the p95 age from the frame's own time stamp
 * are printed; bench/engineer_bench.ts holds the figures); the
 * engineer's page on B in Chromium shows the gap and the reference's label
 * exactly as the frame it drew has them (and its lap, tyres, who); a
 * message posted to B is in the logger's own /api/live frames within 2 s;
 * hub A SIGKILLed: the logger goes on recording (the Suzuka lap ends
 * complete and stored), and once A is back on its port B's stream resumes
 * within seconds. 60-70 s: the Suzuka lap alone is 53 s at 2x, after
 * about 8 s of start-up.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { runFakeConsole } from "../../src/cli/fake_console.ts";
import { openReplaySource } from "../../src/cli/replay_source.ts";
import { noPostgres, startPostgres } from "../_postgres.ts";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { cli, MAIN } from "../_cli.ts";
import { addDriver, readFrames, until } from "../_engineer.ts";
import { gap } from "../../src/web/cues.js";
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

type Delta = {
  delta_ms: number | null;
  reference_lap_id: number | null;
  reference_lap_ms: number | null;
  reference_label?: string | null;
};
type Frame = {
  at: string;
  packet_id: number;
  delta: Delta;
  fuel: unknown;
  lap: number;
  lap_clock_ms: number | null;
};

Deno.test({
  name: "an engineer on a second hub follows a logger sharing live to the first, and messages it",
  ignore: noPostgres() || noFixtures,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "engineer-e2e-" });
    // The best lap the gap runs against is in the store before the logger opens it, so the gap
    // from lap 1's first metre never hangs on how fast an import was; it is imported (by the
    // logger's own command) while the database and the hubs start, off the test's length.
    const capture = join(SHARED_FIXTURES, "gt7/suzuka-full-lap.A.gt7.gz");
    const data = join(dir, "logger");
    const importing = cli("import", capture, "--data", data);
    const pg = await startPostgres();
    const [portA, portB] = [freePort(), freePort()];
    const [urlA, urlB] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
    // Started together: the replay's lap (53 s at 2x) sets the test's length, not the start-up.
    const [best, hubs] = await Promise.all([
      importing,
      Promise.all([startHub(pg.url, portA), startHub(pg.url, portB)]),
    ]);
    let [hubA, hubB] = hubs;
    assert.equal(best.code, 0, best.stderr);
    assert.match(best.stdout, /1 lap stored \(0 incomplete\) in new session 1\n/);
    assert.match(best.stdout, /session 1 identified as "Suzuka Circuit"/);
    const ac = new AbortController();
    let logger: Running | null = null;
    const closers: (() => Promise<unknown>)[] = [];
    try {
      const alice = await addDriver(urlA, ADMIN, "alice");
      const source = await openReplaySource(capture);
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
        data,
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

      // The engineer on hub B.
      const engineer = await readFrames(`${urlB}/api/live/alice?token=${ADMIN}`);
      closers.push(() => engineer.close());
      assert.equal(engineer.status, 200);
      // Hub B's frames carry lap 1's gap from its first seconds (12 s of lap clock at most, #41).
      await until(
        () =>
          engineer.frames.some(({ data }) => {
            const f = data.frame as Frame;
            return f.lap === 1 && typeof f.delta.delta_ms === "number" &&
              f.lap_clock_ms !== null && f.lap_clock_ms <= 12_000;
          }),
        "lap 1's gap on hub B in its first 12 s",
        30_000,
      );

      // Then frames keep coming over 4 s, each with its gap and fuel: measured once the gap runs,
      // so past the logger's start-up and the reference's first read. The figures (>= 9
      // a second, p95 age <= 250 ms) are printed here and held by bench/engineer_bench.ts: CI's
      // busy machine may starve any process, so this test asserts only what starving cannot
      // excuse (a stream that stalls, or frames seconds old).
      const from = engineer.frames.length;
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, 4000));
      const window = engineer.frames.slice(from).filter((f) => f.arrived - t0 <= 4000);
      const frames = window.map((f) => f.data.frame as Frame);
      for (const f of frames) {
        assert.ok(typeof f.delta.delta_ms === "number" && typeof f.fuel === "number");
      }
      const ages = window.map((f) => f.arrived - Date.parse((f.data.frame as Frame).at));
      console.log(
        `engineer e2e: ${(window.length / 4).toFixed(1)} frames/s on hub B, ` +
          `p95 age ${percentile(ages, 95)} ms`,
      );
      assert.ok(window.length >= 16, `only ${window.length} frames in 4 s on hub B`);
      assert.ok(window.length <= 44, `${window.length} frames in 4 s: more than 10 a second`);
      assert.ok(percentile(ages, 95) <= 1000, `p95 age ${percentile(ages, 95)} ms`);

      // The engineer's page on hub B shows the gap and the reference of the frame it drew.
      if (NO_CHROMIUM === null) {
        const browser = await launchChromium();
        closers.push(() => browser.close());
        const page = await browser.newPage();
        await page.goto(`${urlB}/live/alice?token=${ADMIN}`);
        await page.waitForFunction(
          () => /^[+-]\d+\.\d\d$/.test(document.getElementById("delta")!.textContent ?? ""),
          { timeout: 30_000 },
        );
        const shown = await page.evaluate(() => ({
          packet: (globalThis as unknown as { engineerStats: { packet_id: number } })
            .engineerStats.packet_id,
          lap: document.getElementById("lap-no")!.textContent,
          delta: document.getElementById("delta")!.textContent,
          reference: document.getElementById("reference")!.textContent,
          tyre: document.getElementById("tyre-0")!.textContent,
          who: document.getElementById("who")!.textContent,
        }));
        const byPacket = () =>
          engineer.frames.find((f) => (f.data.frame as Frame).packet_id === shown.packet);
        await until(() => byPacket() !== undefined, `packet ${shown.packet} on hub B`, 5000);
        const drawn = byPacket()!.data.frame as Frame;
        assert.equal(shown.who, "alice");
        assert.equal(shown.lap, String(drawn.lap));
        assert.equal(drawn.lap, 1);
        assert.equal(typeof drawn.delta.delta_ms, "number");
        assert.equal(shown.delta, gap(drawn.delta.delta_ms));
        assert.match(drawn.delta.reference_label ?? "", /Suzuka Circuit/);
        assert.equal(shown.reference, `vs ${drawn.delta.reference_label}`);
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
      // Nothing recorded was lost to the hub's death: the lap driven through it is complete and
      // stored (the imported best, in its own session, is not that lap).
      let seen: unknown = null;
      const laps = await until2(async () => {
        const all = (await (await fetch(`${api}/api/laps?limit=10`)).json()) as {
          session_id: number;
          complete: boolean;
          time_ms: number;
        }[];
        seen = all;
        const driven = all.filter((l) => l.session_id !== 1);
        return driven.some((l) => l.complete) ? driven : null;
      }, 60_000).catch((err) => {
        throw new Error(`${err.message}; the logger's laps: ${JSON.stringify(seen)}`);
      });
      assert.equal(laps.filter((l) => l.complete).length, 1);
    } finally {
      ac.abort();
      for (const close of closers.reverse()) await close().catch(() => null);
      await Promise.all(
        [logger, hubA, hubB].map((p) => p?.stop("SIGTERM").catch(() => null)),
      );
      await pg.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
