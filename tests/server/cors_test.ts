import { strict as assert } from "node:assert";
import { canonicalOrigin } from "../../src/server/cors_origin.ts";
import { withServer as serve } from "./_server.ts";

function withServer(cors: string | null, fn: (url: string) => Promise<void>): Promise<void> {
  return serve((url) => fn(url), { http: { cors } });
}

const ORIGIN = "http://localhost:3000";

Deno.test("no CORS headers are sent unless an origin is configured", async () => {
  await withServer(null, async (url) => {
    const get = await fetch(`${url}/api/sessions`, { headers: { origin: ORIGIN } });
    await get.body?.cancel();
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("access-control-allow-origin"), null);
    const preflight = await fetch(`${url}/api/track-bundles/import`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST" },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.headers.get("access-control-allow-origin"), null);
    assert.equal(preflight.headers.get("access-control-allow-methods"), null);
  });
});

Deno.test("--cors allows exactly the configured origin", async () => {
  await withServer(ORIGIN, async (url) => {
    const get = await fetch(`${url}/api/sessions`, { headers: { origin: ORIGIN } });
    await get.body?.cancel();
    assert.equal(get.headers.get("access-control-allow-origin"), ORIGIN);
    assert.equal(get.headers.get("vary"), "Origin");

    const preflight = await fetch(`${url}/api/track-bundles/import`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
      },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), ORIGIN);
    assert.equal(
      preflight.headers.get("access-control-allow-methods"),
      "GET,HEAD,POST,PUT,PATCH,DELETE",
    );
    assert.equal(
      preflight.headers.get("access-control-allow-headers"),
      "authorization,content-type",
    );
    assert.equal(preflight.headers.get("access-control-max-age"), "600");

    const other = await fetch(`${url}/api/sessions`, { headers: { origin: "http://evil.test" } });
    await other.body?.cancel();
    assert.equal(other.headers.get("access-control-allow-origin"), null);
  });
});

Deno.test("canonicalOrigin accepts one serialised http(s) origin and nothing else", () => {
  for (
    const ok of ["http://localhost:3000", "https://example.org", "http://127.0.0.1:8080", "null"]
  ) {
    assert.equal(canonicalOrigin(ok), ok);
  }
  for (
    const bad of [
      "*",
      "",
      "localhost:3000",
      "http://localhost:3000/",
      "http://localhost:3000/app",
      "http://user:pw@localhost",
      "HTTP://LOCALHOST",
      "ftp://example.org",
      "http://localhost:3000?x=1",
      "Null",
    ]
  ) {
    assert.equal(canonicalOrigin(bad), null, bad);
  }
});

Deno.test("--cors null lets a page opened from a file read, and never change", async () => {
  await withServer("null", async (url) => {
    const live = await fetch(`${url}/api/strategy?race_laps=10`, { headers: { origin: "null" } });
    await live.body?.cancel();
    assert.equal(live.headers.get("access-control-allow-origin"), "null");

    // A change gets no CORS headers, so the page cannot read its answer...
    const change = await fetch(`${url}/api/strategy`, {
      method: "POST",
      headers: { origin: "null", "content-type": "application/json" },
      body: "{}",
    });
    await change.body?.cancel();
    assert.equal(change.headers.get("access-control-allow-origin"), null);
    // ...and a preflight offers it nothing but reads, so the browser never sends one.
    const preflight = await fetch(`${url}/api/strategy`, {
      method: "OPTIONS",
      headers: {
        origin: "null",
        "access-control-request-method": "DELETE",
      },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.headers.get("access-control-allow-methods"), "GET,HEAD");

    // Any sandboxed page has the origin null too: it reads the live data, not the driver's laps.
    const laps = await fetch(`${url}/api/sessions`, { headers: { origin: "null" } });
    await laps.body?.cancel();
    assert.equal(laps.headers.get("access-control-allow-origin"), null);

    const other = await fetch(`${url}/api/strategy?race_laps=10`, {
      headers: { origin: "http://evil.test" },
    });
    await other.body?.cancel();
    assert.equal(other.headers.get("access-control-allow-origin"), null);
  });
});

Deno.test("a page of another origin cannot change anything, even with a body that needs no preflight", async () => {
  await withServer(ORIGIN, async (url) => {
    const bundle = JSON.stringify({
      format: "sim-datalogger-track-bundle",
      version: 4,
      meta: { track: "Csrf Ring", runs: 1, source_runs: { a1b2c3d4e5f6: 1 }, updated_at: "" },
      edges: [{ x: 1, z: 2, side: "L", votes: { auto: { a1b2c3d4e5f6: [1, 1] } } }],
    });
    const post = (origin: string | null) =>
      fetch(`${url}/api/track-bundles/import`, {
        method: "POST",
        // text/plain is what a form or a no-preflight fetch sends.
        headers: origin === null
          ? { "content-type": "text/plain" }
          : { origin, "content-type": "text/plain" },
        body: bundle,
      });
    for (const origin of ["http://evil.test", "null"]) {
      const res = await post(origin);
      assert.equal(res.status, 403);
      const problem = await res.json();
      assert.match(problem.detail, new RegExp(`origin ${origin} is refused`));
    }
    const list = async () => await (await fetch(`${url}/api/track-bundles`)).json();
    assert.deepEqual(await list(), []);
    // The origin --cors names may, and so may a client that is not a browser page.
    const allowed = await post(ORIGIN);
    await allowed.body?.cancel();
    assert.equal(allowed.status, 200);
    const script = await post(null);
    await script.body?.cancel();
    assert.equal(script.status, 200);
    assert.equal((await list()).length, 1);
  });
});

Deno.test("with no --cors, or --cors null, no web page may change anything", async () => {
  for (const cors of [null, "null"]) {
    await withServer(cors, async (url) => {
      const res = await fetch(`${url}/api/survey/discard`, {
        method: "POST",
        headers: { origin: cors ?? "http://localhost:3000" },
      });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    });
  }
});
