import { strict as assert } from "node:assert";
import type { App } from "../../src/app/create_app.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { allKeys, storeLaps, testSession } from "../_stored_laps.ts";
import { sessionKey } from "../../src/storage/sessions.ts";
import { withServer } from "./_server.ts";

const NOW = new Date("2026-11-24T12:00:00Z");

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

async function send(url: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
}

/** Answers 400 with one issue at `path` whose message matches `rule`. */
async function refused(res: Promise<Response>, path: string, rule: RegExp): Promise<void> {
  const r = await res;
  assert.equal(r.status, 400, path);
  assert.equal(r.headers.get("content-type"), "application/problem+json");
  const problem = await r.json();
  assert.equal(problem.errors.length, 1, path);
  assert.equal(problem.errors[0].path, path);
  assert.match(problem.errors[0].message, rule);
}

/**
 * Suzuka (car 1): laps of 90.0 and 88.0 s at 10:01 and 10:02; Spa (car 2):
 * 120.0 s at 10:03 and an incomplete 110.0 s at 10:04; an unnamed session
 * (car 1): 80.0 s at 10:05.
 */
async function seed(app: App) {
  const suzuka = await testSession(app.kv, "Suzuka Circuit", 1);
  const [s1] = await storeLaps(app.kv, suzuka, [90_000], {
    finished_at: "2026-11-24T10:01:00.000Z",
  });
  const [s2] = await storeLaps(app.kv, suzuka, [88_000], {
    finished_at: "2026-11-24T10:02:00.000Z",
    number: 2,
  });
  const spa = await testSession(app.kv, "Spa", 2);
  const [p1] = await storeLaps(app.kv, spa, [120_000], { finished_at: "2026-11-24T10:03:00.000Z" });
  const [p2] = await storeLaps(app.kv, spa, [110_000], {
    finished_at: "2026-11-24T10:04:00.000Z",
    complete: false,
    number: 2,
  });
  const unnamed = await testSession(app.kv, "", 1);
  const [u1] = await storeLaps(app.kv, unnamed, [80_000], {
    finished_at: "2026-11-24T10:05:00.000Z",
  });
  return {
    suzuka,
    spa,
    unnamed,
    ids: { s1: s1.lap.id, s2: s2.lap.id, p1: p1.lap.id, p2: p2.lap.id, u1: u1.lap.id },
  };
}

Deno.test("GET /api/laps lists laps across sessions with circuit and car, filtered and ordered", async () => {
  await withServer(async (url, app) => {
    const { suzuka, ids } = await seed(app);
    const list = async (query: string) => {
      const r = await getJson(`${url}/api/laps${query}`);
      assert.equal(r.status, 200, query);
      return r.body as { id: number; track: string; circuit: string | null }[];
    };
    const all = await list("");
    assert.deepEqual(all.map((l) => l.id), [ids.u1, ids.p2, ids.p1, ids.s2, ids.s1]);
    assert.deepEqual(all[3], {
      id: ids.s2,
      session_id: suzuka.id,
      number: 2,
      track: "Suzuka Circuit",
      circuit: "suzuka-circuit",
      car_id: 1,
      car_name: "Car 1",
      time_ms: 88_000,
      complete: true,
      counts_for_best: true,
      bests_excluded: false,
      imported: false,
      finished_at: "2026-11-24T10:02:00.000Z",
    });
    assert.equal(all[0].track, "");
    assert.equal(all[0].circuit, null);
    const byTime = (await list("?order=time")).map((l) => l.id);
    assert.deepEqual(byTime, [ids.u1, ids.s2, ids.s1, ids.p2, ids.p1]);
    assert.deepEqual((await list("?order=recent&limit=2")).map((l) => l.id), [ids.u1, ids.p2]);
    // A circuit is matched by its slug: case and punctuation do not matter.
    for (const track of ["Suzuka%20Circuit", "SUZUKA-circuit", "%20suzuka%20circuit%20"]) {
      assert.deepEqual((await list(`?track=${track}`)).map((l) => l.id), [ids.s2, ids.s1]);
    }
    assert.deepEqual((await list("?car=2")).map((l) => l.id), [ids.p2, ids.p1]);
    assert.deepEqual((await list("?complete=false")).map((l) => l.id), [ids.p2]);
    assert.deepEqual(
      (await list("?car=1&complete=true&order=time&limit=2")).map((l) => l.id),
      [ids.u1, ids.s2],
    );
    assert.deepEqual(await list("?track=Monza"), []);
    // Laps follow their session's name.
    assert.equal(
      (await send(`${url}/api/sessions/${suzuka.id}`, "PATCH", { name: "Fuji" })).status,
      200,
    );
    assert.deepEqual(await list("?track=Suzuka%20Circuit"), []);
    const fuji = await list("?track=fuji");
    assert.deepEqual(fuji.map((l) => [l.id, l.track]), [[ids.s2, "Fuji"], [ids.s1, "Fuji"]]);
  }, { now: NOW });
});

