/**
 * The demo drives until quit (a new session every pass), stops after
 * `--laps N` when asked, and takes the logger's API flags.
 */
import { strict as assert } from "node:assert";
import { cli, MAIN } from "../_cli.ts";
import { run } from "./_running.ts";

/** The demo at full speed on a free port, with `extra` flags. */
const startDemo = (...extra: string[]) =>
  run(Deno.execPath(), ["run", "-A", MAIN, "demo", "--port", "0", "--speed", "max", ...extra]);

Deno.test("the demo drives past its old 5 laps into a second pass, with --cors honoured", async () => {
  const demo = startDemo("--cors", "http://localhost:3000", "--token", "s3cret");
  let stopped = false;
  try {
    const [, url] = await demo.waitFor(/^demo: API on (http:\/\/127\.0\.0\.1:\d+) /);
    await demo.waitFor(/until quit, a new session every 10 laps$/);
    await demo.waitFor(/^demo: exports go to .*sim-datalogger-memory-\d+\/exports$/);
    // The old demo stopped after lap 5 of session 1; this one starts a second pass.
    await demo.waitFor(/^lap 10 .*session 1/);
    await demo.waitFor(/^session 2 started/);
    const res = await fetch(`${url}/api/sessions`, {
      headers: { Origin: "http://localhost:3000" },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:3000");
    const sessions = await res.json() as { id: number; lap_count: number }[];
    assert.equal(sessions.find((s) => s.id === 1)?.lap_count, 10);
    const end = await demo.stop("SIGINT");
    stopped = true;
    assert.equal(end.code, 0, end.stderr);
    assert.ok(demo.lines.includes("stopping..."));
    assert.ok(!demo.lines.some((l) => l.includes("the drive is over")), demo.lines.join("\n"));
  } finally {
    if (!stopped) await demo.stop("SIGKILL");
  }
});

Deno.test("demo --laps 2 drives two laps and says the drive is over", async () => {
  const demo = startDemo("--laps", "2");
  let stopped = false;
  try {
    await demo.waitFor(/^demo: the drive is over \(\d+ packets\); Ctrl-C to quit$/);
    const end = await demo.stop("SIGTERM");
    stopped = true;
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(
      demo.lines.filter((l) => /^lap \d/.test(l)).map((l) => l.split(/\s+/)[1]),
      ["1", "2"],
    );
  } finally {
    if (!stopped) await demo.stop("SIGKILL");
  }
});

Deno.test("demo refuses more laps than a drive makes, and a bad logger flag by its rule", async () => {
  const out = (...args: string[]) => cli("demo", ...args);
  const laps = await out("--laps", "101", "--port", "0");
  assert.equal(laps.code, 1);
  assert.equal(laps.stderr, "sim-datalogger: --laps must be at most 100, not 101\n");
  const cors = await out("--cors", "*", "--port", "0");
  assert.notEqual(cors.code, 0);
  assert.match(cors.stderr, /--cors.*must be one origin/);
});
