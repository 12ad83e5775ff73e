import { strict as assert } from "node:assert";
import { concatBytes } from "../../_bytes.ts";
import fc from "fast-check";
import type { BundleTable, EdgeTable } from "../../../src/core/bundle/edge_table.ts";
import { MAX_EDGES, RUN_LIMIT } from "../../../src/core/bundle/limits.ts";
import {
  decodeBundleTable,
  encodeBundleTable,
  TABLE_ENCODING,
  TableCorrupt,
} from "../../../src/core/bundle/table_codec.ts";
import { docOf, tableBundleOf, tableOfEdges } from "../../../src/core/bundle/table_convert.ts";
import type { BundleV4, Edge } from "../../../src/core/bundle/types.ts";
import { validateBundle, validateMembersV4 } from "../../../src/core/bundle/validate.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { v4Doc, v4DocsArb } from "./arbitraries.ts";
import { upgradeImported } from "../../../src/core/bundle/upgrade.ts";

/** The pieces of the encoding, concatenated. */
function encode(bundle: BundleTable): Uint8Array {
  return concatBytes(encodeBundleTable(bundle));
}

/** A raw v4 document validated into a bundle table. */
function tableOfDoc(raw: unknown): BundleTable {
  const doc = validateBundle(raw);
  assert.equal(doc.version, 4);
  return tableBundleOf(doc as BundleV4);
}

/** Every column's bytes and the sources, in a form assert compares exactly (NaN bits included). */
function columnsOf(t: EdgeTable): Record<string, unknown> {
  const bytes = (c: ArrayBufferView) => [...new Uint8Array(c.buffer, c.byteOffset, c.byteLength)];
  return {
    length: t.length,
    x: bytes(t.x),
    z: bytes(t.z),
    y: bytes(t.y),
    hx: bytes(t.hx),
    hz: bytes(t.hz),
    tw: bytes(t.tw),
    run: bytes(t.run),
    side: bytes(t.side),
    kind: bytes(t.kind),
    voteStart: bytes(t.voteStart),
    voteKind: bytes(t.voteKind),
    voteSource: bytes(t.voteSource),
    voteCount: bytes(t.voteCount),
    voteRun: bytes(t.voteRun),
    sources: [...t.sources],
  };
}

/** Asserts `bundle` survives encode then decode exactly; returns the bytes. */
function roundTrips(bundle: BundleTable): Uint8Array {
  const bytes = encode(bundle);
  const back = decodeBundleTable(bytes);
  assert.deepStrictEqual(docOf(back), docOf(bundle));
  assert.deepStrictEqual(columnsOf(back.edges), columnsOf(bundle.edges));
  assert.deepStrictEqual(encode(back), bytes);
  return bytes;
}

/** Byte offsets of the header's end and of every column, computed from the layout. */
function layout(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  const n: number = header.n;
  const m: number = header.m;
  const end = Math.ceil((8 + length) / 8) * 8;
  const x = end;
  const z = x + 8 * n;
  const y = z + 8 * n;
  const hx = y + 8 * n;
  const hz = hx + 8 * n;
  const tw = hz + 8 * n;
  const run = tw + 8 * n;
  const voteStart = run + 4 * n;
  const voteCount = voteStart + 4 * (n + 1);
  const voteRun = voteCount + 4 * m;
  const voteSource = voteRun + 4 * m;
  const side = voteSource + 4 * m;
  const voteKind = side + n;
  const total = voteKind + m;
  return {
    header,
    length,
    end,
    total,
    x,
    z,
    y,
    hx,
    hz,
    tw,
    run,
    voteStart,
    voteCount,
    voteRun,
    voteSource,
    side,
    voteKind,
  };
}

type Layout = ReturnType<typeof layout>;

/** A copy of `bytes` with `edit` applied through a DataView. */
function patched(bytes: Uint8Array, edit: (view: DataView, at: Layout) => void): Uint8Array {
  const copy = bytes.slice();
  edit(new DataView(copy.buffer), layout(copy));
  return copy;
}