Deno.test("GET /api/laps?car=0 lists the laps of a car no tool recorded: an unknown car is a car", async () => {
  await withServer(async (url, app) => {
    const { ids } = await seed(app);
    const unknown = await testSession(app.kv, "Suzuka Circuit", 0);
    const [z1] = await storeLaps(app.kv, unknown, [95_000], {
      finished_at: "2026-11-24T10:06:00.000Z",
    });
    const res = await getJson(`${url}/api/laps?car=0`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((l: { id: number; car_id: number }) => [l.id, l.car_id]),
      [[z1.lap.id, 0]],
    );
    const suzuka = await getJson(`${url}/api/laps?track=Suzuka%20Circuit&car=1&order=time`);
    assert.deepEqual(suzuka.body.map((l: { id: number }) => l.id), [ids.s2, ids.s1]);
  }, { now: NOW });
});

Deno.test("GET /api/laps refuses a bad parameter, naming it and its rule", async () => {
  await withServer(async (url) => {
    const get = (q: string) => fetch(`${url}/api/laps?${q}`);
    await refused(
      get("track=%20%20"),
      "track",
      /^is blank: give 1 to 80 characters that are not all spaces$/,
    );
    await refused(
      get(`track=${"x".repeat(81)}`),
      "track",
      /^is too long: 81 characters, at most 80$/,
    );
    await refused(
      get("track=a%07b"),
      "track",
      /^holds a control character, U\+0007, at character 2: none is allowed$/,
    );
    await refused(get("car=-1"), "car", /whole number from 0 up/);
    await refused(get("car=abc"), "car", /whole number from 0 up/);
    await refused(get("car=1.5"), "car", /whole number from 0 up/);
    await refused(get("complete=yes"), "complete", /one of true, false/);
    await refused(get("order=fastest"), "order", /one of recent, time/);
    await refused(get("limit=0"), "limit", /from 1 to 1000/);
    await refused(get("limit=1001"), "limit", /from 1 to 1000/);
    await refused(get("limit=1.5"), "limit", /from 1 to 1000/);
    await refused(get("cars=1"), "cars", /not a parameter.*track, car, complete, order, limit/);
    await refused(fetch(`${url}/api/laps/bests?car=1`), "car", /not a parameter of this request$/);
  });
});

Deno.test("GET /api/laps?ids= answers the very rows the unfiltered list gives those laps, other filters on top", async () => {
  await withServer(async (url, app) => {
    const { suzuka, spa, ids } = await seed(app);
    const list = async (query: string) => {
      const r = await getJson(`${url}/api/laps?${query}`);
      assert.equal(r.status, 200, query);
      return r.body as { id: number; track: string; session_id: number }[];
    };
    /** The unfiltered list's rows (in its order) of laps `wanted`. */
    const unfiltered = async (wanted: number[], query = "") =>
      (await list(`limit=1000${query}`)).filter((l) => wanted.includes(l.id));
    const { s1, s2, p1, p2, u1 } = ids;
    // Laps of a named session and of an unnamed one: every field as the whole list has it.
    const named = await list(`ids=${u1},${s2}`);
    assert.equal(named.length, 2);
    assert.deepEqual(named, await unfiltered([u1, s2]));
    assert.deepEqual(named.map((l) => [l.id, l.track]), [[u1, ""], [s2, "Suzuka Circuit"]]);
    const five = [s1, s2, p1, p2, u1];
    assert.deepEqual(await list(`ids=${five.join(",")}`), await unfiltered(five));
    // The order is the list's, not the ids'.
    assert.deepEqual(
      await list(`ids=${five.join(",")}&order=time`),
      await unfiltered(five, "&order=time"),
    );
    // A filter: an unknown id is left out, so the answer may be shorter than the ids.
    assert.deepEqual(await list(`ids=${s1},999999`), await unfiltered([s1]));
    assert.deepEqual(await list("ids=999999,999998"), []);
    // The other filters, order and limit still apply.
    assert.deepEqual((await list(`ids=${s1},${p1},${p2}&car=2`)).map((l) => l.id), [p2, p1]);
    assert.deepEqual((await list(`ids=${s1},${p1},${p2}&complete=false`)).map((l) => l.id), [p2]);
    assert.deepEqual(
      (await list(`ids=${s1},${p2},${u1}&car=1&complete=true`)).map((l) => l.id),
      [u1, s1],
    );
    assert.deepEqual((await list(`ids=${s1},${p1}&track=SPA`)).map((l) => l.id), [p1]);
    assert.deepEqual((await list(`ids=${s1},${s2},${u1}&order=time&limit=2`)).map((l) => l.id), [
      u1,
      s2,
    ]);
    // A lap follows its session's name, as in the whole list.
    assert.equal(
      (await send(`${url}/api/sessions/${suzuka.id}`, "PATCH", { name: "Fuji" })).status,
      200,
    );
    const renamed = await list(`ids=${s1}`);
    assert.equal(renamed[0].track, "Fuji");
    assert.deepEqual(renamed, await unfiltered([s1]));
    // A session gone (the first step of a removal) takes its laps out, as from the whole list.
    await app.kv.delete(sessionKey(spa.id));
    assert.deepEqual((await list(`ids=${p1},${s1},${p2}`)).map((l) => l.id), [s1]);
    assert.deepEqual(await unfiltered([p1, p2]), []);
  }, { now: NOW });
});

