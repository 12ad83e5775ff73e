/**
 * A closed pipe is a normal end: `export lap 1 --csv | head` exits 0 and says
 * nothing, however much output was left unwritten.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { minimalLapFile } from "../_lap_files.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

Deno.test("export to a pipe closed after the first chunk exits 0 without a word", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const data = join(dir, "store");
    const file = join(dir, "lap.json");
    // 6,000 ticks of CSV is ~1 MB, many times a pipe's buffer: the writer meets the closed end.
    await Deno.writeTextFile(file, JSON.stringify(minimalLapFile(6000, { time_ms: 100_000 })));
    const imported = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "import", file, "--data", data],
    }).output();
    assert.equal(imported.code, 0);
    for (const extra of [["--csv"], []]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "export", "lap", "1", ...extra, "--data", data],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const reader = child.stdout.getReader();
      const first = await reader.read();
      assert.ok(!first.done && first.value.byteLength > 0);
      // What head does once it has its lines: close the read end.
      await reader.cancel();
      const [status, stderr] = await Promise.all([
        child.status,
        new Response(child.stderr).text(),
      ]);
      assert.equal(stderr, "", `export lap 1 ${extra.join(" ")}`);
      assert.equal(status.code, 0, `export lap 1 ${extra.join(" ")}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
