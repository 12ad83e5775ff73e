/**
 * The hub on a real PostgreSQL 15 server (tests/_postgres.ts): two hubs
 * migrating one new database at once both start and apply each version
 * once; the same queries as on PGlite answer alike (push, repeat, list,
 * leaderboard, bundle votes, refusals writing nothing, revocation).
 */
import { strict as assert } from "node:assert";
import { noPostgres, startPostgres, type TestPostgres } from "../../_postgres.ts";
import { ADMIN_TOKEN, testHub } from "../../_hub.ts";
import { minimalLapFile } from "../../_lap_files.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { openHubStore } from "../../../src/storage/hub/open_store.ts";
import { openPostgres } from "../../../src/storage/hub/postgres_port.ts";
import type { SqlPort } from "../../../src/storage/hub/sql_port.ts";

const ignore = noPostgres();
let server: TestPostgres | null = null;
const ports: SqlPort[] = [];

/** A new empty database on the server, named `name`, and its URL. */
async function newDatabase(name: string): Promise<string> {
  server ??= await startPostgres();
  const admin = openPostgres(server.url);
  try {
    await admin.exec(`drop database if exists ${name}`);
    await admin.exec(`create database ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.toString();
}

Deno.test({
  name: "two hubs migrating one new database at once both start; each version applies once",
  ignore,
  async fn() {
    const url = await newDatabase("hub_race");
    const [a, b] = await Promise.all([
      openHubStore({ database: url, dataDir: null }),
      openHubStore({ database: url, dataDir: null }),
    ]);
    ports.push(a, b);
    const versions = await a.query("select version from hub_schema_versions order by version");
    assert.deepEqual(versions.map((r) => Number(r.version)), [1, 2, 3]);
    // Both made the team at once: one admin, and only one of them got a token to print.
    const { HubApp } = await import("../../../src/app/hub/hub_app.ts");
    const made = await Promise.all([
      new HubApp({ db: a }).ensureTeam(null),
      new HubApp({ db: b }).ensureTeam(null),
    ]);
    assert.equal(made.filter((t) => t !== null).length, 1);
  },
});

Deno.test({
  name: "on PostgreSQL a push is stored once, listed, ranked; refusals write nothing",
  ignore,
  async fn() {
    const db = await openHubStore({ database: await newDatabase("hub_http"), dataDir: null });
    ports.push(db);
    const hub = await testHub(db);
    const alice = await hub.driver("alice");
    const bob = await hub.driver("bob");
    const lap = (time: number) =>
      minimalLapFile(60, { time_ms: time, track_name: "Ring", car_id: 7 });
    const first = await hub.call("POST", "/api/laps", { token: alice, body: lap(1000) });
    assert.equal(first.status, 201);
    const again = await hub.call("POST", "/api/laps", { token: alice, body: lap(1000) });
    assert.deepEqual([again.status, again.body], [200, { ...first.body, created: false }]);
    assert.equal(
      (await hub.call("POST", "/api/laps", { token: bob, body: lap(1001) })).status,
      201,
    );
    assert.equal(
      (await hub.call("POST", "/api/laps", { token: ADMIN_TOKEN, body: lap(999) })).status,
      403,
    );
    assert.equal((await hub.call("POST", "/api/laps", { token: bob, body: "{" })).status, 400);
    const listed = await hub.call("GET", "/api/laps?circuit=ring", { token: bob });
    assert.deepEqual((listed.body.laps as { driver: string }[]).map((l) => l.driver), [
      "bob",
      "alice",
    ]);
    const board = await hub.call("GET", "/api/leaderboard?circuit=ring", { token: bob });
    assert.equal(board.status, 200, JSON.stringify(board.body));
    assert.deepEqual(
      (board.body.rows as { driver: string; gap_ms: number }[]).map((r) => [r.driver, r.gap_ms]),
      [["alice", 0], ["bob", 1]],
    );
    // Alice's lap deleted, her line goes; bob's ranks first.
    assert.equal(
      (await hub.call("DELETE", `/api/laps/${first.body.id}`, { token: alice })).status,
      200,
    );
    const after = await hub.call("GET", "/api/leaderboard?circuit=ring&car=7", { token: bob });
    assert.deepEqual(
      (after.body.rows as { driver: string; laps: number }[]).map((r) => [r.driver, r.laps]),
      [["bob", 1]],
    );
    const bundle = syntheticBundle({
      cells: 20,
      sources: ["abcdef"],
      runs: 2,
      seed: 3,
      track: "Ring",
    });
    const votes = await hub.call("POST", "/api/bundles/ring/votes", { token: alice, body: bundle });
    assert.deepEqual([votes.status, votes.body.generation, votes.body.edges], [200, 1, 20]);
    const repeat = await hub.call("POST", "/api/bundles/ring/votes", { token: bob, body: bundle });
    assert.deepEqual([repeat.body.generation, repeat.body.changed], [1, false]);
    const back = await hub.call("GET", "/api/bundles/ring", { token: bob });
    assert.equal((back.body.edges as unknown[]).length, 20);
    await hub.call("DELETE", "/api/drivers/bob", { token: ADMIN_TOKEN });
    assert.equal((await hub.call("GET", "/api/me", { token: bob })).status, 401);
    const [count] = await db.query("select count(*)::int as n from hub_laps");
    assert.equal(Number(count.n), 1);
  },
});

Deno.test({
  name: "stopping the test server",
  ignore,
  async fn() {
    for (const p of ports) await p.close();
    await server?.stop();
  },
});