Deno.test("GET /api/laps refuses a bad ids list, naming the id at fault and the rule", async () => {
  await withServer(async (url) => {
    const exactly = async (query: string, path: string, message: string, detail?: string) => {
      const r = await fetch(`${url}/api/laps?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.headers.get("content-type"), "application/problem+json");
      const problem = await r.json();
      assert.equal(problem.detail, detail ?? `${path} ${message}`, query);
      assert.deepEqual(problem.errors, [{ path, message }], query);
    };
    // A fault in one id is worded whole for a driver; its path stays `ids[i]` for tools.
    const oneId = (query: string, path: string, sentence: string) =>
      exactly(query, path, sentence, sentence);
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(",");
    await exactly(
      "ids=",
      "ids",
      "must list 1 to 100 distinct positive integer lap ids, comma-separated",
    );
    const empty = "lap id is empty: it must be a positive integer";
    await oneId("ids=1,,2", "ids[1]", `the 2nd ${empty}`);
    await oneId("ids=1,2,", "ids[2]", `the 3rd ${empty}`);
    await oneId("ids=,1", "ids[0]", `the 1st ${empty}`);
    await oneId("ids=1,x", "ids[1]", "the 2nd lap id (x) must be a positive integer");
    await oneId("ids=0", "ids[0]", "the 1st lap id (0) must be a positive integer");
    await oneId("ids=1.5", "ids[0]", "the 1st lap id (1.5) must be a positive integer");
    await oneId("ids=-3", "ids[0]", "the 1st lap id (-3) must be a positive integer");
    await oneId("ids=1%202", "ids[0]", 'the 1st lap id ("1 2") must be a positive integer');
    await oneId("ids=3,4,3", "ids[2]", "the 3rd lap id (3) repeats the 1st: list each lap once");
    await oneId(
      `ids=${upTo(11)},x`,
      "ids[11]",
      "the 12th lap id (x) must be a positive integer",
    );
    await exactly(`ids=${upTo(101)}`, "ids", "must list at most 100 ids, got 101");
    // A fault in ids is found with the others in order: the filters before it first.
    await exactly(
      "car=-1&ids=x",
      "car",
      "must be a whole number from 0 up (0: a car the recording tool did not name)",
    );
    // A hundred distinct ids are taken; none is stored here.
    const full = await fetch(`${url}/api/laps?ids=${upTo(100)}`);
    assert.equal(full.status, 200);
    assert.deepEqual(await full.json(), []);
  });
});

Deno.test("GET /api/laps/bests: fastest complete lap per circuit and car, gap and laps behind", async () => {
  await withServer(async (url, app) => {
    const { suzuka, spa, ids } = await seed(app);
    // Suzuka in a second car, 1.5 s off the circuit's best, with two laps behind it.
    const other = await testSession(app.kv, "Suzuka Circuit", 2);
    const [o1] = await storeLaps(app.kv, other, [89_500, 92_000, 93_000]);
    const bests = await getJson(`${url}/api/laps/bests`);
    assert.equal(bests.status, 200);
    assert.deepEqual(bests.body, [
      {
        track: "Spa",
        circuit: "spa",
        car_id: 2,
        car_name: "Car 2",
        lap_id: ids.p1,
        session_id: spa.id,
        time_ms: 120_000,
        gap_ms: 0,
        laps_behind: 0,
        sessions: 1,
      },
      {
        track: "Suzuka Circuit",
        circuit: "suzuka-circuit",
        car_id: 1,
        car_name: "Car 1",
        lap_id: ids.s2,
        session_id: suzuka.id,
        time_ms: 88_000,
        gap_ms: 0,
        laps_behind: 1,
        sessions: 1,
      },
      {
        track: "Suzuka Circuit",
        circuit: "suzuka-circuit",
        car_id: 2,
        car_name: "Car 2",
        lap_id: o1.lap.id,
        session_id: other.id,
        time_ms: 89_500,
        gap_ms: 1_500,
        laps_behind: 2,
        sessions: 1,
      },
    ]);
    // Excluding a session takes its laps out; the gap is to the best that remains.
    const excluded = await send(`${url}/api/sessions/${suzuka.id}`, "PATCH", {
      bests_excluded: true,
    });
    assert.equal(excluded.status, 200);
    assert.equal((excluded.body as { bests_excluded: boolean }).bests_excluded, true);
    const after = (await getJson(`${url}/api/laps/bests`)).body as {
      car_id: number;
      gap_ms: number;
    }[];
    assert.deepEqual(after.map((b) => [b.car_id, b.gap_ms]), [[2, 0], [2, 0]]);
    // Deleting the best lap moves the best to the next one.
    assert.equal((await send(`${url}/api/laps/${o1.lap.id}`, "DELETE")).status, 200);
    const last = (await getJson(`${url}/api/laps/bests`)).body as {
      time_ms: number;
      laps_behind: number;
    }[];
    assert.deepEqual(last.map((b) => [b.time_ms, b.laps_behind]), [[120_000, 0], [92_000, 1]]);
  }, { now: NOW });
});

Deno.test("PATCH /api/sessions/{id} sets notes and bests_excluded, and refuses precisely", async () => {
  await withServer(async (url, app) => {
    const s = await testSession(app.kv, "", 1);
    const patch = (body: unknown, id: number | string = s.id) =>
      send(`${url}/api/sessions/${id}`, "PATCH", body);
    const fresh = await getJson(`${url}/api/sessions/${s.id}`);
    assert.equal((fresh.body as { notes: string }).notes, "");
    assert.equal((fresh.body as { bests_excluded: boolean }).bests_excluded, false);
    const notes = "Tyres: RH\nWet from lap 3 🌧";
    const ok = await patch({ notes });
    assert.equal(ok.status, 200);
    assert.equal((ok.body as { notes: string }).notes, notes);
    assert.equal((ok.body as { track_name: string }).track_name, "");
    const all = await patch({ name: "Spa", notes: "", bests_excluded: true });
    assert.deepEqual(
      [all.body.track_name, all.body.track_source, all.body.notes, all.body.bests_excluded],
      ["Spa", "user", "", true],
    );
    assert.deepEqual((await getJson(`${url}/api/sessions/${s.id}`)).body, all.body);
    const longest = "é".repeat(1999) + "🏁";
    assert.equal((await patch({ notes: longest })).body.notes, longest);
    for (
      const [body, path, rule] of [
        [{ notes: longest + "x" }, "$.notes", /at most 2000 characters/],
        [{ notes: "a\tb" }, "$.notes", /no control characters but line feeds/],
        [{ notes: "a\r\nb" }, "$.notes", /no control characters/],
        [{ notes: 5 }, "$.notes", /must be a string/],
        [{ bests_excluded: "yes" }, "$.bests_excluded", /true or false/],
        [{ name: "  " }, "$.name", /^is blank: give 1 to 80 characters that are not all spaces$/],
        [{}, "$", /at least one of name, notes, bests_excluded/],
        [{ note: "x" }, "$.note", /not a field of a session change/],
        [[1], "$", /must be an object/],
      ] as const
    ) {
      const r = await patch(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path), [path]);
      assert.match(r.body.errors[0].message, rule);
    }
    // Each name refusal names the rule it broke, in detail and errors[] alike.
    const control = "holds a control character, U+0007, at character 2: none is allowed";
    for (
      const [name, rule] of [
        ["", "is blank: give 1 to 80 characters that are not all spaces"],
        ["   ", "is blank: give 1 to 80 characters that are not all spaces"],
        ["a\u0007b", control],
        ["x".repeat(81), "is too long: 81 characters, at most 80"],
      ]
    ) {
      const r = await patch({ name });
      assert.equal(r.status, 400, JSON.stringify(name));
      assert.equal(r.body.detail, `invalid session change: $.name: ${rule}`);
      assert.deepEqual(r.body.errors, [{ path: "$.name", message: rule }]);
    }
    // Nothing was written by a refusal.
    assert.equal((await getJson(`${url}/api/sessions/${s.id}`)).body.notes, longest);
    assert.equal((await getJson(`${url}/api/sessions/${s.id}`)).body.track_name, "Spa");
    assert.equal((await patch({ notes: "x" }, 999)).status, 404);
    assert.equal((await patch({ notes: "x" }, "x")).status, 400);
  });
});

Deno.test("DELETE /api/laps/{id} deletes the lap and updates its session; errors are problems", async () => {
  await withServer(async (url, app) => {
    const s = await testSession(app.kv, "Monza", 1);
    const [l1, l2] = await storeLaps(app.kv, s, [100_000, 99_000]);
    const res = await send(`${url}/api/laps/${l2.lap.id}`, "DELETE");
    assert.equal(res.status, 200);
    assert.equal(res.body.id, l2.lap.id);
    assert.equal(res.body.deleted, true);
    assert.equal(res.body.session.lap_count, 1);
    assert.equal(res.body.session.best_lap_time_ms, 100_000);
    assert.equal((await getJson(`${url}/api/laps/${l2.lap.id}`)).status, 404);
    const laps = (await getJson(`${url}/api/sessions/${s.id}/laps`)).body as { id: number }[];
    assert.deepEqual(laps.map((l) => l.id), [l1.lap.id]);
    const again = await send(`${url}/api/laps/${l2.lap.id}`, "DELETE");
    assert.equal(again.status, 404);
    assert.equal(again.type, "application/problem+json");
    assert.equal(again.body.detail, `lap ${l2.lap.id} not found`);
    assert.equal((await send(`${url}/api/laps/abc`, "DELETE")).status, 400);
  });
});

Deno.test("DELETE /api/sessions/{id} deletes the session and its laps, leaving no key behind", async () => {
  await withServer(async (url, app) => {
    const keep = await testSession(app.kv, "Monza", 1);
    await storeLaps(app.kv, keep, [100_000]);
    const before = await allKeys(app.kv);
    const gone = await testSession(app.kv, "Monza", 1);
    const laps = await storeLaps(app.kv, gone, [98_000, 97_000, 99_000]);
    const res = await send(`${url}/api/sessions/${gone.id}`, "DELETE");
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { id: gone.id, deleted: true, laps: 3 });
    assert.deepEqual(await allKeys(app.kv), before);
    assert.equal((await send(`${url}/api/sessions/${gone.id}`, "GET")).status, 404);
    for (const l of laps) {
      assert.equal((await send(`${url}/api/laps/${l.lap.id}`, "GET")).status, 404);
    }
    const bests = (await getJson(`${url}/api/laps/bests`)).body as { session_id: number }[];
    assert.deepEqual(bests.map((b) => b.session_id), [keep.id]);
    assert.equal((await send(`${url}/api/sessions/${gone.id}`, "DELETE")).status, 404);
    assert.equal((await send(`${url}/api/sessions/0`, "DELETE")).status, 400);
  });
});

Deno.test("the session being recorded, and its laps, cannot be deleted (409)", async () => {
  await withServer(async (url, app) => {
    const drive = new SyntheticDrive({ seed: 3, laps: 2 });
    const firstLapDone = drive.plan.crossingFrames[1];
    let index = 0;
    for (const frame of drive.frames()) {
      app.live.ingest(frame);
      if (index++ > firstLapDone + 10) break;
    }
    await app.live.flush();
    const live = app.live.session!;
    assert.equal(live.lap_count, 1);
    const [lap] = (await getJson(`${url}/api/sessions/${live.id}/laps`)).body as { id: number }[];
    const deleteSession = await send(`${url}/api/sessions/${live.id}`, "DELETE");
    assert.equal(deleteSession.status, 409);
    assert.equal(deleteSession.type, "application/problem+json");
    assert.match(deleteSession.body.detail, /being recorded/);
    const deleteLap = await send(`${url}/api/laps/${lap.id}`, "DELETE");
    assert.equal(deleteLap.status, 409);
    assert.match(deleteLap.body.detail, new RegExp(`session ${live.id}, which is being recorded`));
    assert.equal((await getJson(`${url}/api/sessions/${live.id}`)).body.lap_count, 1);
    // Notes and exclusion may change while it records; the live copy follows.
    const edited = await send(`${url}/api/sessions/${live.id}`, "PATCH", { notes: "warm-up" });
    assert.equal(edited.status, 200);
    assert.equal(app.live.session?.notes, "warm-up");
  });
});