/** A copy of `bytes` with its header JSON text replaced by `edit` of it. */
function withHeaderText(
  bytes: Uint8Array,
  edit: (text: string) => string | Uint8Array,
): Uint8Array {
  const at = layout(bytes);
  const edited = edit(new TextDecoder().decode(bytes.subarray(8, 8 + at.length)));
  const json = typeof edited === "string" ? new TextEncoder().encode(edited) : edited;
  const end = Math.ceil((8 + json.length) / 8) * 8;
  const rest = bytes.subarray(at.end);
  const out = new Uint8Array(end + rest.length);
  out.set(bytes.subarray(0, 8));
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(rest, end);
  return out;
}

/** A copy of `bytes` with its header object changed by `edit`. */
function withHeader(
  bytes: Uint8Array,
  edit: (header: Record<string, unknown>) => void,
): Uint8Array {
  return withHeaderText(bytes, (text) => {
    const header = JSON.parse(text);
    edit(header);
    return JSON.stringify(header);
  });
}

/** Asserts decoding `bytes` throws TableCorrupt with a message matching `message`. */
function refused(bytes: Uint8Array, message: RegExp): void {
  assert.throws(() => decodeBundleTable(bytes), (err: unknown) => {
    assert.ok(err instanceof TableCorrupt, `expected TableCorrupt, got ${err}`);
    assert.match(err.message, message);
    return true;
  });
}

const FORMAT = "sim-datalogger-track-bundle";

// The header edits write ill-typed values anywhere in it.
// deno-lint-ignore no-explicit-any
type Loose = any;

/** Three hand-made edges: nulls, -0 everywhere it can be, index-like source ids. */
function handEdges(): Edge[] {
  return [
    {
      x: 1.25,
      z: -0,
      y: null,
      hx: -0,
      hz: 1,
      side: "L",
      kind: "auto",
      votes: { wall: { abcdef: [1, 1] }, auto: { abcdef: [1, 0], "123456": [2, 3] } },
      run: 0,
      tw: null,
    },
    {
      x: -0,
      z: 2.5,
      y: 12.25,
      hx: 0.6,
      hz: 0.8,
      side: "R",
      kind: "auto",
      votes: {
        edge: { "99999999999": [1, 2], "4294967295": [2, 2] },
        straddle: { "4294967294": [5, 7] },
      },
      run: 3,
      tw: 1.6,
    },
    {
      x: 3.5,
      z: 4,
      y: -0,
      hx: 1,
      hz: 0,
      side: "L",
      kind: "wall",
      votes: { auto: { "123456": [1, 1] } },
      run: 1,
      tw: -0,
    },
  ];
}

/** The hand-made edges as a bundle table, its other members as validation leaves them. */
function handBundle(): BundleTable {
  const raw = {
    format: FORMAT,
    version: 4,
    meta: {
      track: "  Hand Ring ",
      runs: 0,
      source_runs: { abcdef: 9, "123456": 1 },
      updated_at: "2026-02-03T04:05:06.000Z",
      official: {
        track: "Hand Ring",
        layout: "Full",
        official_id: "hr-1",
        official_name: "Hand Ring Full",
        turns: 12,
        length_m: 4321.5,
        reverse: false,
      },
    },
    finish_crossings: [{ x: 1, z: 2, hx: 0, hz: 1, lap: 3 }],
    corners: [{
      n: 7,
      name: "Hairpin",
      direction: "L",
      apex: { x: 3, z: 4 },
      entry: null,
      exit: { x: 5, z: 6 },
      note: "brake early",
    }],
    sections: [{ n: 1, name: "Back straight", start: { x: 0, z: 0 }, end: { x: 100, z: 0 } }],
  };
  return validateMembersV4(raw, tableOfEdges(handEdges()));
}

Deno.test("TABLE_ENCODING names the layout", () => {
  assert.equal(TABLE_ENCODING, "edge-table-1");
});

