/**
 * What the API answers to a request it cannot serve as asked: a known path
 * with another method (405 with `Allow`), a parameter given twice (400
 * naming it), a body on a command that takes none (400), and what GET /
 * points at.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { withServer } from "./_server.ts";

interface Answer {
  status: number;
  type: string | null;
  allow: string | null;
  body: Record<string, unknown> | null;
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  const type = res.headers.get("content-type");
  return {
    status: res.status,
    type,
    allow: res.headers.get("allow"),
    body: type === "application/problem+json" ? JSON.parse(text) : null,
  };
}

Deno.test("a known path asked with a method it does not serve is 405 with Allow", async () => {
  await withServer(async (url) => {
    const cases: [string, string, string][] = [
      ["PUT", "/api/laps/1", "DELETE, GET, HEAD"],
      ["OPTIONS", "/api/sessions", "GET, HEAD"],
      ["POST", "/api/sessions", "GET, HEAD"],
      ["DELETE", "/api/laps", "GET, HEAD"],
      ["GET", "/api/tracks/identify", "DELETE, POST"],
      ["PATCH", "/api/track-bundles/x/corners", "GET, HEAD, PUT"],
      ["POST", "/", "GET, HEAD"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await ask(url + path, { method });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.allow, allow, `${method} ${path}`);
      assert.equal(res.type, "application/problem+json");
      assert.deepEqual(res.body, {
        type: "https://sim-datalogger.dev/problems/method-not-allowed",
        title: "Method not allowed",
        status: 405,
        detail: `${path} does not serve ${method}; it serves ${allow}`,
      });
    }
    // A path nothing serves stays 404, whatever the method.
    for (const method of ["GET", "PUT", "OPTIONS"]) {
      const res = await ask(`${url}/api/nothing`, { method });
      assert.equal(res.status, 404, method);
      assert.equal(res.allow, null);
      assert.equal(res.body?.detail, `no route for ${method} /api/nothing`);
    }
  });
});

Deno.test("with --cors a preflight is still answered, and a plain OPTIONS elsewhere is 405", async () => {
  const origin = "http://localhost:3000";
  await withServer(async (url) => {
    const preflight = await fetch(`${url}/api/sessions`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "GET" },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), origin);
    const root = await ask(`${url}/`, { method: "OPTIONS", headers: { origin } });
    assert.equal(root.status, 405);
    assert.equal(root.allow, "GET, HEAD");
  }, { http: { cors: origin } });
});

Deno.test("every registered path answers 405 with Allow for a method it lacks", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const http = createHttpApp(await createApp({ kv }));
    const byPath = new Map<string, Set<string>>();
    for (const r of http.routes.filter((r) => r.method !== "ALL")) {
      const path = r.path.replace(/:[a-z_]+/g, "1");
      (byPath.get(path) ?? byPath.set(path, new Set()).get(path)!).add(r.method);
    }
    assert.ok(byPath.size >= 40, `${byPath.size} paths`);
    for (const [path, methods] of byPath) {
      if (methods.has("GET")) methods.add("HEAD");
      // The routes of /api/laps/{id} serve /api/laps/bests and /api/laps/import as well.
      const lacking = ["GET", "POST", "PUT", "PATCH", "DELETE"].find((m) =>
        ![...byPath].some(([p, ms]) =>
          ms.has(m) && new RegExp(`^${p.replace(/1/g, "[^/]+")}$`).test(path)
        )
      );
      if (lacking === undefined) continue;
      const res = await http.request(path, { method: lacking });
      assert.equal(res.status, 405, `${lacking} ${path}`);
      const allow = res.headers.get("allow")!.split(", ");
      for (const m of methods) assert.ok(allow.includes(m), `${path}: ${allow} lacks ${m}`);
      assert.ok(!allow.includes(lacking));
      await res.body?.cancel();
    }
  } finally {
    kv.close();
  }
});

Deno.test("a query parameter given twice is refused with a 400 naming it", async () => {
  await withServer(async (url) => {
    for (
      const [path, name] of [
        ["/api/laps?limit=1&limit=50", "limit"],
        ["/api/laps?order=time&limit=5&order=recent", "order"],
        ["/api/analysis/compare?laps=1&laps=2", "laps"],
        ["/api/sessions?x=1&x=1", "x"],
      ]
    ) {
      const res = await ask(url + path);
      assert.equal(res.status, 400, path);
      assert.equal(res.type, "application/problem+json");
      assert.equal(res.body?.detail, `${name} is given more than once; give it once`);
      assert.deepEqual(res.body?.errors, [{
        path: name,
        message: "is given more than once; give it once",
      }]);
    }
    assert.equal((await ask(`${url}/api/laps?limit=1&order=time`)).status, 200);
  });
});

Deno.test("POST /api/tracks/identify takes no body, an empty one or {}, and refuses any other", async () => {
  await withServer(async (url) => {
    const identify = (body?: string) => ask(`${url}/api/tracks/identify`, { method: "POST", body });
    for (const body of [undefined, "", "{}", " { } "]) {
      const res = await identify(body);
      assert.equal(res.status, 200, JSON.stringify(body));
    }
    const bad = await identify("{bad");
    assert.equal(bad.status, 400);
    assert.equal(bad.type, "application/problem+json");
    assert.match(String(bad.body?.detail), /^body is not valid JSON: /);
    const field = await identify('{"force":true,"all":1}');
    assert.equal(field.status, 400);
    assert.equal(field.body?.detail, "force is not a field of this request: it takes none");
    assert.deepEqual(field.body?.errors, [
      { path: "$.force", message: "is not a field of this request" },
      { path: "$.all", message: "is not a field of this request" },
    ]);
    for (const body of ["[]", "null", "1"]) {
      const res = await identify(body);
      assert.equal(res.status, 400, body);
      assert.deepEqual(res.body?.errors, [{ path: "$", message: "must be empty or {}" }]);
    }
    assert.equal((await identify(" ".repeat(5000))).status, 413);
  });
});
