import { strict as assert } from "node:assert";
import { ENGINEER_FILES } from "../../src/server/hub/hub_live_pages.ts";
import { etagOf, WEB_DIR, webAsset } from "../../src/server/web_folder.ts";
import { webFileRoutes } from "../../src/server/routes/web_files.ts";
import { HOME_FILES } from "../../src/server/routes/home.ts";
import { PAGE_FILES } from "../../src/server/routes/pages.ts";

/** Every file under `dir`, as paths relative to it, sorted. */
async function listing(dir: URL, under = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(new URL(under, dir))) {
    const name = `${under}${e.name}`;
    if (e.isDirectory) out.push(...await listing(dir, `${name}/`));
    else out.push(name);
  }
  return out.sort();
}

const ONE = { summary: "a file", description: "a file" };

Deno.test("a file the routes name that src/web lacks stops the start with its path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = new URL(`file://${dir}/`);
    await Deno.writeTextFile(`${dir}/here.js`, "export {};\n");
    assert.throws(
      () =>
        webFileRoutes({
          "/here.js": { name: "here.js", ...ONE },
          "/gone.js": { name: "gone.js", ...ONE },
        }, { etag: true, dir: url }),
      {
        message: `the page file ${dir}/gone.js is missing ` +
          "(a compiled binary needs `--include src/web`)",
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file is read once: its text, type and tag are kept for the process", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = new URL(`file://${dir}/`);
    await Deno.writeTextFile(`${dir}/a.css`, "a");
    const files = { "/a.css": { name: "a.css", ...ONE } };
    const first = await webFileRoutes(files, { etag: true, dir: url }).request("/a.css");
    assert.equal(first.headers.get("content-type"), "text/css; charset=utf-8");
    assert.equal(first.headers.get("etag"), '"e40c292c-1"');
    assert.equal(await first.text(), "a");
    // Changed on disk after the start: the server still answers what it read.
    await Deno.writeTextFile(`${dir}/a.css`, "bb");
    const again = await webFileRoutes(files, { etag: true, dir: url }).request("/a.css");
    assert.equal(await again.text(), "a");
    assert.equal(webAsset("a.css", url).etag, '"e40c292c-1"');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the tag is FNV-1a of the text's UTF-16 units and its length", () => {
  assert.equal(etagOf(""), '"811c9dc5-0"');
  assert.equal(etagOf("a"), '"e40c292c-1"');
  // A PNG's tag runs over its bytes: one byte 0x61 tags as the text "a".
  assert.equal(etagOf(new Uint8Array([0x61])), '"e40c292c-1"');
});

Deno.test("src/web and the routes agree: every file but the type-only api_types.js is served", async () => {
  const served = new Set([
    ...Object.values(HOME_FILES).map((f) => f.name),
    ...Object.values(PAGE_FILES),
    // The hub serves the race engineer's pages from the same folder.
    ...Object.values(ENGINEER_FILES).map((f) => f.name),
    "engineer.html", // GET /live/{driver}, a route of its own (hub_live_pages.ts)
  ]);
  const files = (await listing(WEB_DIR)).filter((f) => f !== "api_types.js");
  assert.deepEqual([...served].sort(), files);
  assert.equal(files.length, 38);
});
