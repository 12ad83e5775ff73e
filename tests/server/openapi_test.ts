import { strict as assert } from "node:assert";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { openApiDocument } from "../../src/server/openapi/document.ts";
import type { Operation } from "../../src/server/openapi/operation.ts";
import { problemSchema } from "../../src/server/openapi/problem_schema.ts";
import { sessionSchema } from "../../src/core/laps/session.ts";
import { SAMPLE_COLUMNS } from "../../src/core/laps/columns.ts";
import { liveFrameSchema } from "../../src/app/live/live_frame.ts";
import { broadBeanLaps } from "../core/analysis/_laps.ts";
import { syntheticBundle } from "../_bundles.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { noFixtures } from "../_fixtures.ts";
import { withServer } from "./_server.ts";
import { servedOperations } from "./_operations.ts";

type Json = Record<string, unknown>;
const NOW = new Date("2026-11-24T12:00:00Z");
/** What the HTTP app serves, listed as it was built; the document is made from it. */
const OPERATIONS = await servedOperations();

/** The served operation for `method` and OpenAPI `path`. */
function operation(method: string, path: string): Operation {
  const op = OPERATIONS.find((o) => o.method === method && o.path === path);
  assert.ok(op, `no operation ${method} ${path}`);
  return op;
}

/**
 * Calls the API and checks the answer against the served operations: a
 * success has the operation's status and parses with its response schema;
 * anything else must be a listed problem status with a Problem body.
 */
async function call(
  url: string,
  method: string,
  path: string,
  concrete: string,
  body?: unknown,
): Promise<{ status: number; body: Json & Json[] }> {
  const op = operation(method, path);
  const res = await fetch(url + concrete, {
    method: method.toUpperCase(),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  const type = res.headers.get("content-type") ?? "";
  if (res.status < 400) {
    assert.equal(res.status, op.ok.status ?? 200, `${method} ${concrete}`);
    assert.match(type, /^application\/json/);
    assert.ok(op.ok.schema, `${method} ${path} has a response schema`);
    const parsed = op.ok.schema.safeParse(json);
    assert.ok(parsed.success, `${method} ${concrete}: ${JSON.stringify(parsed.error?.issues)}`);
  } else {
    assert.equal(type, "application/problem+json");
    problemSchema.parse(json);
  }
  return { status: res.status, body: json };
}

/** The routes Hono has registered, as `METHOD /openapi/{path}`, without middleware. */
async function registeredRoutes(): Promise<string[]> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv });
    return createHttpApp(app).routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
  } finally {
    kv.close();
  }
}

