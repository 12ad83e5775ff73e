import { strict as assert } from "node:assert";
import { join } from "node:path";
import { importCycles } from "../../_tools/import_cycles.ts";

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

Deno.test("importCycles: none in a tree or a diamond", () => {
  assert.deepEqual(importCycles(graph({ a: ["b", "c"], b: ["d"], c: ["d"], d: [] })), []);
});

Deno.test("importCycles: each tangle once, with its members and one closing path", () => {
  const found = importCycles(graph({
    a: ["b"],
    b: ["c"],
    c: ["a", "d"],
    d: ["e"],
    e: ["d"],
    f: ["f"],
    g: ["a"],
  }));
  assert.deepEqual(found, [
    { members: ["a", "b", "c"], path: ["a", "b", "c"] },
    { members: ["d", "e"], path: ["d", "e"] },
    { members: ["f"], path: ["f"] },
  ]);
});

Deno.test("importCycles: the path is a shortest circle through the first member", () => {
  const [c] = importCycles(graph({ a: ["b", "x"], b: ["c"], c: ["a"], x: ["a"] }));
  assert.deepEqual(c.members, ["a", "b", "c", "x"]);
  assert.deepEqual(c.path, ["a", "x"]);
});

Deno.test("check_cycles fails on a planted import circle and passes once it is broken", async () => {
  const dir = await Deno.makeTempDir();
  const script = new URL("../../_tools/check_cycles.ts", import.meta.url).pathname;
  const run = () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script, "src"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
  try {
    await Deno.mkdir(join(dir, "src", "app"), { recursive: true });
    await Deno.writeTextFile(
      join(dir, "src", "app", "a.ts"),
      `import type { B } from "./b.ts";\nexport type A = { b?: B };\n`,
    );
    await Deno.writeTextFile(
      join(dir, "src", "app", "b.ts"),
      `import type { A } from "./a.ts";\nexport type B = { a?: A };\n`,
    );
    const bad = await run();
    const err = new TextDecoder().decode(bad.stderr);
    assert.equal(bad.code, 1, err);
    assert.match(err, /src\/app\/a\.ts -> src\/app\/b\.ts -> src\/app\/a\.ts/);
    await Deno.writeTextFile(join(dir, "src", "app", "b.ts"), "export type B = { a?: number };\n");
    const good = await run();
    assert.equal(good.code, 0, new TextDecoder().decode(good.stderr));
    assert.match(new TextDecoder().decode(good.stdout), /no import circles in src/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
