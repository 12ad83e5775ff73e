import { strict as assert } from "node:assert";
import { createProgram, describeError, unknownCommand } from "../../src/cli/program.ts";
import { ImportRejected } from "../../src/core/errors.ts";
import { APP_VERSION } from "../../src/app/version.ts";
import { join, resolve } from "node:path";
import { exportsDir, newStoreNotice } from "../../src/cli/start.ts";
import { DB_FILE } from "../../src/storage/kv.ts";

const main = new URL("../../main.ts", import.meta.url).pathname;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: r.code, out: text(r.stdout), err: text(r.stderr) };
}

Deno.test("every command is registered once, start is the default", () => {
  const names = createProgram().commands.map((c) => c.name());
  assert.deepEqual(names, [
    "start",
    "serve",
    "replay",
    "demo",
    "import",
    "export",
    "identify",
    "sessions",
    "laps",
    "push",
    "bundles",
    "hub",
  ]);
});

Deno.test("unknownCommand names a mistyped command instead of passing it to start", () => {
  const program = createProgram();
  assert.equal(unknownCommand(program, ["strat"]), "strat");
  assert.equal(unknownCommand(program, ["serve", "--port", "0"]), null);
  assert.equal(unknownCommand(program, ["--console", "10.0.0.2"]), null);
  assert.equal(unknownCommand(program, []), null);
  assert.equal(unknownCommand(program, ["help"]), null);
});

Deno.test("describeError lists every rejected path", () => {
  const err = new ImportRejected([
    { path: "$.format", message: "must be x" },
    { path: "$.lap.time_ms", message: "must be > 0" },
  ]);
  assert.equal(describeError(err), "rejected: $.format: must be x\n  $.lap.time_ms: must be > 0");
});

Deno.test("the process: --version, an unknown command, a bad flag value", async () => {
  const version = await cli("--version");
  assert.deepEqual([version.code, version.out.trim()], [0, APP_VERSION]);
  const typo = await cli("strat");
  assert.equal(typo.code, 1);
  assert.match(typo.err, /unknown command 'strat' \(commands: start, serve, replay, demo/);
  const port = await cli("serve", "--port", "99999");
  assert.equal(port.code, 1);
  assert.match(port.err, /--port <port>' argument '99999' is invalid\. must be a port number/);
  const lap = await cli("export", "lap", "x", "--data", ":memory:");
  assert.equal(lap.code, 1);
  assert.match(lap.err, /lap id must be a positive integer, not "x"/);
});

Deno.test("a store about to be created is announced with its absolute path; exports go under it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const typo = join(dir, "sim-datalgger");
    assert.equal(newStoreNotice(typo), `new store created at ${typo}`);
    // Relative paths are made absolute against the current directory.
    assert.equal(
      newStoreNotice("no-such-store-here"),
      `new store created at ${resolve("no-such-store-here")}`,
    );
    assert.equal(newStoreNotice(":memory:"), null);
    // Once the store file exists, nothing is said.
    await Deno.mkdir(typo);
    await Deno.writeFile(join(typo, DB_FILE), new Uint8Array());
    assert.equal(newStoreNotice(typo), null);
    assert.equal(exportsDir(typo), join(typo, "exports"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
