/**
 * The OpenAPI document and the server agree (issue 26, must show): a walk
 * of the whole document, as the server publishes it at /api/openapi.json,
 * against a running server (Deno.serve on an ephemeral loopback port over an
 * in-memory store holding a lap, a named session and a bundle).
 *
 * For every API operation: each documented query parameter is accepted, an
 * undocumented one is refused with a 400 naming it; each documented field
 * of a JSON request body is validated by the route (a wrong type is a 400
 * naming the field); and every answer received is one the document lists,
 * its body valid by the operation's response schema (the zod schema the
 * document was generated from) or the Problem schema.
 *
 * The page files (/, /laps, /compare and their assets) are not under /api:
 * their scripts read their own query (`/compare?laps=...`), so the server
 * passes any query to them; they are checked for their documented type only.
 */
import { strict as assert } from "node:assert";
import type { Operation } from "../../src/server/openapi/operation.ts";
import { problemSchema } from "../../src/server/openapi/problem_schema.ts";
import { syntheticBundle } from "../_bundles.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { withServer } from "./_server.ts";
import { servedOperations } from "./_operations.ts";

type Json = Record<string, unknown>;

/** What the HTTP app serves, listed as it was built; the document is made from it. */
const OPERATIONS = await servedOperations();

/** A parameter name no operation documents. */
const UNDOCUMENTED = "zz_undocumented";

/** The stored things the walk names in paths and queries. */
interface Fixture {
  lap: number;
  session: number;
  car: number;
  slug: string;
}

/** An example value of each documented query parameter, by name. */
function example(name: string, f: Fixture): string {
  const values: Record<string, string> = {
    laps: String(f.lap),
    ids: String(f.lap),
    lap: String(f.lap),
    ref: String(f.lap),
    track: "Test Ring",
    car: String(f.car > 0 ? f.car : 1549),
    n: "2",
    step: "5",
    channels: "speed",
    complete: "true",
    order: "time",
    limit: "10",
    driver: "Ayrton",
    hz: "10",
    speak: "0",
    race_laps: "10",
    race_minutes: "30",
    session: String(f.session),
  };
  const value = values[name];
  assert.ok(value !== undefined, `no example value for query parameter ${name}`);
  return value;
}

/** `path` with its `{id}` and `{slug}` filled from `f`. */
function concrete(op: Operation, f: Fixture): string {
  const id = op.path.startsWith("/api/sessions/") ? f.session : f.lap;
  return op.path.replace("{id}", String(id)).replace("{slug}", f.slug);
}

/** The document's Operation Object of `op`. */
function documented(doc: Json, op: Operation): Json {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const found = paths[op.path]?.[op.method];
  assert.ok(found, `${op.method} ${op.path} is in the document`);
  return found;
}

/** The documented query parameters of an Operation Object: name and whether required. */
function queryParams(object: Json): { name: string; required: boolean }[] {
  return ((object.parameters ?? []) as Json[]).filter((p) => p.in === "query").map((p) => ({
    name: p.name as string,
    required: p.required === true,
  }));
}

/**
 * Sends `method url` and checks the answer against the document: its status
 * is one the operation lists; a JSON success parses with the operation's
 * response schema, a problem with the Problem schema. Streams are cancelled.
 */