Deno.test("hand-made edges round-trip: nulls, -0 read as 0, index-like sources in order", () => {
  const bundle = handBundle();
  assert.deepStrictEqual(bundle.edges.sources, [
    "123456",
    "4294967294",
    "4294967295",
    "99999999999",
    "abcdef",
  ]);
  assert.deepStrictEqual([...bundle.edges.voteStart], [0, 3, 6, 7]);
  const bytes = roundTrips(bundle);
  const back = decodeBundleTable(bytes);
  assert.ok(Object.is(back.edges.z[0], 0) && Object.is(back.edges.x[1], 0));
  assert.ok(Number.isNaN(back.edges.y[0]) && Number.isNaN(back.edges.tw[0]));
  const edges = docOf(back).edges;
  assert.equal(edges[0].y, null);
  assert.equal(edges[0].tw, null);
  assert.equal(edges[0].kind, "wall");
  assert.equal(edges[1].kind, "edge");
  assert.equal(edges[2].kind, "auto");
  assert.deepStrictEqual(Object.keys(edges[1].votes.edge!), ["4294967295", "99999999999"]);
  assert.deepStrictEqual(back.meta.source_runs, {
    "123456": 3,
    "4294967294": 7,
    "4294967295": 2,
    "99999999999": 2,
    abcdef: 9,
  });
  assert.equal(back.meta.runs, 23);
  assert.equal(back.meta.track, "Hand Ring");
  assert.equal(back.corners[0].n, 1);
  assert.equal(layout(bytes).total, bytes.length);
});

Deno.test("a 2,000-edge synthetic bundle round-trips exactly", () => {
  const bundle = tableOfDoc(syntheticBundle({
    cells: 2_000,
    sources: ["0badc0ffee01", "123456", "f0e1d2c3b4a5", "abcdef"],
    runs: 25,
    seed: 11,
  }));
  const bytes = roundTrips(bundle);
  assert.equal(layout(bytes).total, bytes.length);
});

Deno.test("a 50,000-edge synthetic bundle round-trips exactly, in pieces of columns", () => {
  const bundle = tableOfDoc(syntheticBundle({
    cells: MAX_EDGES,
    sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
    runs: 40,
    seed: 3,
  }));
  const pieces = [...encodeBundleTable(bundle)];
  assert.equal(pieces.length, 14);
  // The column pieces view the table's own memory: nothing was gathered.
  assert.equal(pieces[1].buffer, bundle.edges.x.buffer);
  assert.equal(pieces[13].buffer, bundle.edges.voteKind.buffer);
  roundTrips(bundle);
});

Deno.test("an empty table round-trips", () => {
  roundTrips(validateMembersV4(
    {
      format: FORMAT,
      version: 4,
      meta: { track: "Empty", source_runs: {}, updated_at: "", official: null },
    },
    tableOfEdges([]),
  ));
});

Deno.test("random valid bundles round-trip; members read back as their JSON does", () => {
  fc.assert(
    fc.property(v4DocsArb(1), ([raw]) => {
      // As a store holds them: parsed from JSON, so no member holds a -0.
      const stored = tableOfDoc(JSON.parse(JSON.stringify(raw)));
      const back = decodeBundleTable(encode(stored));
      assert.deepStrictEqual(docOf(back), docOf(stored));
      assert.deepStrictEqual(columnsOf(back.edges), columnsOf(stored.edges));
      // Straight from objects, a member may hold -0; the header's JSON reads it as 0.
      const fresh = tableOfDoc(raw);
      const again = decodeBundleTable(encode(fresh));
      assert.deepStrictEqual(docOf(again), JSON.parse(JSON.stringify(docOf(fresh))));
      assert.deepStrictEqual(columnsOf(again.edges), columnsOf(fresh.edges));
    }),
    { numRuns: 200 },
  );
});

Deno.test("equal tables give equal bytes, whatever key order or NaN bits they were built with", () => {
  const a = encode(handBundle());
  assert.deepStrictEqual(encode(handBundle()), a);
  const bundle = handBundle();
  // The same values with member keys in another order, a -0 and an x86-style NaN.
  const y = bundle.edges.y.slice();
  new Uint32Array(y.buffer)[1] = 0xfff80000;
  const hz = bundle.edges.hz.slice();
  hz[2] = -0;
  const shuffled: BundleTable = {
    sections: bundle.sections,
    corners: bundle.corners,
    finish_crossings: bundle.finish_crossings,
    edges: { ...bundle.edges, y, hz },
    meta: {
      official: bundle.meta.official,
      updated_at: bundle.meta.updated_at,
      source_runs: Object.fromEntries(Object.entries(bundle.meta.source_runs).reverse()),
      runs: bundle.meta.runs,
      track: bundle.meta.track,
    },
    version: 4,
    format: bundle.format,
  };
  assert.deepStrictEqual(encode(shuffled), a);
  // The encoder copied those two columns rather than change the table.
  assert.equal(new Uint32Array(y.buffer)[1], 0xfff80000);
  assert.ok(Object.is(hz[2], -0));
});

