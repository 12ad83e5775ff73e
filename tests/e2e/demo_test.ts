/**
 * The demo drives until quit (a new session every pass), stops after
 * `--laps N` when asked, and takes the logger's API flags, saying what
 * `start` says of them (the LAN address, the relay).
 */
import { strict as assert } from "node:assert";
import { cli, MAIN } from "../_cli.ts";
import { lanAddresses } from "../../src/cli/lan_address.ts";
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

Deno.test("demo --lan names the LAN address, and --relay/--forward say what start says", async () => {
  const demo = startDemo("--laps", "1", "--lan", "--relay", "0", "--forward", "127.0.0.1:9:B");
  let stopped = false;
  try {
    // What a phone on the network opens: this machine's LAN address, or loopback without one.
    const host = lanAddresses()[0] ?? "127.0.0.1";
    const [, port] = await demo.waitFor(/^demo: API on http:\/\/[^:]+:(\d+) /);
    const api = `http://${host}:${port}`;
    // Its first event line comes once the demo handles Ctrl-C.
    await demo.waitFor(/^session 1 started/);
    const end = await demo.stop("SIGINT");
    stopped = true;
    assert.equal(end.code, 0, end.stderr);
    const said = demo.lines.filter((l) => /^demo: API on|^live page|^relaying|^forwarding/.test(l));
    assert.equal(said[0], `demo: API on ${api} (try ${api}/api/sessions)`);
    assert.equal(
      said[1],
      host === "127.0.0.1"
        ? `live page: ${api}/`
        : `live page on the network: ${api}/ (scan with a phone on the same Wi-Fi)`,
    );
    assert.match(
      said[2],
      /^relaying the console's packets to apps that heartbeat UDP 127\.0\.0\.1:\d+ \(at most 8\)$/,
    );
    assert.equal(said[3], "forwarding every packet to 127.0.0.1:9 as B");
    assert.equal(said.length, 4, said.join("\n"));
  } finally {
    if (!stopped) await demo.stop("SIGKILL");
  }
});