async function send(
  doc: Json,
  op: Operation,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: Json | null }> {
  const res = await fetch(url, {
    method: op.method.toUpperCase(),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const responses = documented(doc, op).responses as Json;
  const where = `${op.method.toUpperCase()} ${url}`;
  assert.ok(String(res.status) in responses, `${where}: ${res.status} is documented`);
  const type = res.headers.get("content-type") ?? "";
  if (res.status >= 400) {
    assert.equal(type, "application/problem+json", where);
    const json = await res.json();
    problemSchema.parse(json);
    return { status: res.status, json };
  }
  if (op.ok.schema && type.startsWith("application/json")) {
    const json = await res.json();
    const parsed = op.ok.schema.safeParse(json);
    assert.ok(parsed.success, `${where}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`);
    return { status: res.status, json };
  }
  assert.ok(type.startsWith(op.ok.type ?? "application/json"), `${where}: ${type}`);
  await res.body?.cancel();
  return { status: res.status, json: null };
}

/** The paths of a problem's `errors`. */
function errorPaths(json: Json | null): string[] {
  return ((json?.errors ?? []) as { path: string }[]).map((e) => e.path);
}

/** A value of the wrong type for a property of JSON Schema `schema`. */
function wrongValue(schema: Json): unknown {
  const types = [schema.type, ...((schema.anyOf ?? []) as Json[]).map((s) => s.type)].flat();
  return types.includes("string") ? 12345 : "not-this-type";
}

/** The properties of a request body's JSON Schema (of its object branch, for a union). */
function bodyProperties(doc: Json, schema: Json): Record<string, Json> {
  const resolve = (s: Json): Json => {
    const ref = s.$ref as string | undefined;
    if (!ref) return s;
    const name = ref.slice("#/components/schemas/".length);
    return ((doc.components as Json).schemas as Record<string, Json>)[name];
  };
  const root = resolve(schema);
  if (root.properties) return root.properties as Record<string, Json>;
  const branch = ((root.anyOf ?? root.oneOf ?? []) as Json[]).map(resolve).find((s) =>
    s.properties
  );
  return (branch?.properties ?? {}) as Record<string, Json>;
}

/**
 * A valid body of the operations whose reader checks a document's kind
 * before its fields (a lap file's format and version, a bundle's version),
 * so one wrong field is all that is wrong.
 */
function validBody(op: Operation): Json {
  if (op.path === "/api/laps/import") return minimalLapFile(60) as Json;
  if (op.path === "/api/track-bundles/import") return testBundle();
  return {};
}

/** The bundle the walk stores. */
function testBundle(): Json {
  return syntheticBundle({
    cells: 40,
    sources: ["a1b2c3d4e5f6"],
    runs: 2,
    seed: 7,
    track: "Test Ring",
  });
}

/** Stores a lap in a session named Test Ring, and a bundle; answers their names. */
async function seed(url: string): Promise<Fixture> {
  const imported = await fetch(`${url}/api/laps/import`, {
    method: "POST",
    body: JSON.stringify(minimalLapFile(60)),
  });
  assert.equal(imported.status, 201);
  const result = await imported.json();
  const session = result.session.id as number;
  const named = await fetch(`${url}/api/sessions/${session}`, {
    method: "PATCH",
    body: JSON.stringify({ name: "Test Ring" }),
  });
  assert.equal(named.status, 200);
  await named.body?.cancel();
  const bundle = testBundle();
  const stored = await fetch(`${url}/api/track-bundles/import`, {
    method: "POST",
    body: JSON.stringify(bundle),
  });
  assert.equal(stored.status, 200);
  await stored.body?.cancel();
  return { lap: result.lap.id, session, car: result.lap.car_id, slug: "test-ring" };
}

Deno.test("every operation of the document: its query, its body fields and its answers hold on a running server", async () => {
  await withServer(async (url) => {
    const doc = await (await fetch(`${url}/api/openapi.json`)).json() as Json;
    const f = await seed(url);
    const api = OPERATIONS.filter((op) => op.path.startsWith("/api/"));
    let checkedParams = 0;
    let checkedFields = 0;
    for (const op of api) {
      const object = documented(doc, op);
      const path = url + concrete(op, f);
      const params = queryParams(object);
      const required = params.filter((p) => p.required).map((p) => p.name);
      const base = new URLSearchParams(required.map((n) => [n, example(n, f)]));
      // An undocumented parameter: refused, by name, before anything is done.
      const withUnknown = new URLSearchParams(base);
      withUnknown.set(UNDOCUMENTED, "1");
      const refused = await send(doc, op, `${path}?${withUnknown}`);
      assert.equal(refused.status, 400, `${op.method} ${op.path}?${UNDOCUMENTED}`);
      assert.deepEqual(errorPaths(refused.json), [UNDOCUMENTED], `${op.method} ${op.path}`);
      // Each documented parameter: accepted (reads only; a change is not made twice).
      if (op.method === "get") {
        for (const p of params) {
          const query = new URLSearchParams(base);
          query.set(p.name, example(p.name, f));
          const answer = await send(doc, op, `${path}?${query}`);
          assert.ok(
            !errorPaths(answer.json).includes(p.name),
            `${op.path}: ${p.name} accepted (${JSON.stringify(answer.json)})`,
          );
          checkedParams++;
        }
        if (params.length === 0) await send(doc, op, path);
      }
      // Each documented body field: a wrong type is refused, naming the field.
      const content = (object.requestBody as Json | undefined)?.content as Json | undefined;
      const schema = (content?.["application/json"] as Json | undefined)?.schema as
        | Json
        | undefined;
      if (!schema) continue;
      const fields = bodyProperties(doc, schema);
      for (const [name, property] of Object.entries(fields)) {
        const body = { ...validBody(op), [name]: wrongValue(property) };
        const answer = await send(doc, op, path, body);
        assert.equal(answer.status, 400, `${op.method} ${op.path} body.${name}`);
        const paths = errorPaths(answer.json);
        assert.ok(
          paths.some((p) => p === `$.${name}` || p.startsWith(`$.${name}.`)),
          `${op.method} ${op.path}: a wrong ${name} is named (${JSON.stringify(answer.json)})`,
        );
        checkedFields++;
      }
    }
    // The walk covered what the document declares (counts pin it against a silent skip).
    const documentedParams = api.filter((op) => op.method === "get")
      .flatMap((op) => queryParams(documented(doc, op))).length;
    assert.equal(checkedParams, documentedParams);
    // Every field of the JSON request bodies the document lists today.
    assert.equal(checkedFields, 25);
  });
});

Deno.test("the page files answer their documented types", async () => {
  await withServer(async (url) => {
    const doc = await (await fetch(`${url}/api/openapi.json`)).json() as Json;
    const pages = OPERATIONS.filter((op) => !op.path.startsWith("/api/"));
    assert.ok(pages.length >= 7);
    for (const op of pages) {
      const answer = await send(doc, op, url + op.path);
      assert.equal(answer.status, 200, op.path);
    }
  });
});
