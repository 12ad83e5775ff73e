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
