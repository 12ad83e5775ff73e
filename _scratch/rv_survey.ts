// Survey autosave mid-run (countRun false), then read back: is the in-progress run counted?
const root = Deno.args[0];
const { runBundle } = await import(root + "/src/core/survey/run_evidence.ts");
const merge = await import(root + "/src/core/bundle/merge.ts");
const store = await import(root + "/src/storage/bundles.ts");
const kv = await Deno.openKv(":memory:");
const src = "abcdef12";
const cells = [{ x: 1, z: 2, y: null, hx: 1, hz: 0, side: "L", tw: null, kinds: 0 }];
// find KIND_BIT for auto: just set all bits via loop of 1..31 till a vote appears
let bits = 0;
for (let b = 1; b < 64; b <<= 1) { const d = runBundle([{ ...cells[0], kinds: b }], [], { track: "T", source: src, ordinal: 1, countRun: false, now: "2024-01-01T00:00:00Z" }); if (Object.keys(d.edges[0].votes).length) { bits = b; break; } }
cells[0].kinds = bits;
async function save(ordinal: number, countRun: boolean) {
  await store.updateBundle(kv, "t", (current: any) => {
    const inc = runBundle(cells, [], { track: "T", source: src, ordinal, countRun, now: "2024-01-01T00:00:00Z" });
    const opts = { now: "2024-01-01T00:00:00Z", track: "T", keepAuthored: true, reconcileRuns: false };
    if (merge.mergeTables) {
      const { tableBundleOf } = { tableBundleOf: null as any };
      return import(root + "/src/core/bundle/table_convert.ts").then((tc) => {
        const m = merge.mergeTables(current?.bundle ?? null, tc.tableBundleOf(inc), opts);
        return { bundle: m.merged, result: null };
      });
    }
    const m = merge.merge(current?.doc ?? null, inc, opts);
    return { doc: m.merged, result: null };
  });
}
await save(1, true);
await save(2, false); // autosave mid-run 2
let r = await store.readBundle(kv, "t");
console.log("after autosave: head.runs", (await store.getBundleHead(kv, "t")).runs, "doc runs", r.doc.meta.runs, JSON.stringify(r.doc.meta.source_runs));
await save(2, false); // second autosave
r = await store.readBundle(kv, "t");
console.log("after 2nd autosave: head.runs", (await store.getBundleHead(kv, "t")).runs, "doc runs", r.doc.meta.runs);
kv.close();