Deno.test("decodes a view at an odd byte offset, sharing nothing with it", () => {
  const bundle = handBundle();
  const bytes = encode(bundle);
  const big = new Uint8Array(bytes.length + 4);
  big.set(bytes, 3);
  const back = decodeBundleTable(big.subarray(3, 3 + bytes.length));
  assert.deepStrictEqual(docOf(back), docOf(bundle));
  assert.deepStrictEqual(columnsOf(back.edges), columnsOf(bundle.edges));
  big.fill(0);
  assert.equal(back.edges.x[0], 1.25);
});

Deno.test("-0 and unusual NaNs in the bytes are read as 0 and NaN", () => {
  const bytes = patched(encode(handBundle()), (v, at) => {
    v.setFloat64(at.x + 8 * 2, -0, true);
    v.setFloat64(at.hz + 8 * 2, -0, true);
    v.setUint32(at.y + 4, 0xfff80000, true);
    v.setUint32(at.tw + 4, 0x7ff00001, true);
  });
  const back = decodeBundleTable(bytes);
  assert.ok(Object.is(back.edges.x[2], 0) && Object.is(back.edges.hz[2], 0));
  const x = back.edges.x.slice();
  x[2] = 3.5;
  const hz = back.edges.hz.slice();
  hz[2] = 0;
  assert.deepStrictEqual(
    encode({ ...back, edges: { ...back.edges, x, hz } }),
    encode(handBundle()),
  );
  assert.deepStrictEqual(new Uint32Array(back.edges.y.buffer, 0, 2)[1], 0x7ff80000);
  assert.deepStrictEqual(new Uint32Array(back.edges.tw.buffer, 0, 2)[1], 0x7ff80000);
});

Deno.test("bad magic, version, truncation and extra bytes are refused", () => {
  const bytes = encode(handBundle());
  refused(patched(bytes, (v) => v.setUint8(0, 0x7b)), /bad magic/);
  refused(patched(bytes, (v) => v.setUint8(3, 2)), /layout version is 2; this build reads 1/);
  for (let length = 0; length < bytes.length; length++) {
    refused(bytes.subarray(0, length), /truncated/);
  }
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  refused(longer, /1 extra bytes after the table/);
  refused(patched(bytes, (v) => v.setUint32(4, 0xffffffff, true)), /truncated: header length/);
});

Deno.test("a header that is not the expected JSON object is refused", () => {
  const bytes = encode(handBundle());
  refused(withHeaderText(bytes, (t) => t.slice(0, -1) + " "), /header is not UTF-8 JSON/);
  refused(withHeaderText(bytes, () => new Uint8Array([0x22, 0xff, 0x22])), /not UTF-8 JSON/);
  refused(withHeaderText(bytes, () => "[1,2]"), /header is not a JSON object/);
  refused(withHeaderText(bytes, () => "null"), /header is not a JSON object/);
  refused(withHeader(bytes, (h) => (h.extra = 1)), /unknown key "extra"/);
  refused(withHeaderText(bytes, (t) => `{"__proto__":{},${t.slice(1)}`), /unknown key "__proto__"/);
  refused(withHeader(bytes, (h) => delete h.n), /header n is undefined/);
  refused(withHeader(bytes, (h) => (h.n = 2.5)), /header n is 2.5/);
  refused(withHeader(bytes, (h) => (h.n = MAX_EDGES + 1)), /n is 50001; .* at most 50000 edges/);
  refused(withHeader(bytes, (h) => (h.m = "7")), /header m is "7"/);
  refused(withHeader(bytes, (h) => (h.m = -1)), /header m is -1/);
  refused(withHeader(bytes, (h) => (h.sources = "abcdef")), /sources is not an array/);
  // The hand-made header leaves padding to corrupt.
  assert.notEqual((8 + layout(bytes).length) % 8, 0);
  refused(
    patched(bytes, (v, at) => v.setUint8(8 + at.length, 1)),
    /^header padding byte \d+ is 1, not 0$/,
  );
});

