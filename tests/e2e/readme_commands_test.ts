/**
 * Every command line in the README's code blocks, run as written on a fresh
 * clone of this repository (`git clone` of it into a temporary folder with
 * nothing beside it: a user's clone has no `../shared`, so no README command
 * may name it), each checked to exit 0 and do what the README says.
 *
 * How "as written" is kept:
 * - `npx --yes deno@2.9.6 task X ARGS` runs as `DENO task X ARGS`, where DENO
 *   is the binary `npx --yes deno@2.9.6` itself resolves to (asked once, below):
 *   the same deno, without npm's start-up on every line. Under
 *   `npx --yes deno@2.9.6 task ok` that is the very binary running this test.
 * - The service form `deno task serve ...` runs with that same binary: it is
 *   what `npm i -g deno@2.9.6` (the line before it) installs.
 * - Long-running commands get free ports appended (`--port 0`, and
 *   `--udp-port 0`): later flags win, and the machine is shared, so the
 *   default ports may be taken. `--console 192.168.1.23` is replaced by a fake
 *   console on loopback (nothing is ever sent off this machine); the
 *   hand-made replay pair gets a free heartbeat port on both sides.
 * - Each code block runs with a store folder of its own (XDG_DATA_HOME in the
 *   temporary folder): commands of one block share it, as in one terminal.
 *   Blocks run side by side (they share nothing: free ports everywhere),
 *   but for the hand-made replay, whose two blocks go together.
 * - A few commands are not run, each for the reason in NOT_RUN; the test
 *   checks what can be checked of them instead.
 * - The capture the README replays and imports is the one its demo line
 *   records (`--record my.rec`): every command but the loggers waits for the
 *   recording to end, and the laps replayed, imported, listed and exported
 *   are checked against the laps the demo drove.
 */
import { strict as assert } from "node:assert";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DB_FILE } from "../../src/storage/kv.ts";
import { startTestConsole, type TestConsole } from "./_fake_console.ts";
import { run, type Running } from "./_running.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NPX = "npx --yes deno@2.9.6 task ";

/** Commands the test does not run, and why. */
const NOT_RUN: Record<string, string> = {
  "npx --yes deno@2.9.6 task ok": "the gate itself: this test is one of its tests",
  "npx --yes deno@2.9.6 task hardening":
    "CI's second step (about six minutes); the gate must not run it",
  "npx --yes deno@2.9.6 task bench":
    "minutes of benchmarks, figures in docs/performance.md; tests/tools/bench_run_test.ts checks what it runs",
  "npx --yes deno@2.9.6 task compile": "downloads a Deno runtime, so it needs internet access",
  "npm i -g deno@2.9.6": "installs globally; the test runs the deno it installs instead",
};

/** One command line of the README, with the code block it is in. */
interface ReadmeCommand {
  line: string;
  block: number;
}

/** The command lines of the README's shell code blocks, in order. */
function readmeCommands(text: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  const blocks = [...text.matchAll(/^ *```(\w*)\n([\s\S]*?)^ *```$/gm)];
  for (const [k, block] of blocks.entries()) {
    assert.equal(block[1], "sh", `code block ${k} is marked sh`);
    for (const raw of block[2].split("\n")) {
      const line = raw.trim();
      if (line !== "" && !line.startsWith("#")) out.push({ line, block: k });
    }
  }
  return out;
}

