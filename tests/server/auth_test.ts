import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { authorize } from "../../src/server/auth.ts";
import { isLoopback } from "../../src/core/loopback.ts";
import { Unauthorized } from "../../src/server/problem.ts";

const remote = (hostname: string) => ({
  remoteAddr: { transport: "tcp" as const, hostname, port: 50000 },
});

Deno.test("loopback addresses are recognised, others are not", () => {
  for (const h of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"]) {
    assert.ok(isLoopback(h), h);
  }
  for (
    const h of [
      "192.168.1.5",
      "10.0.0.1",
      "::ffff:10.0.0.1",
      "0.0.0.0",
      "128.0.0.1",
      "fe80::1",
      "127.evil.test",
      "localhost.evil.test",
      "ps5.local",
    ]
  ) {
    assert.ok(!isLoopback(h), h);
  }
});

Deno.test("the policy: reads open, changes from loopback, others need the token", () => {
  authorize("GET", "192.168.1.5", null, null);
  authorize("POST", "127.0.0.1", null, null);
  assert.throws(
    () => authorize("POST", "192.168.1.5", null, null),
    (e: unknown) => e instanceof Unauthorized && e.status === 403,
  );
  assert.throws(
    () => authorize("DELETE", "192.168.1.5", null, "s3cret"),
    (e: unknown) => e instanceof Unauthorized && e.status === 401,
  );
  assert.throws(
    () => authorize("PATCH", "192.168.1.5", "Bearer wrong!", "s3cret"),
    (e: unknown) => e instanceof Unauthorized && e.status === 403,
  );
  authorize("PUT", "192.168.1.5", "Bearer s3cret", "s3cret");
});

Deno.test("the server applies the policy to the address it sees", async () => {
  using kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const body = JSON.stringify({ format: "nope" });
  const post = () => new Request("http://x/api/laps/import", { method: "POST", body });
  const open = createHttpApp(app);
  assert.equal((await open.fetch(post(), remote("192.168.1.5"))).status, 403);
  // From loopback the request reaches validation (and is refused there, with 400).
  assert.equal((await open.fetch(post(), remote("127.0.0.1"))).status, 400);
  assert.equal(
    (await open.fetch(new Request("http://x/api/sessions"), remote("192.168.1.5"))).status,
    200,
  );
  const guarded = createHttpApp(app, { token: "t0k3n" });
  assert.equal((await guarded.fetch(post(), remote("192.168.1.5"))).status, 401);
  const withToken = new Request("http://x/api/laps/import", {
    method: "POST",
    body,
    headers: { authorization: "Bearer t0k3n" },
  });
  assert.equal((await guarded.fetch(withToken, remote("192.168.1.5"))).status, 400);
  const res = await open.fetch(post(), remote("192.168.1.5"));
  assert.equal(res.headers.get("content-type"), "application/problem+json");
});

Deno.test("a change sent by a web page is refused unless its origin may change things", () => {
  const refused = (origin: string, allowed: string | null) =>
    assert.throws(
      () => authorize("POST", "127.0.0.1", null, null, origin, allowed),
      (e: unknown) =>
        e instanceof Unauthorized && e.status === 403 &&
        e.message.includes(`web page of origin ${origin} is refused`),
    );
  refused("http://evil.test", null);
  refused("http://evil.test", "http://localhost:3000");
  refused("null", null);
  // With a token from elsewhere too: a page cannot be let in by the address it reaches.
  assert.throws(
    () => authorize("DELETE", "192.168.1.5", "Bearer s3cret", "s3cret", "http://evil.test", null),
    (e: unknown) => e instanceof Unauthorized && e.status === 403,
  );
  authorize("POST", "127.0.0.1", null, null, "http://localhost:3000", "http://localhost:3000");
  authorize("POST", "127.0.0.1", null, null, null, null);
  // Reads stay open to any page; CORS decides whether it may see the answer.
  authorize("GET", "127.0.0.1", null, null, "http://evil.test", null);
});
