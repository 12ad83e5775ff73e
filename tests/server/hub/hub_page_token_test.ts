/**
 * The hub's pages in a browser: a page opened with `?token=` keeps the
 * token in an HttpOnly, SameSite=Strict cookie, and the pages' API reads
 * then need no header; the cookie never stands in for a write.
 */
import { strict as assert } from "node:assert";
import { freshPglite, suzukaLapFile, testHub } from "../../_hub.ts";
import { minimalLapFile } from "../../_lap_files.ts";

Deno.test("a page opened with ?token= sets the cookie the page's reads use; writes still need the header", async () => {
  const db = await freshPglite();
  try {
    const hub = await testHub(db);
    const alice = await hub.driver("alice");
    assert.equal((await hub.call("GET", `/laps?token=nope`)).status, 401);

    const page = await hub.http.request(`http://hub/laps?token=${alice}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    const cookie = page.headers.get("set-cookie") ?? "";
    assert.match(
      cookie,
      new RegExp(`^hub_token=${alice}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict$`),
    );
    const jar = cookie.split(";")[0];

    const read = await hub.http.request("http://hub/api/me", { headers: { cookie: jar } });
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), { name: "alice", admin: false });

    const write = await hub.http.request("http://hub/api/laps", {
      method: "POST",
      headers: { cookie: jar },
      body: JSON.stringify(minimalLapFile(60)),
    });
    assert.equal(write.status, 401);
    await write.body?.cancel();
    assert.equal((await hub.call("GET", "/api/laps")).status, 401);
  } finally {
    await db.close();
  }
});

Deno.test("the hub serves the analysis API over its own laps: two drivers' laps compared", async () => {
  const db = await freshPglite();
  try {
    const hub = await testHub(db);
    const lap = await suzukaLapFile();
    const ids: number[] = [];
    for (const name of ["alice", "bob"]) {
      const pushed = await hub.call("POST", "/api/laps", {
        token: await hub.driver(name),
        body: lap,
      });
      assert.equal(pushed.status, 201);
      ids.push(Number(pushed.body.id));
    }
    const token = await hub.driver("carol");
    const cmp = await hub.call("GET", `/api/analysis/compare?laps=${ids.join(",")}&step=5`, {
      token,
    });
    assert.equal(cmp.status, 200);
    const laps = cmp.body.laps as { id: number }[];
    assert.deepEqual(laps.map((l) => l.id), ids);
    assert.equal((await hub.call("GET", `/api/analysis/compare?laps=${ids[0]}`)).status, 401);
  } finally {
    await db.close();
  }
});