/** Words of `line` (README commands hold no quotes, so spaces split them). */
function words(line: string): string[] {
  assert.ok(!/["'\\]/.test(line), `no quoting in "${line}"`);
  return line.split(/\s+/);
}

/** The deno `npx --yes deno@2.9.6` runs, asked of npx itself. */
async function npxDeno(): Promise<string> {
  const out = await new Deno.Command("npx", {
    args: ["--yes", "deno@2.9.6", "eval", "console.log(Deno.execPath())"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return text;
}

/** A UDP port free a moment ago (for a heartbeat port both sides must know). */
function freeUdpPort(): number {
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const port = (sock.addr as Deno.NetAddr).port;
  sock.close();
  return port;
}

/** The capture the README's demo line records, shared by the scenes that replay or import it. */
interface Recording {
  /** Its file name, as the README writes it. */
  file: string;
  /** The times (m:ss.mmm) of the laps the demo drove while recording; rejects if it failed. */
  lapTimes: PromiseWithResolvers<string[]>;
}

/** What running the commands needs. */
interface Scene {
  deno: string;
  clone: string;
  recording: Recording;
  /** Environment of the current code block (its own store folder). */
  env: Record<string, string>;
  /** The logger of the hand-made replay, while it runs. */
  replayLogger: { running: Running; url: string; port: number } | null;
}

/** Runs a one-shot command to its end. */
async function once(s: Scene, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const out = await new Deno.Command(s.deno, {
    args,
    cwd: s.clone,
    env: s.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const res = { stdout: decode(out.stdout), stderr: decode(out.stderr) };
  assert.equal(out.code, 0, `${args.join(" ")}\n${res.stdout}\n${res.stderr}`);
  return res;
}

/** Starts a long-running command, returns it with its API's address. */
async function started(s: Scene, args: string[]): Promise<{ running: Running; url: string }> {
  const running = run(s.deno, args, { cwd: s.clone, env: s.env });
  try {
    const [, url] = await running.waitFor(/API on (http:\/\/127\.0\.0\.1:\d+)/);
    return { running, url };
  } catch (err) {
    await running.stop("SIGKILL");
    throw err;
  }
}

/**
 * Stops `running` with `signal` and checks it exited 0 by itself, leaving no
 * process behind; a headless logger (`serve`, the demo without a terminal)
 * says "stopping..." as it goes.
 */
async function stopped(running: Running, signal: Deno.Signal, says = true): Promise<void> {
  const end = await running.stop(signal);
  assert.deepEqual(end.left, [], `processes left running after ${signal}`);
  assert.equal(end.code, 0, `${running.lines.join("\n")}\n${end.stderr}`);
  assert.equal(end.signal, null, "exited by itself, not killed by the signal");
  if (says) assert.ok(running.lines.includes("stopping..."), running.lines.join("\n"));
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return await res.json() as T;
}

interface SessionItem {
  id: number;
  lap_count: number;
  track_name: string;
}

/** A logger with `--console` pointed at a fake console: a lap lands and the API lists it. */
async function loggerWithConsole(
  s: Scene,
  args: string[],
  signal: Deno.Signal,
  data: string | null = null,
): Promise<void> {
  const at = args.indexOf("--console");
  assert.equal(args[at + 1], "192.168.1.23");
  const relayAt = args.indexOf("--relay");
  // The README's relay port may be taken on this machine: the same command on a free one.
  const relayPort = relayAt < 0 ? null : freeUdpPort();
  const fake: TestConsole = await startTestConsole(1);
  try {
    const swapped = args.map((a, i) =>
      i === at + 1 ? "127.0.0.1" : i === relayAt + 1 && relayPort ? String(relayPort) : a
    );
    const extra = ["--console-port", String(fake.port), "--port", "0", "--udp-port", "0"];
    // A second logger beside the first needs a store of its own: one process holds a store.
    if (data) extra.push("--data", data);
    const { running, url } = await started(s, [...swapped, ...extra]);
    let done = false;
    try {
      await running.waitFor(/^lap 1 /);
      const sessions = await getJson<SessionItem[]>(`${url}/api/sessions`);
      assert.deepEqual(sessions.map((x) => x.lap_count), [1]);
      if (relayPort) {
        await running.waitFor(
          new RegExp(`^relaying the console's packets .* UDP \\S*\\b${relayPort} `),
        );
        const status = await getJson<{ telemetry: { relay: { listen: string | null } | null } }>(
          `${url}/api/status`,
        );
        assert.match(status.telemetry.relay?.listen ?? "", new RegExp(`:${relayPort}$`));
      }
      // Stored in the default data folder, as the README says (or the one given).
      const db = join(data ?? join(s.env.XDG_DATA_HOME, "sim-datalogger"), DB_FILE);
      assert.ok(existsSync(db), db);
      await stopped(running, signal, args[1] === "serve");
      done = true;
      const wal = `${db}-wal`;
      assert.equal(existsSync(wal) ? statSync(wal).size : 0, 0, "the store was closed cleanly");
    } finally {
      if (!done) await running.stop("SIGKILL");
    }
  } finally {
    await fake.stop();
  }
}

/** The lap times (m:ss.mmm, in order) of the `lap N  m:ss.mmm ...` lines of a logger's output. */
function lapLines(lines: readonly string[]): string[] {
  return lines.flatMap((l) => /^lap \d+ +(\d+:\d{2}\.\d{3}) /.exec(l)?.[1] ?? []);
}

/** A lap time as a regular expression's source (its dot a dot). */
const literal = (time: string) => time.replace(".", "\\.");

/** Milliseconds of a lap time written m:ss.mmm. */
function ms(time: string): number {
  const [m, rest] = time.split(":");
  return Number(m) * 60_000 + Math.round(Number(rest) * 1000);
}

/**
 * The README's demo line with `--record FILE`: it drives its laps, says the
 * drive is over, stops on Ctrl-C, and leaves FILE a record file. Hands the
 * lap times it drove to the scenes waiting for FILE.
 */
async function recordDemo(s: Scene, args: string[]): Promise<void> {
  const file = args[args.indexOf("--record") + 1];
  assert.equal(file, s.recording.file, "the file the README replays and imports");
  const { running, url } = await started(s, [...args, "--port", "0"]);
  let done = false;
  try {
    await running.waitFor(/^demo: the drive is over/, 120_000);
    const laps = await getJson<{ time_ms: number }[]>(`${url}/api/laps`);
    await stopped(running, "SIGINT");
    done = true;
    const times = lapLines(running.lines);
    assert.equal(times.length, 3, running.lines.join("\n"));
    assert.deepEqual(laps.map((l) => l.time_ms).sort(), times.map(ms).sort());
    const head = (await Deno.readFile(join(s.clone, file))).subarray(0, 8);
    assert.equal(new TextDecoder().decode(head), "SDLREC01", "a record file");
    s.recording.lapTimes.resolve(times);
  } catch (err) {
    // The scenes waiting for the capture fail with it rather than wait forever.
    s.recording.lapTimes.reject(err);
    throw err;
  } finally {
    if (!done) await running.stop("SIGKILL");
  }
}

/** Runs one README command as the module doc says and checks what the README says of it. */
async function check(s: Scene, line: string): Promise<void> {
  const w = words(line);
  let args: string[];
  if (line.startsWith(NPX)) args = w.slice(3);
  else if (line.startsWith("deno task ")) args = w.slice(1);
  else throw new Error(`"${line}": neither the npx form nor the service form`);
  const [, task, ...rest] = args;
  const tail = rest.join(" ");
  // The other commands read the recorded capture, or what was imported from it: they wait for
  // the recording to end (the loggers record or replay into a store of their own).
  const recorded: string[] = ["demo", "start", "serve"].includes(task)
    ? []
    : await s.recording.lapTimes.promise;

  switch (`${task} ${tail}`.trim()) {
    case "demo":
    case "demo --speed 20 --laps 3": {
      const { running, url } = await started(s, [...args, "--port", "0"]);
      let done = false;
      try {
        await running.waitFor(/^session 1 started/);
        if (tail === "") {
          await running.waitFor(/until quit/);
          assert.equal((await getJson<unknown[]>(`${url}/api/sessions`)).length, 1);
        } else {
          await running.waitFor(/^demo: the drive is over/, 120_000);
          const sessions = await getJson<SessionItem[]>(`${url}/api/sessions`);
          assert.deepEqual(sessions.map((x) => x.lap_count), [3]);
        }
        await stopped(running, "SIGINT");
        done = true;
      } finally {
        if (!done) await running.stop("SIGKILL");
      }
      return;
    }
    case "demo --speed 20 --laps 3 --record my.rec":
      return await recordDemo(s, args);
    case "start --console 192.168.1.23":
      return await loggerWithConsole(s, args, "SIGINT");
    case "start --console 192.168.1.23 --relay 33739":
      return await loggerWithConsole(s, args, "SIGINT", join(s.clone, ".relay-data"));
    case "serve --console 192.168.1.23":
      // The service form: stopped as a service manager stops it.
      assert.ok(line.startsWith("deno task "), "the service form runs deno itself");
      return await loggerWithConsole(s, args, "SIGTERM");
    case "serve --console 127.0.0.1 --data :memory:": {
      const port = freeUdpPort();
      const { running, url } = await started(s, [
        ...args,
        "--console-port",
        String(port),
        "--port",
        "0",
        "--udp-port",
        "0",
      ]);
      s.replayLogger = { running, url, port };
      return;
    }
    case "replay my.rec --speed 20": {
      const logger = s.replayLogger;
      assert.ok(logger, "the replay's logger runs first, as the README says");
      try {
        const out = await once(s, [...args, "--port", String(logger.port)]);
        assert.match(out.stdout, /^replay: sent \d+ packets/m);
        // The laps the demo drove, at the times it drove them.
        await logger.running.waitFor(new RegExp(`^lap 3 +${literal(recorded[2])} `));
        assert.deepEqual(lapLines(logger.running.lines), recorded);
        const laps = await getJson<{ time_ms: number }[]>(`${logger.url}/api/laps`);
        assert.deepEqual(laps.map((l) => l.time_ms).sort(), recorded.map(ms).sort());
        await stopped(logger.running, "SIGINT");
      } finally {
        s.replayLogger = null;
        await logger.running.stop("SIGKILL");
      }
      return;
    }
    case "import my.rec": {
      const { stdout } = await once(s, args);
      assert.match(
        stdout,
        /^imported my\.rec \(record file\): [\d,]+ packets read, 0 rejected, 3 laps stored \(0 incomplete\) in new session 1$/m,
      );
      assert.match(stdout, /^new lap ids: 1-3 \(session 1\)$/m);
      // The demo's generated circuit is no real one: the README says it stays unnamed.
      assert.doesNotMatch(stdout, /identified as/);
      return;
    }
    case "sessions": {
      const { stdout } = await once(s, args);
      const best = [...recorded].sort((a, b) => ms(a) - ms(b))[0];
      assert.match(
        stdout,
        new RegExp(`^ *1 +imported .* +- +3 +${literal(best)}$`, "m"),
      );
      return;
    }
    case "laps 1": {
      const { stdout } = await once(s, args);
      // Below the header: lap id, lap number and time of each lap the demo drove.
      const rows = stdout.trim().split("\n").slice(1).map((l) => l.trim().split(/ +/).slice(0, 3));
      assert.deepEqual(rows, recorded.map((t, k) => [String(k + 1), String(k + 1), t]));
      return;
    }
    case "export lap 1 --csv --out lap-1.csv": {
      await once(s, args);
      const csv = await Deno.readTextFile(join(s.clone, "lap-1.csv"));
      assert.ok(csv.startsWith('"Format","MoTeC CSV File"\r\n'));
      assert.match(
        csv,
        new RegExp(`^"Comment","Lap 1 - ${literal(recorded[0])}"\r$`, "m"),
      );
      assert.match(csv, /^"Venue",""\r$/m);
      return;
    }
    case "export lap 1 --out lap-1.json": {
      await once(s, args);
      const doc = JSON.parse(await Deno.readTextFile(join(s.clone, "lap-1.json")));
      assert.equal(doc.format, "sim-datalogger-lap");
      assert.equal(doc.lap.time_ms, ms(recorded[0]));
      assert.equal(doc.lap.car_name, "NSX Gr.3");
      return;
    }
    case "import lap-1.json": {
      const { stdout } = await once(s, args);
      assert.match(
        stdout,
        new RegExp(
          `^imported lap 1 \\(${literal(recorded[0])}, \\d+ samples\\) as lap 4 in new session 2`,
        ),
      );
      const listed = JSON.parse((await once(s, ["task", "sessions", "--json"])).stdout);
      assert.equal(
        listed.find((x: SessionItem & { car_name: string }) => x.id === 2)?.car_name,
        "NSX Gr.3",
        "the lap file brought its car back",
      );
      return;
    }
    case "identify": {
      const { stdout } = await once(s, args);
      assert.match(stdout, /^identify: \d+ session\(s\) to check .*; named \d+/);
      assert.equal(stdout.trim().split("\n").length, 1, "one summary line, no JSON");
      return;
    }
    default:
      throw new Error(`"${line}": a README command this test does not know how to check`);
  }
}

Deno.test({
  name: "every command in the README runs as written on a fresh clone and does what it says",
  // Needs git and npx; no capture from beside the checkout, as a user's clone has none.
  async fn() {
    const readme = await Deno.readTextFile(join(ROOT, "README.md"));
    const commands = readmeCommands(readme);

    // One form throughout: no bare `deno task` in the prose either.
    const prose = readme.replace(/^ *```\w*\n[\s\S]*?^ *```$/gm, "");
    assert.deepEqual(prose.match(/`deno task [^`]*`/g), null, "prose shows the npx form only");
    for (const { line } of commands) {
      assert.ok(!line.includes("../shared"), `"${line}" needs no ../shared, which a clone lacks`);
      assert.ok(
        line.startsWith(NPX) || line in NOT_RUN || line.startsWith("deno task serve "),
        `"${line}" is in the npx form (or the service form, after npm i -g deno@2.9.6)`,
      );
    }
    // Every task a README line names exists.
    const tasks = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks;
    for (const { line } of commands) {
      const m = /^(?:npx --yes deno@2\.9\.6 task|deno task) (\S+)/.exec(line);
      if (m) assert.ok(m[1] in tasks, `deno.json has the task "${m[1]}" for "${line}"`);
    }
    // What can be checked of those not run: the fast gate leaves the hardening suite to its task.
    assert.ok(!tasks.ok.includes("hardening") && tasks.test.includes("--ignore=tests/hardening"));
    assert.match(tasks.hardening, /deno test .*tests\/hardening/);
    assert.equal(Deno.version.deno, "2.9.6", "the deno npm i -g deno@2.9.6 installs");
    const skipped = commands.filter((c) => c.line in NOT_RUN).map((c) => c.line);
    assert.deepEqual(skipped.sort(), Object.keys(NOT_RUN).sort(), "each NOT_RUN line is in it");

    // The capture the README replays and imports is one its own demo line records.
    const recording: Recording = { file: "my.rec", lapTimes: Promise.withResolvers() };
    recording.lapTimes.promise.catch(() => {});
    const recorder = commands.filter((c) => c.line.includes(`--record ${recording.file}`));
    assert.equal(recorder.length, 1, `one README line records ${recording.file}`);
    assert.ok(
      commands.some((c) => c.line.endsWith(`task import ${recording.file}`)) &&
        commands.some((c) => / task replay my\.rec /.test(c.line)),
      `the README replays and imports ${recording.file}`,
    );

    const deno = await npxDeno();
    const tmp = await Deno.makeTempDir({ prefix: "readme-" });
    const clone = join(tmp, "repo");
    const scenes: Scene[] = [];
    try {
      const cloned = await new Deno.Command("git", {
        args: ["clone", "--quiet", ROOT, clone],
        stderr: "piped",
      }).output();
      assert.equal(cloned.code, 0, new TextDecoder().decode(cloned.stderr));
      assert.ok(!existsSync(join(tmp, "shared")), "nothing beside the clone");
      // What any first command does on a fresh clone (fill node_modules from Deno's cache), done
      // once here so the scenes below, which run side by side, do not all do it at once.
      const cached = await new Deno.Command(deno, { args: ["cache", "main.ts"], cwd: clone })
        .output();
      assert.equal(cached.code, 0);
      // Each code block is a scene of its own (its own store folder), except that the replay's
      // block goes with the logger's block before it, as the README's two terminals do. Scenes
      // share nothing else (free ports everywhere), so they run side by side.
      const groups: ReadmeCommand[][] = [];
      for (const c of commands) {
        if (c.line in NOT_RUN) continue;
        const last = groups.at(-1);
        const sameScene = last !== undefined &&
          (last[0].block === c.block || / task replay /.test(c.line));
        if (sameScene) last.push(c);
        else groups.push([c]);
      }
      // Every scene runs to its end (a failed one stops its own processes), then the first
      // failure is the test's.
      const results = await Promise.allSettled(groups.map(async (group, k) => {
        const data = join(tmp, `scene-${k}`);
        await Deno.mkdir(data);
        const s: Scene = {
          deno,
          clone,
          recording,
          env: { XDG_DATA_HOME: data, NO_COLOR: "1" },
          replayLogger: null,
        };
        scenes.push(s);
        for (const c of group) await check(s, c.line);
        assert.equal(s.replayLogger, null, "the hand-made replay's logger was stopped");
      }));
      for (const r of results) if (r.status === "rejected") throw r.reason;
    } finally {
      for (const s of scenes) if (s.replayLogger) await s.replayLogger.running.stop("SIGKILL");
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
