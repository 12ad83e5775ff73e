/**
 * Stored bundles and sessions that cannot be read back, planted straight
 * into the store: a listing answers the others and names the ones it left
 * out, and each one's own routes answer a problem document naming it,
 * never a bare 500.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { type Log, logLine } from "../../src/app/log.ts";
import { startHttp } from "../../src/server/http.ts";
import { bundleHeadKey } from "../../src/storage/bundles.ts";
import { sessionKey } from "../../src/storage/sessions.ts";
import { storeLaps, testSession } from "../_stored_laps.ts";
import { v4Doc } from "../core/bundle/arbitraries.ts";

const CTRL_AT = (n: number) =>
  `holds a control character, U+0001, at character ${n}: none is allowed`;

Deno.test("a listing skips unreadable bundles and names them; their own routes answer a problem", async () => {
  const kv = await Deno.openKv(":memory:");
  const reports: string[] = [];
  const log: Log = {
    warn: (message, err) => void reports.push(logLine(message, err)),
    error: (message, err) => void reports.push(logLine(message, err)),
  };
  const app = await createApp({ kv, log });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  const url = server.url;
  try {
    for (const track of ["Test Ring", "Ctrl Ring"]) {
      const res = await fetch(
        `${url}/api/track-bundles/import?track=${encodeURIComponent(track)}`,
        {
          method: "POST",
          body: JSON.stringify(v4Doc(2)),
        },
      );
      assert.equal(res.status, 200, track);
      await res.body?.cancel();
    }
    // As a release before the rule stored a `?track=` override: a control character in the head.
    const head = (await kv.get<Record<string, unknown>>(bundleHeadKey("ctrl-ring"))).value!;
    await kv.set(bundleHeadKey("ctrl-ring"), { ...head, track: "Ctrl\u0001Ring" });
    // A head whose chunks are gone, and a value that is no head at all.
    await kv.set(bundleHeadKey("ghost"), { ...head, slug: "ghost", generation: 999 });
    await kv.set(bundleHeadKey("junk"), "not a head");

    const list = await fetch(`${url}/api/track-bundles`);
    assert.equal(list.status, 200);
    assert.equal(list.headers.get("x-unreadable-bundles"), "ctrl-ring,ghost,junk");
    assert.deepEqual((await list.json()).map((b: { slug: string }) => b.slug), ["test-ring"]);

    const unreadable = async (path: string, detail: string) => {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 500, path);
      assert.equal(res.headers.get("content-type"), "application/problem+json", path);
      assert.deepEqual(await res.json(), {
        type: "https://sim-datalogger.dev/problems/stored-record-unreadable",
        title: "Stored record unreadable",
        status: 500,
        detail,
      }, path);
    };
    const ctrl = `stored bundle "ctrl-ring" is unreadable: its track name ${CTRL_AT(5)}`;
    await unreadable("/api/track-bundles/ctrl-ring", ctrl);
    await unreadable("/api/track-bundles/ctrl-ring/compiled", ctrl);
    await unreadable(
      "/api/track-bundles/junk",
      `stored bundle "junk" is unreadable: its head is not an object`,
    );
    const ghost = await fetch(`${url}/api/track-bundles/ghost`);
    assert.equal(ghost.status, 500);
    assert.match((await ghost.json()).detail, /^stored bundle "ghost" is unreadable: /);

    // The good one still reads whole.
    const good = await fetch(`${url}/api/track-bundles/test-ring`);
    assert.equal(good.status, 200);
    assert.equal((await good.json()).meta.track, "Test Ring");
    assert.deepEqual(reports.slice(0, 3), [
      `bundle "ctrl-ring" left out of the list: its track name ${CTRL_AT(5)}`,
      reports[1],
      `bundle "junk" left out of the list: its head is not an object`,
    ]);
    assert.match(
      reports[1],
      /^bundle "ghost" left out of the list: stored bundle "ghost" is unreadable: /,
    );
  } finally {
    await server.close();
    kv.close();
  }
});

Deno.test("session and lap listings skip unreadable sessions; the session's own route answers a problem", async () => {
  const kv = await Deno.openKv(":memory:");
  const reports: string[] = [];
  const log: Log = {
    warn: (message, err) => void reports.push(logLine(message, err)),
    error: (message, err) => void reports.push(logLine(message, err)),
  };
  const app = await createApp({ kv, log });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  const url = server.url;
  try {
    const good = await testSession(kv, "Good Ring", 1);
    const [goodLap] = await storeLaps(kv, good, [90_000]);
    const bad = await testSession(kv, "Bad Ring", 1);
    await storeLaps(kv, bad, [89_000]);
    const record = (await kv.get<Record<string, unknown>>(sessionKey(bad.id))).value!;
    await kv.set(sessionKey(bad.id), { ...record, track_name: "Bad\u0001Ring" });
    await kv.set(sessionKey(99), "not a session");

    const list = await fetch(`${url}/api/sessions`);
    assert.equal(list.status, 200);
    assert.equal(list.headers.get("x-unreadable-sessions"), `99,${bad.id}`);
    assert.deepEqual((await list.json()).map((s: { id: number }) => s.id), [good.id]);

    const one = await fetch(`${url}/api/sessions/${bad.id}`);
    assert.equal(one.status, 500);
    assert.deepEqual(await one.json(), {
      type: "https://sim-datalogger.dev/problems/stored-record-unreadable",
      title: "Stored record unreadable",
      status: 500,
      detail: `stored session ${bad.id} is unreadable: its track name ${CTRL_AT(4)}`,
    });
    assert.equal((await (await fetch(`${url}/api/sessions/98`)).json()).status, 404);

    const laps = await fetch(`${url}/api/laps`);
    assert.equal(laps.status, 200);
    assert.deepEqual((await laps.json()).map((l: { id: number }) => l.id), [goodLap.lap.id]);
    const bests = await fetch(`${url}/api/laps/bests`);
    assert.equal(bests.status, 200);
    assert.deepEqual(
      (await bests.json()).map((b: { track: string; lap_id: number }) => [b.track, b.lap_id]),
      [["Good Ring", goodLap.lap.id]],
    );
    assert.ok(
      reports.includes(
        `session 99 left out of the list: $: Invalid input: expected object, received string`,
      ),
    );
  } finally {
    await server.close();
    kv.close();
  }
});
