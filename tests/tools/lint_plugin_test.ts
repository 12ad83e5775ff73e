import { strict as assert } from "node:assert";
import { join } from "node:path";
import plugin, { MAX_FUNCTION_LINES } from "../../_tools/lint_plugin.ts";
import { ALLOWED_IMPORTS, isPageScript, type Layer, layerViolation } from "../../_tools/layers.ts";

const ROOT = "/repo";
const file = (layer: string, name = "x.ts") => `${ROOT}/src/${layer}/sub/${name}`;

function lint(path: string, source: string): string[] {
  return Deno.lint.runPlugin(plugin, path, source).map((d) => `${d.id}: ${d.message}`);
}

Deno.test("layers: every pair of the layer table is allowed or refused as docs/architecture.md says", () => {
  const layers = Object.keys(ALLOWED_IMPORTS) as Layer[];
  for (const from of layers) {
    for (const to of layers) {
      const why = layerViolation(file(from), `../../${to}/y.ts`);
      assert.equal(why === null, ALLOWED_IMPORTS[from].includes(to), `${from} -> ${to}: ${why}`);
    }
  }
  assert.deepEqual(ALLOWED_IMPORTS.core, ["core"]);
  assert.ok(!ALLOWED_IMPORTS.server.includes("storage"));
  assert.ok(!ALLOWED_IMPORTS.tui.includes("storage"));
  assert.ok(!ALLOWED_IMPORTS.app.includes("server"));
  // Capture sits below the HTTP face: the server may read its socket counters, never the reverse.
  assert.ok(!ALLOWED_IMPORTS.capture.includes("server"));
  assert.ok(!ALLOWED_IMPORTS.capture.includes("storage"));
  assert.ok(ALLOWED_IMPORTS.server.includes("capture"));
});

Deno.test("layers: UDP capture lives in src/capture, none of it in src/server", () => {
  const root = new URL("../../src/", import.meta.url);
  const capture = /^(udp_|receiver_|relay_|record_writer|socket_buffer|libc_sockets|proc_sockets)/;
  const inServer = [...Deno.readDirSync(new URL("server/", root))].map((e) => e.name)
    .filter((name) => capture.test(name));
  assert.deepEqual(inServer, []);
  const inCapture = [...Deno.readDirSync(new URL("capture/", root))].map((e) => e.name).sort();
  assert.ok(
    inCapture.includes("udp_client.ts") && inCapture.includes("relay_hub.ts"),
    `${inCapture}`,
  );
});

Deno.test("layers: the plugin reports imports, re-exports and dynamic imports across the table", () => {
  const core = file("core");
  assert.deepEqual(lint(core, `import { a } from "../../core/y.ts";\nimport "node:zlib";`), []);
  const found = lint(
    core,
    [
      `import { a } from "../../storage/y.ts";`,
      `import type { B } from "../../app/b.ts";`,
      `export { c } from "../../server/c.ts";`,
      `export * from "../../tui/d.ts";`,
      `const e = await import("../../cli/e.ts");`,
      `import { f } from "../../../tests/f.ts";`,
    ].join("\n"),
  );
  assert.equal(found.length, 6, found.join("\n"));
  assert.ok(found.every((d) => d.startsWith("sim-datalogger/layers: src/core ")));
  assert.match(found[0], /may not import src\/storage/);
  assert.match(found[5], /outside it/);
  // Storage may use core; server may not reach storage; cli may reach all.
  assert.deepEqual(lint(file("storage"), `import { a } from "../../core/y.ts";`), []);
  assert.equal(lint(file("server"), `import { a } from "../../storage/y.ts";`).length, 1);
  assert.deepEqual(lint(file("cli"), `import { a } from "../../storage/y.ts";`), []);
  // Files outside src/ are not judged.
  assert.deepEqual(lint(`${ROOT}/tests/x.ts`, `import { a } from "../src/storage/y.ts";`), []);
});

Deno.test("no-console: core, storage and app may not write to the console; the faces may", () => {
  const source = `console.error("x");\nconsole.log("y");`;
  for (const layer of ["core", "storage", "app"]) {
    const found = lint(file(layer), source);
    assert.equal(found.length, 2, layer);
    assert.ok(found.every((d) => d.startsWith("sim-datalogger/no-console: ")));
  }
  for (const layer of ["server", "tui", "cli"]) assert.deepEqual(lint(file(layer), source), []);
});

