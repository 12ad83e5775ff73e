/**
 * `start` without a terminal (a pipe, a service manager): the lines it
 * prints before its plain status lines stay in view, so none is printed twice.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./_running.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("start on a new store without a terminal says 'new store created' once", async () => {
  const dir = await Deno.makeTempDir();
  const data = join(dir, "new-store");
  const logger = run(
    Deno.execPath(),
    ["run", "-A", "main.ts", "start", "--data", data, "--port", "0", "--udp-port", "0"],
    { cwd: ROOT },
  );
  try {
    await logger.waitFor(/\| no session yet$/);
    const stopped = await logger.stop("SIGINT");
    assert.equal(stopped.code, 0, stopped.stderr);
    const created = logger.lines.filter((l) => l.includes("new store created"));
    assert.deepEqual(created, [`sim-datalogger: new store created at ${data}`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
