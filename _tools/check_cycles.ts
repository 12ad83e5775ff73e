/**
 * `deno task cycles`: fails when modules under the given folders import each
 * other in a circle. Asks `deno info` for the real module graph (the same
 * resolution the type checker uses), so multi-line and re-exported imports
 * count as they should.
 *
 * Usage: deno run -A _tools/check_cycles.ts [--config deno.json] DIR...
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { importCycles, type ImportGraph } from "./import_cycles.ts";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** The import graph of every module under `dirs`, local edges only. */
export async function graphOf(dirs: string[], config?: string): Promise<ImportGraph> {
  const files: string[] = [];
  for (const dir of dirs) for await (const f of walk(resolve(dir))) files.push(f);
  const root = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      root,
      files.map((f) => `import type {} from ${JSON.stringify(`file://${f}`)};`).join("\n"),
    );
    const args = ["info", "--json", ...(config ? ["--config", config] : []), root];
    const out = await new Deno.Command(Deno.execPath(), { args, stderr: "piped" }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
    const inScope = new Set(files.map((f) => `file://${f}`));
    const graph = new Map<string, string[]>();
    for (const m of info.modules) {
      if (!inScope.has(m.specifier)) continue;
      const deps = new Set<string>();
      for (const d of m.dependencies ?? []) {
        for (const s of [d.code?.specifier, d.type?.specifier]) {
          if (s && inScope.has(s)) deps.add(s);
        }
      }
      graph.set(m.specifier, [...deps].sort());
    }
    return graph;
  } finally {
    await Deno.remove(root);
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  const at = args.indexOf("--config");
  const config = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const dirs = args.length ? args : ["src"];
  const cycles = importCycles(await graphOf(dirs, config));
  const show = (s: string) => relative(Deno.cwd(), new URL(s).pathname);
  if (cycles.length) {
    console.error(`import circles in ${dirs.join(", ")}:`);
    for (const c of cycles) {
      console.error(`  ${[...c.path, c.path[0]].map(show).join(" -> ")}`);
      if (c.members.length > c.path.length) {
        console.error(`    (one tangle of ${c.members.length}: ${c.members.map(show).join(", ")})`);
      }
    }
    Deno.exit(1);
  }
  console.log(`no import circles in ${dirs.join(", ")}`);
}