Deno.test("header n and m that disagree with the byte count are refused", () => {
  const bytes = encode(handBundle());
  refused(withHeader(bytes, (h) => (h.n = 2)), /extra bytes/);
  refused(withHeader(bytes, (h) => (h.m = 8)), /truncated: \d+ bytes; a table of n 3, m 8/);
});

Deno.test("sources that are not valid ids, out of order, or unused are refused", () => {
  const bytes = encode(handBundle());
  const set = (s: number, id: unknown) =>
    withHeader(bytes, (h) => ((h.sources as unknown[])[s] = id));
  refused(set(4, "ABCDEF"), /sources\[4\] is "ABCDEF"; a source id is 6 to 32 lowercase hex/);
  refused(set(0, 123456), /sources\[0\] is 123456/);
  refused(set(4, "12345"), /sources\[4\] is "12345"/);
  // "99999999999" is no array index, so it sorts after "4294967295" by code unit only.
  refused(set(0, "99999999999"), /sources\[1\] is "4294967294", not after "99999999999"/);
  refused(set(4, "99999999999"), /sources\[4\] is "99999999999", not after "99999999999"/);
  refused(
    withHeader(bytes, (h) => (h.sources as string[]).push("ffffffffffff")),
    /sources\[5\] ffffffffffff has no vote entry/,
  );
});

Deno.test("members the schema refuses are refused with its message", () => {
  const bytes = encode(handBundle());
  const member = (edit: (h: Loose) => void) => withHeader(bytes, edit);
  refused(member((h) => (h.meta.track = "   ")), /^\$\.meta\.track: /);
  refused(member((h) => (h.format = "other")), /^\$\.format: /);
  refused(member((h) => (h.version = 3)), /^\$\.version: /);
  refused(member((h) => (h.finish_crossings[0].lap = -1)), /^\$\.finish_crossings\[0\]\.lap: /);
  refused(member((h) => (h.meta.source_runs = { abcdef: RUN_LIMIT + 1 })), /source_runs/);
  refused(member((h) => delete h.meta), /^\$\.meta: /);
});

Deno.test("vote offsets that are not a partition of the entries are refused", () => {
  const bytes = encode(handBundle());
  const start = (i: number, value: number) =>
    patched(bytes, (v, at) => v.setInt32(at.voteStart + 4 * i, value, true));
  refused(start(0, 1), /voteStart\[0\] is 1; it must be 0/);
  refused(start(0, -1), /voteStart\[0\] is -1/);
  refused(start(1, 0), /cell 0 has no vote entries/);
  refused(start(2, 2), /voteStart\[2\] is 2, below voteStart\[1\] 3/);
  refused(start(3, 8), /voteStart\[3\] is 8, past the 7 entries/);
  refused(
    patched(bytes, (v, at) => {
      v.setInt32(at.voteStart + 8, 5, true);
      v.setInt32(at.voteStart + 12, 6, true);
    }),
    /voteStart\[3\] is 6; it must be the 7 entries/,
  );
});

Deno.test("vote entries out of range or out of order are refused", () => {
  const bytes = encode(handBundle());
  const put = (column: "voteKind" | "voteSource" | "voteCount" | "voteRun", e: number, x: number) =>
    patched(bytes, (v, at) => {
      if (column === "voteKind") v.setUint8(at.voteKind + e, x);
      else if (column === "voteSource") v.setUint32(at.voteSource + 4 * e, x, true);
      else v.setInt32(at[column] + 4 * e, x, true);
    });
  refused(put("voteKind", 1, 9), /^voteKind\[1\] is 9; kinds are 0 to 4$/);
  refused(put("voteKind", 6, 5), /^voteKind\[6\] is 5; kinds are 0 to 4$/);
  refused(put("voteSource", 0, 5), /^voteSource\[0\] is 5; there are 5 sources$/);
  refused(put("voteSource", 0, 0xffffffff), /^voteSource\[0\] is 4294967295/);
  refused(put("voteKind", 0, 3), /cell 0: entry 1 .* strictly increasing by \(kind, source\)/);
  refused(put("voteSource", 2, 0), /cell 0: entry 2 \(voteKind 3, voteSource 0\)/);
  refused(put("voteRun", 0, -1), /^voteRun\[0\] is -1; runs are 0 to 1000000$/);
  refused(put("voteRun", 0, RUN_LIMIT + 1), /^voteRun\[0\] is 1000001/);
  refused(put("voteCount", 1, 0), /^voteCount\[1\] is 0; it must be 1 to max\(voteRun, 1\) = 3$/);
  refused(put("voteCount", 1, 4), /^voteCount\[1\] is 4; .* = 3$/);
  refused(put("voteCount", 2, 2), /^voteCount\[2\] is 2; .* = 1$/);
  refused(put("voteCount", 2, -5), /^voteCount\[2\] is -5/);
});

