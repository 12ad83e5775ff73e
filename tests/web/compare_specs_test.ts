/// <reference lib="dom" />
import { strict as assert } from "node:assert";
import { CHANNELS, chartRequests, readView, startEarly } from "../../src/web/compare_requests.js";
import {
  bandOnGrid,
  chartSpecs,
  cornerWindows,
  lapStyles,
  lerp,
  orderLaps,
  pageTimings,
  readoutText,
  scopeOf,
  vsOf,
} from "../../src/web/compare_specs.js";
import type { ComparedLap, CornerReport, LapRow } from "../../src/web/api_types.js";

/** A compared lap of `n` points whose delta is `i * step` at point i. */
function lap(id: number, n: number, step: number, channels: ComparedLap["channels"] = {}) {
  return {
    id,
    time_ms: 90_000 + id,
    lap_start_m: null,
    delta_s: Array.from({ length: n }, (_, i) => i * step),
    channels,
  };
}

/** A lap row of the list, complete and named unless told. */
function row(id: number, over: Partial<LapRow> = {}): LapRow {
  return {
    id,
    session_id: 7,
    number: id,
    track: "Brands Hatch Indy",
    circuit: "brands-hatch-indy",
    car_id: 3320,
    car_name: "GT-R",
    time_ms: 90_000 + id,
    complete: true,
    counts_for_best: true,
    bests_excluded: false,
    imported: false,
    finished_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

Deno.test("the address's view: ids as written, blanks dropped, the map's colouring, the zoom", () => {
  assert.deepEqual(readView("?laps=3,%205,,8&ref=5&vs=8&map=speed&from=10.5&to=20"), {
    laps: ["3", "5", "8"],
    ref: "5",
    vs: "8",
    map: "speed",
    from: 10.5,
    to: 20,
  });
  assert.deepEqual(readView("?laps=&map=other&from="), {
    laps: [],
    ref: null,
    vs: null,
    map: "delta",
    from: null,
    to: null,
  });
});

Deno.test("the charts' two requests: the comparison with every channel, the rows with the reference once", () => {
  const channels = "speed,throttle,brake,gear,rpm,steer,tire_slip,pos_x,pos_z";
  assert.equal(CHANNELS.join(","), channels);
  assert.deepEqual(chartRequests({ laps: ["3", "5"], ref: "8" }), {
    compare: `/api/analysis/compare?laps=3,5&ref=8&channels=${channels}`,
    rows: "/api/laps?ids=3,5,8",
  });
  assert.deepEqual(chartRequests({ laps: ["3", "5"], ref: "5" }), {
    compare: `/api/analysis/compare?laps=3,5&ref=5&channels=${channels}`,
    rows: "/api/laps?ids=3,5",
  });
  assert.equal(chartRequests({ laps: ["4"], ref: null }).rows, "/api/laps?ids=4");
});

Deno.test("pages.html starts exactly the charts' two requests, on /compare with one to five laps only", () => {
  const asked: string[] = [];
  const g = globalThis as unknown as { fetch: typeof fetch; earlyApi?: Record<string, unknown> };
  const realFetch = g.fetch;
  g.fetch = ((path: string) => {
    asked.push(path);
    return Promise.resolve(new Response("{}"));
  }) as typeof fetch;
  try {
    startEarly({ pathname: "/laps", search: "?laps=1,2" });
    startEarly({ pathname: "/compare", search: "?laps=1,2,3,4,5,6" });
    startEarly({ pathname: "/compare", search: "" });
    assert.deepEqual(asked, []);
    startEarly({ pathname: "/compare", search: "?laps=1,2&ref=2" });
    const want = Object.values(chartRequests({ laps: ["1", "2"], ref: "2" }));
    assert.deepEqual(asked, want);
    assert.deepEqual(Object.keys(g.earlyApi ?? {}), want);
  } finally {
    g.fetch = realFetch;
    delete g.earlyApi;
  }
});

Deno.test("the reference is drawn first, the lap compared is the address's or the next one", () => {
  const cmp = {
    distance: [0, 1],
    ref: 5,
    start_m: null,
    laps: [lap(3, 2, 0), lap(5, 2, 0), lap(8, 2, 0)],
  };
  const laps = orderLaps(cmp);
  assert.deepEqual(laps.map((l) => l.id), [5, 3, 8]);
  assert.equal(vsOf(laps, "8"), 8);
  assert.equal(vsOf(laps, "99"), 3);
  assert.equal(vsOf(laps, null), 3);
  assert.equal(vsOf(laps.slice(0, 1), null), null);
});

Deno.test("bests and the band: the circuit and car's when named, else the session's", () => {
  assert.equal(scopeOf(row(1)), "track=Brands%20Hatch%20Indy&car=3320");
  assert.equal(scopeOf(row(1, { circuit: null, track: "" })), "session=7&car=3320");
  assert.equal(scopeOf(undefined), null);
});

Deno.test("legend labels: the reference tagged, an incomplete lap said so, the lap colours in order", () => {
  const laps = [lap(5, 1, 0), lap(3, 1, 0)];
  const rows = new Map([[5, row(5)], [3, row(3, { complete: false })]]);
  assert.deepEqual(lapStyles(laps, rows), [
    { label: "ref #5 1:30.005", colour: "#e8e8e8" },
    { label: "#3 1:30.003 incomplete", colour: "#ff5c5c" },
  ]);
});

Deno.test("the charts: six always, steering and tyre slip only when a lap carries them", () => {
  const plain = [lap(1, 3, 0, { speed: [1, 2, 3] }), lap(2, 3, 0, { speed: null })];
  const specs = chartSpecs(plain, 3, true);
  assert.deepEqual(specs.map((s) => s.key), ["delta", "speed", "throttle", "brake", "gear", "rpm"]);
  const speed = specs[1];
  assert.deepEqual(speed.series, [[1, 2, 3], [null, null, null]]);
  assert.deepEqual(speed.band, { hi: [null, null, null], lo: [null, null, null] });
  assert.equal(chartSpecs(plain, 3, false)[1].band, null);
  assert.deepEqual(specs[2].range, [0, 100]);
  assert.equal(specs[4].stepped, true);
  assert.equal(specs[0].symmetric, true);
  const steering = [lap(1, 2, 0, { steer: null }), lap(2, 2, 0, { steer: [0.1, 0.2] })];
  assert.deepEqual(chartSpecs(steering, 2, false).map((s) => s.key).slice(6), ["steer"]);
});

Deno.test("the band: mean ± spread scaled to the reference's length, null past its end", () => {
  assert.equal(lerp([0, 10], [0, 100], 2.5), 25);
  assert.equal(lerp([0, 10], [0, null], 5), null);
  assert.equal(lerp([0, 10], [0, 1], 11), null);
  // The best laps are 200 m long, the reference 100 m: its 50 m is their 100 m.
  const cons = { distance: [0, 100, 200], mean_kmh: [100, 120, 140], spread_kmh: [2, 4, 6] };
  assert.deepEqual(bandOnGrid(cons, [0, 50, 100]), { hi: [102, 124, 146], lo: [98, 116, 134] });
});

Deno.test("corner windows carry the time the compared lap lost in each, null where unknown", () => {
  const corner = (n: number, delta: number | null) => ({
    n,
    name: "",
    direction: null,
    apex_m: 10 * n,
    entry_m: 10 * n - 5,
    exit_m: 10 * n + 5,
    apex: { x: 0, z: 0 },
    entry_kmh: 100,
    min_kmh: 80,
    exit_kmh: 110,
    brake_m: null,
    ref_brake_m: null,
    time_s: 2,
    ref_time_s: null,
    delta_s: delta,
  });
  const ref: CornerReport = {
    source: "circuit",
    lap_start_m: null,
    corners: [corner(1, null), corner(2, null)],
  };
  const vs: CornerReport = { source: "circuit", lap_start_m: null, corners: [corner(2, 0.25)] };
  assert.deepEqual(cornerWindows(ref, vs).map((w) => [w.n, w.lost_s]), [[1, null], [2, 0.25]]);
  assert.deepEqual(cornerWindows(null, vs), []);
  assert.deepEqual(cornerWindows(ref, null).map((w) => w.lost_s), [null, null]);
});

Deno.test("the readout: the metre, then each lap's delta to the reference", () => {
  const laps = [lap(5, 3, 0), lap(3, 3, 0.5), lap(8, 3, -0.25)];
  assert.equal(readoutText([0, 1.4, 2.6], laps, 2), "3 m · #3 +1.000 · #8 -0.500");
  assert.equal(readoutText([0, 1, 2], laps, null), "");
});

Deno.test("timings: a click's pair when a click opened the page, the load's otherwise", () => {
  const at = { started: 1000, fetched: 1100.4, charted: 1250.6, drawn: 1400 };
  assert.deepEqual(pageTimings(at, true), {
    fetch_ms: 100,
    charts_ms: 150,
    load_to_charts_ms: null,
    load_to_complete_ms: null,
    click_to_charts_ms: 251,
    click_to_complete_ms: 400,
  });
  assert.deepEqual(pageTimings(at, false), {
    fetch_ms: 100,
    charts_ms: 150,
    load_to_charts_ms: 251,
    load_to_complete_ms: 400,
    click_to_charts_ms: null,
    click_to_complete_ms: null,
  });
});