function documentedRoutes(doc: Json): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of Object.keys(item)) out.push(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

Deno.test("every registered route is in the document, and the document names no other", async () => {
  const doc = openApiDocument(OPERATIONS);
  const registered = await registeredRoutes();
  const documented = documentedRoutes(doc);
  assert.ok(registered.length >= 45, `only ${registered.length} routes registered`);
  assert.deepEqual(registered.filter((r) => !documented.includes(r)), [], "undocumented routes");
  assert.deepEqual(documented.filter((r) => !registered.includes(r)), [], "routes not served");
  assert.equal(new Set(registered).size, registered.length);
});

Deno.test("every JSON operation under /api documents its success body", () => {
  const api = OPERATIONS.filter((op) => op.path.startsWith("/api/"));
  const json = api.filter((op) => (op.ok.type ?? "application/json") === "application/json");
  // The OpenAPI document's own body is described by the OpenAPI 3.1 specification.
  const undocumented = json.filter((op) => op.ok.schema === undefined).map((op) => op.path);
  assert.deepEqual(undocumented, ["/api/openapi.json"]);
  assert.equal(json.length, 44);
  // The other media types: streams, downloads, maps and the published JSON Schemas.
  assert.deepEqual(
    [...new Set(api.map((op) => op.ok.type ?? "application/json"))].sort(),
    [
      "application/json",
      "application/octet-stream",
      "application/schema+json",
      "application/xml",
      "image/svg+xml",
      "text/csv",
      "text/event-stream",
    ],
  );
});

Deno.test("the document is valid OpenAPI 3.1", async () => {
  const doc = openApiDocument(OPERATIONS);
  assert.equal(doc.openapi, "3.1.0");
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.deepEqual(result, { valid: true });
  assert.equal(validator.version, "3.1");
  // The validator is not a rubber stamp: a broken document is refused.
  const broken = structuredClone(doc) as Json;
  delete (broken.info as Json).version;
  assert.equal((await new Validator().validate(broken)).valid, false);
});

Deno.test("every error answer is problem+json of the one Problem schema; changes list 401 and 403", () => {
  const doc = openApiDocument(OPERATIONS);
  const components = (doc.components as Json).schemas as Json;
  assert.ok(components.Problem);
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      const responses = op.responses as Record<string, Json>;
      const statuses = Object.keys(responses).map(Number);
      for (const status of statuses.filter((s) => s >= 400)) {
        assert.deepEqual(responses[status].content, {
          "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } },
        }, `${method} ${path} ${status}`);
      }
      if (method !== "get") {
        assert.ok(statuses.includes(401) && statuses.includes(403), `${method} ${path}`);
      }
      if (op.parameters || op.requestBody) assert.ok(statuses.includes(400), `${method} ${path}`);
      // A body that does not arrive in time is answered 408 (src/server/body.ts).
      assert.equal(statuses.includes(408), op.requestBody !== undefined, `${method} ${path}`);
      if (String(path).includes("{")) assert.ok(statuses.includes(404), `${method} ${path}`);
    }
  }
  // Every $ref resolves.
  const text = JSON.stringify(doc);
  for (const [, id] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
    assert.ok(components[id], `dangling $ref ${id}`);
  }
});

Deno.test("request schemas are the ones validation uses: parameters carry their rules", () => {
  const doc = openApiDocument(OPERATIONS);
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const params = (path: string) =>
    Object.fromEntries(
      (paths[path].get.parameters as Json[]).map((p) => [p.name as string, p]),
    );
  const laps = params("/api/laps");
  assert.deepEqual(Object.keys(laps), ["track", "car", "complete", "order", "limit", "ids"]);
  assert.deepEqual(
    Object.values(laps).map((p) => p.required),
    [false, false, false, false, false, false],
  );
  assert.match(laps.ids.description as string, /^only these laps: 1 to 100 distinct positive/);
  assert.deepEqual((laps.order.schema as Json).enum, ["recent", "time"]);
  assert.equal((laps.limit.schema as Json).default, "100");
  assert.equal(laps.limit.description, "must be a whole number from 1 to 1000");
  const compare = params("/api/analysis/compare");
  assert.equal(compare.laps.required, true);
  assert.equal(compare.ref.required, false);
  // The channels are the engine's list (every sample channel but t and dist), one comma-separated value.
  assert.deepEqual(compare.channels.schema, {
    description: "sample channels, comma-separated; default speed,throttle,brake",
    type: "array",
    items: { type: "string", enum: SAMPLE_COLUMNS.filter((c) => c !== "t" && c !== "dist") },
  });
  assert.deepEqual([compare.channels.style, compare.channels.explode], ["form", false]);
  assert.equal((compare.channels.schema as { items: { enum: string[] } }).items.enum.length, 38);
  // Sectors and consistency: a circuit or a session (exactly one, each optional alone), a car.
  for (const path of ["/api/analysis/sectors", "/api/analysis/consistency"]) {
    const q = params(path);
    assert.deepEqual(Object.keys(q).slice(0, 3), ["track", "session", "car"], path);
    assert.deepEqual([q.track.required, q.session.required, q.car.required], [false, false, true]);
    assert.equal(
      q.session.description,
      "a session id: the laps of that session, named or not (exactly one of track and session)",
    );
    assert.equal((q.session.schema as Json).pattern, "^[1-9][0-9]{0,14}$");
  }
  assert.equal(params("/api/laps/{id}").id.in, "path");
  assert.equal(((params("/api/laps/{id}").id.schema) as Json).pattern, "^[1-9][0-9]{0,14}$");
  const patch = paths["/api/sessions/{id}"].patch.requestBody as Json;
  const schema = ((patch.content as Json)["application/json"] as Json).schema as Json;
  assert.deepEqual(Object.keys(schema.properties as Json), ["name", "notes", "bests_excluded"]);
  assert.equal(schema.additionalProperties, false);
});