Deno.test("cell values out of range are refused; NaN only where the document has null", () => {
  const bytes = encode(handBundle());
  const f64 = (column: "x" | "z" | "y" | "hx" | "hz" | "tw", i: number, value: number) =>
    patched(bytes, (v, at) => v.setFloat64(at[column] + 8 * i, value, true));
  refused(f64("x", 0, NaN), /^x\[0\] is NaN; it must be within ±10000000$/);
  refused(f64("x", 1, Infinity), /^x\[1\] is Infinity/);
  refused(f64("x", 2, 10_000_000.5), /^x\[2\] is 10000000.5/);
  refused(f64("z", 1, -1e8), /^z\[1\] is -100000000/);
  refused(f64("z", 0, NaN), /^z\[0\] is NaN/);
  refused(
    f64("y", 1, 1e7 + 1),
    /^y\[1\] is 10000001; it must be NaN \(null\) or within ±10000000$/,
  );
  refused(f64("y", 1, -Infinity), /^y\[1\] is -Infinity/);
  refused(f64("hx", 1, 1.01), /^hx\[1\] is 1.01; it must be within ±1.0001$/);
  refused(f64("hz", 0, NaN), /^hz\[0\] is NaN/);
  refused(f64("hz", 2, -2), /^hz\[2\] is -2/);
  refused(f64("tw", 1, 10.5), /^tw\[1\] is 10.5; it must be NaN \(null\) or within ±10$/);
  refused(f64("tw", 2, Infinity), /^tw\[2\] is Infinity/);
  const i32 = (i: number, value: number) =>
    patched(bytes, (v, at) => v.setInt32(at.run + 4 * i, value, true));
  refused(i32(1, -1), /^run\[1\] is -1; runs are 0 to 1000000$/);
  refused(i32(2, RUN_LIMIT + 1), /^run\[2\] is 1000001/);
  refused(
    patched(bytes, (v, at) => v.setUint8(at.side + 1, 2)),
    /^side\[1\] is 2; sides are 0 \(L\) and 1 \(R\)$/,
  );
  refused(patched(bytes, (v, at) => v.setUint8(at.side, 255)), /^side\[0\] is 255/);
});

Deno.test("every single-byte change is either refused or decodes to a valid bundle", () => {
  const bundle = handBundle();
  const bytes = encode(bundle);
  for (let i = 0; i < bytes.length; i++) {
    for (const flip of [0x01, 0x80, 0xff]) {
      const copy = bytes.slice();
      copy[i] ^= flip;
      try {
        const back = decodeBundleTable(copy);
        // What decodes encodes back to itself: the result is a table the codec accepts.
        assert.deepStrictEqual(docOf(decodeBundleTable(encode(back))), docOf(back));
      } catch (err) {
        assert.ok(err instanceof TableCorrupt, `byte ${i} ^ ${flip}: ${err}`);
      }
    }
  }
});

Deno.test("a table whose vote entries break a rule is refused before a byte is written", () => {
  const good = tableBundleOf(upgradeImported(validateBundle(v4Doc(3))) as BundleV4);
  const voteStart = good.edges.voteStart.slice();
  voteStart[1] = voteStart[0];
  const empty = { ...good, edges: { ...good.edges, voteStart } };
  assert.throws(
    () => [...encodeBundleTable(empty)],
    /refusing to write .*cell 0 has no vote entries/,
  );
  const extra = { ...good, edges: { ...good.edges, sources: [...good.edges.sources, "ffffff"] } };
  assert.throws(() => [...encodeBundleTable(extra)], /source ffffff with no entry/);
});