Deno.test("deno lint with the project's configuration fails on a planted layer violation", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pluginUrl = new URL("../../_tools/lint_plugin.ts", import.meta.url).href;
    await Deno.writeTextFile(
      join(dir, "deno.json"),
      JSON.stringify({ lint: { plugins: [pluginUrl] } }),
    );
    await Deno.mkdir(join(dir, "src", "core"), { recursive: true });
    await Deno.mkdir(join(dir, "src", "storage"), { recursive: true });
    await Deno.writeTextFile(join(dir, "src", "storage", "kv.ts"), "export const kv = 1;\n");
    await Deno.writeTextFile(
      join(dir, "src", "core", "pure.ts"),
      `import { kv } from "../storage/kv.ts";\nexport const pure = kv;\n`,
    );
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), { args, cwd: dir, stdout: "piped", stderr: "piped" })
        .output();
    const bad = await run(["lint"]);
    const text = new TextDecoder().decode(bad.stdout) + new TextDecoder().decode(bad.stderr);
    assert.equal(bad.code, 1, text);
    assert.match(text, /sim-datalogger\/layers/);
    assert.match(text, /src\/core may not import src\/storage/);
    await Deno.writeTextFile(join(dir, "src", "core", "pure.ts"), "export const pure = 1;\n");
    const good = await run(["lint"]);
    assert.equal(good.code, 0, new TextDecoder().decode(good.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A function declaration `name` of exactly `lines` lines. */
function longFunction(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`export function ${name}(): void {`, ...body, "}"].join("\n");
}

Deno.test("function-length: no function in src/ longer than 120 lines, none grandfathered", () => {
  assert.equal(MAX_FUNCTION_LINES, 120);
  const path = file("core");
  const long = (found: string[]) =>
    found.filter((d) => d.startsWith("sim-datalogger/function-length"));
  assert.deepEqual(long(lint(path, longFunction("fits", 120))), []);
  const over = long(lint(path, longFunction("tooLong", 121)));
  assert.equal(over.length, 1, over.join("\n"));
  assert.match(over[0], /src\/core\/sub\/x\.ts tooLong is 121 lines; at most 120/);
  // Arrow functions and function expressions count too, named by their variable.
  const arrow = longFunction("inner", 130).replace(
    "export function inner(): void {",
    "const f = () => {",
  );
  assert.match(long(lint(path, arrow))[0], /x\.ts f is 130 lines/);
  // Outside src/ nothing is judged.
  assert.deepEqual(long(lint(`${ROOT}/tests/x_test.ts`, longFunction("tooLong", 300))), []);
  // No function is grandfathered any more: the synthetic drive's emit, the last, was split.
  const drive = long(lint(`${ROOT}/src/core/synthetic/drive.ts`, longFunction("emit", 235)));
  assert.equal(drive.length, 1);
  assert.match(drive[0], /drive\.ts emit is 235 lines; at most 120/);
});

Deno.test("function-length: the pages' scripts in src/web are judged too, their vendored code is not", () => {
  const long = (found: string[]) =>
    found.filter((d) => d.startsWith("sim-datalogger/function-length"));
  // Plain JavaScript, as the pages are written.
  const js = (name: string, lines: number) => longFunction(name, lines).replace("(): void", "()");
  const page = long(lint(`${ROOT}/src/web/compare.js`, js("showCompare", 244)));
  assert.equal(page.length, 1, page.join("\n"));
  assert.match(page[0], /src\/web\/compare\.js showCompare is 244 lines; at most 120/);
  assert.deepEqual(long(lint(`${ROOT}/src/web/compare.js`, js("fits", 120))), []);
  assert.deepEqual(
    long(lint(`${ROOT}/src/web/vendor/uplot.iife.min.js`, js("u", 900))),
    [],
  );
  // The page's HTML and style hold no functions of their own to judge; only scripts are.
  assert.equal(isPageScript(`${ROOT}/src/web/pages.html`), false);
  assert.equal(isPageScript(`${ROOT}/src/web/shared_map.js`), true);
  assert.equal(isPageScript(`${ROOT}/src/web/vendor/uplot.iife.min.js`), false);
});