Deno.test("GET /api/openapi.json serves the document", async () => {
  await withServer(async (url) => {
    const res = await fetch(`${url}/api/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await res.json(), JSON.parse(JSON.stringify(openApiDocument(OPERATIONS))));
  });
});

Deno.test("response schemas are strict: a field the document does not name fails", () => {
  const session = {
    id: 1,
    kind: "imported",
    started_at: "t",
    updated_at: "t",
    car_id: 1,
    car_name: "c",
    track_name: "",
    track_source: "",
    lap_count: 0,
    best_lap_time_ms: null,
  };
  assert.equal(sessionSchema.safeParse(session).success, true);
  assert.equal(sessionSchema.safeParse({ ...session, extra: 1 }).success, false);
  assert.equal(sessionSchema.safeParse({ ...session, lap_count: "0" }).success, false);
  assert.equal(liveFrameSchema.safeParse({}).success, false);
});

Deno.test({
  name: "answers of a server with data match the document's response schemas",
  ignore: noFixtures,
  async fn() {
    await withServer(async (url) => {
      await call(url, "get", "/api/health", "/api/health");
      await call(url, "get", "/api/status", "/api/status");
      // Laps: the four Broad Bean laps in a named session each, and a minimal lap unnamed.
      const lapIds: number[] = [];
      const sessionIds: number[] = [];
      for (const [k, l] of broadBeanLaps().entries()) {
        const file = {
          format: "sim-datalogger-lap",
          version: 2,
          lap: { number: k + 1, time_ms: l.time_ms, car_id: 1549, samples: l.samples },
        };
        const imported = await call(url, "post", "/api/laps/import", "/api/laps/import", file);
        assert.equal(imported.status, 201);
        lapIds.push((imported.body.lap as Json).id as number);
        const sid = (imported.body.session as Json).id as number;
        sessionIds.push(sid);
        const named = await call(url, "patch", "/api/sessions/{id}", `/api/sessions/${sid}`, {
          name: "Broad Bean Raceway",
          notes: "from the fixture",
        });
        assert.equal(named.status, 200);
      }
      const spare = await call(
        url,
        "post",
        "/api/laps/import",
        "/api/laps/import",
        minimalLapFile(60),
      );
      assert.equal(spare.status, 201);
      const [a, b] = lapIds;
      const [s] = sessionIds;
      assert.equal((await call(url, "get", "/api/sessions", "/api/sessions")).body.length, 5);
      await call(url, "get", "/api/sessions/{id}", `/api/sessions/${s}`);
      assert.equal(
        (await call(url, "get", "/api/sessions/{id}/laps", `/api/sessions/${s}/laps`)).body.length,
        1,
      );
      assert.equal((await call(url, "get", "/api/laps", "/api/laps?order=time")).body.length, 5);
      assert.equal((await call(url, "get", "/api/laps/bests", "/api/laps/bests")).body.length, 1);
      await call(url, "get", "/api/laps/{id}", `/api/laps/${a}`);
      await call(url, "get", "/api/laps/{id}/export.json", `/api/laps/${a}/export.json`);
      assert.equal(
        (await call(url, "get", "/api/laps/{id}/notes", `/api/laps/${a}/notes?ref=${b}`)).status,
        200,
      );
      const q = "track=Broad%20Bean%20Raceway&car=1549";
      await call(url, "get", "/api/analysis/compare", "/api/analysis/compare", undefined).then((
        r,
      ) => assert.equal(r.status, 400));
      const compared = await call(
        url,
        "get",
        "/api/analysis/compare",
        `/api/analysis/compare?laps=${a},${b}&step=5`,
      );
      assert.equal(compared.status, 200);
      assert.equal(
        (await call(url, "get", "/api/analysis/corners", `/api/analysis/corners?lap=${a}&ref=${b}`))
          .status,
        200,
      );
      assert.equal(
        (await call(url, "get", "/api/analysis/sectors", `/api/analysis/sectors?${q}`)).status,
        200,
      );
      assert.equal(
        (await call(url, "get", "/api/analysis/consistency", `/api/analysis/consistency?${q}&n=3`))
          .status,
        200,
      );
      // Tracks and identification.
      const made = await call(url, "post", "/api/tracks", "/api/tracks", {
        name: "Broad Bean Raceway",
        lap_id: b,
      });
      assert.equal(made.status, 201);
      const signature = (made.body.signature as Json).id as number;
      assert.ok((await call(url, "get", "/api/tracks", "/api/tracks")).body.length > 1);
      assert.equal(
        (await call(url, "get", "/api/laps/{id}/identify", `/api/laps/${a}/identify`)).status,
        200,
      );
      await call(url, "post", "/api/tracks/identify", "/api/tracks/identify");
      await call(url, "delete", "/api/tracks/{id}", `/api/tracks/${signature}`);
      // Bundles.
      const bundle = syntheticBundle({
        cells: 40,
        sources: ["a1b2c3d4e5f6"],
        runs: 2,
        seed: 7,
        track: "Test Ring",
      });
      assert.equal(
        (await call(url, "post", "/api/track-bundles/import", "/api/track-bundles/import", bundle))
          .status,
        200,
      );
      assert.equal(
        (await call(url, "get", "/api/track-bundles", "/api/track-bundles")).body.length,
        1,
      );
      const slug = "/api/track-bundles/test-ring";
      await call(url, "get", "/api/track-bundles/{slug}", slug);
      await call(url, "get", "/api/track-bundles/{slug}/compiled", `${slug}/compiled`);
      const corners = await call(
        url,
        "put",
        "/api/track-bundles/{slug}/corners",
        `${slug}/corners`,
        [
          { name: "One", direction: "L", apex: { x: 10, z: 0 } },
        ],
      );
      assert.equal(corners.status, 200);
      await call(url, "get", "/api/track-bundles/{slug}/corners", `${slug}/corners`);
      await call(url, "put", "/api/track-bundles/{slug}/sections", `${slug}/sections`, {
        sections: [{ name: "A", start: { x: 0, z: 0 }, end: { x: 5, z: 0 } }],
      });
      await call(url, "get", "/api/track-bundles/{slug}/sections", `${slug}/sections`);
      await call(
        url,
        "get",
        "/api/track-bundles/{slug}/official-suggestion",
        `${slug}/official-suggestion`,
      );
      await call(url, "put", "/api/track-bundles/{slug}/official", `${slug}/official`, {
        official: null,
      });
      const renamed = await call(url, "patch", "/api/track-bundles/{slug}", slug, {
        track: "Test Ring 2",
      });
      assert.equal(renamed.status, 200);
      await call(url, "delete", "/api/track-bundles/{slug}", "/api/track-bundles/test-ring-2");
      // Survey.
      await call(url, "get", "/api/survey", "/api/survey");
      assert.equal(
        (await call(url, "post", "/api/survey/start", "/api/survey/start", { track: "Test Ring" }))
          .status,
        200,
      );
      await call(url, "post", "/api/survey/mark", "/api/survey/mark", { side: "L" });
      await call(url, "post", "/api/survey/track", "/api/survey/track", { track: "Test Ring 3" });
      await call(url, "post", "/api/survey/stop", "/api/survey/stop");
      // The strategy answers from the live session: a plan, or a problem the document lists.
      await call(url, "get", "/api/strategy", "/api/strategy?race_laps=10");
      assert.equal((await call(url, "get", "/api/strategy", "/api/strategy")).status, 400);
      // Deletions and problems.
      assert.equal((await call(url, "delete", "/api/laps/{id}", `/api/laps/${a}`)).status, 200);
      assert.equal(
        (await call(url, "delete", "/api/sessions/{id}", `/api/sessions/${s}`)).status,
        200,
      );
      assert.equal((await call(url, "get", "/api/laps/{id}", `/api/laps/${a}`)).status, 404);
      assert.equal((await call(url, "get", "/api/laps", "/api/laps?limit=0")).status, 400);
      assert.equal((await call(url, "post", "/api/survey/stop", "/api/survey/stop")).status, 409);
    }, { now: NOW });
  },
});
