/**
 * The service form docs/service.md gives stops cleanly: its systemd unit's
 * ExecStart, run as the unit says (paths and the console's address swapped
 * for this repository, a temporary store and a fake console on loopback),
 * stops on the unit's KillSignal within TimeoutStopSec, exits 0, leaves no
 * process behind and leaves the store whole with no write-ahead log.
 */
import { strict as assert } from "node:assert";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { closeStore, DB_FILE, openStore } from "../../src/storage/kv.ts";
import { listSessions } from "../../src/storage/sessions.ts";
import { startTestConsole } from "./_fake_console.ts";
import { run } from "./_running.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The `[Service]` settings of the one ```ini block in docs/service.md. */
function serviceUnit(): Map<string, string> {
  const text = Deno.readTextFileSync(join(ROOT, "docs/service.md"));
  const blocks = [...text.matchAll(/```ini\n([\s\S]*?)```/g)];
  assert.equal(blocks.length, 1, "docs/service.md holds one unit");
  const section = blocks[0][1].split(/^\[/m).find((s) => s.startsWith("Service]"));
  assert.ok(section, "the unit has a [Service] section");
  const settings = new Map<string, string>();
  for (const line of section.split("\n").slice(1)) {
    const eq = line.indexOf("=");
    if (eq > 0) settings.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return settings;
}

Deno.test("the systemd unit's ExecStart stops on its KillSignal: exit 0, nothing left", async () => {
  const unit = serviceUnit();
  const workdir = unit.get("WorkingDirectory")!;
  const [exe, ...args] = unit.get("ExecStart")!.split(" ");
  assert.match(exe, /\/deno$/);
  assert.deepEqual(args.slice(0, 4), ["run", "-A", "main.ts", "serve"]);
  const signal = unit.get("KillSignal") as Deno.Signal;
  assert.equal(signal, "SIGTERM");
  const timeoutMs = Number(unit.get("TimeoutStopSec")) * 1000;
  assert.ok(timeoutMs > 0);

  const data = await Deno.makeTempDir();
  const fake = await startTestConsole(1);
  const swapped = args.map((a) =>
    a === "192.168.1.23" ? "127.0.0.1" : a === "/var/lib/sim-datalogger" ? data : a
  );
  assert.notDeepEqual(swapped, args, "the console's address and the store were swapped");
  // Free ports instead of 8765 and 33740, and the fake console's heartbeat port.
  const extra = ["--port", "0", "--udp-port", "0", "--console-port", String(fake.port)];
  const service = run(Deno.execPath(), [...swapped, ...extra], {
    cwd: workdir === "/opt/sim-datalogger" ? ROOT : workdir,
  });
  let stopped = false;
  try {
    const [, url] = await service.waitFor(/^sim-datalogger: API on (http:\/\/\S+),/);
    await service.waitFor(/^lap 1 /);
    assert.equal((await fetch(`${url}/api/status`)).status, 200);
    const began = performance.now();
    const end = await service.stop(signal);
    stopped = true;
    assert.ok(performance.now() - began < timeoutMs, "stopped within TimeoutStopSec");
    assert.equal(end.code, 0, end.stderr);
    assert.equal(end.signal, null, "exited by itself, not killed by the signal");
    assert.ok(service.lines.includes("stopping..."));
    assert.deepEqual(end.left, [], "no process of it is left running");
    await assert.rejects(fetch(`${url}/api/status`), "the API is closed");
    const wal = join(data, `${DB_FILE}-wal`);
    assert.equal(existsSync(wal) ? statSync(wal).size : 0, 0, "no write-ahead log left");
    const kv = await openStore(data);
    try {
      const sessions = await listSessions(kv);
      assert.deepEqual(sessions.map((s) => s.lap_count), [1]);
    } finally {
      closeStore(kv);
    }
  } finally {
    if (!stopped) await service.stop("SIGKILL");
    await fake.stop();
    await Deno.remove(data, { recursive: true });
  }
});
