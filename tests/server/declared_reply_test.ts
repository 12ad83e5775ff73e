/**
 * A route is declared once (issue 37): its declaration gives the router,
 * the validation, the document's operation and the type of its answer.
 *
 * The planted wrong answers below are type errors, each under a
 * `@ts-expect-error`: `deno check` (the gate's, and the one `deno test`
 * runs first) fails on such a directive when its line is no longer an
 * error, so the day a handler could answer a body its declaration does not
 * describe, this file stops checking. The functions are never called.
 */
import { strict as assert } from "node:assert";
import { z } from "zod";
import { declareRoute } from "../../src/server/declared_route.ts";
import { idParams } from "../../src/server/params.ts";
import { RouteTable } from "../../src/server/route_table.ts";

const deletion = z.strictObject({ id: z.number(), deleted: z.literal(true) });

/** A JSON route: its answer is `deletion`'s output, with status 202. */
const deleteThing = declareRoute({
  method: "delete",
  path: "/api/things/{id}",
  tag: "things",
  summary: "Delete a thing",
  params: idParams,
  ok: { status: 202, schema: deletion },
});

/** A route of another media type: it answers a response it makes. */
const thingsCsv = declareRoute({
  method: "get",
  path: "/api/things.csv",
  tag: "things",
  summary: "Things as CSV",
  ok: { type: "text/csv" },
});

/** A table serving both routes, answering as declared. */
function things(): RouteTable {
  return new RouteTable()
    .serve(deleteThing, ({ params, reply }) => reply.json({ id: params.id, deleted: true }))
    .serve(thingsCsv, ({ reply }) => reply.raw(new Response("id\n1\n")));
}

/** Wrong answers of the JSON route: each line is a type error. Never called. */
export function plantedJsonAnswers(t: RouteTable): void {
  // @ts-expect-error a body the declared schema does not describe
  t.serve(deleteThing, ({ reply }) => reply.json({ nonsense: 1 }));
  // @ts-expect-error a declared field of the wrong type
  t.serve(deleteThing, ({ params, reply }) => reply.json({ id: params.id, deleted: "yes" }));
  // @ts-expect-error a declared field missing
  t.serve(deleteThing, ({ params, reply }) => reply.json({ id: params.id }));
  // @ts-expect-error Hono's own c.json, bypassing the declaration
  t.serve(deleteThing, (_, c) => c.json({ nonsense: 1 }));
  // @ts-expect-error a raw response from a JSON route
  t.serve(deleteThing, ({ reply }) => reply.raw(new Response("{}")));
}

/** Wrong answers of the CSV route: each line is a type error. Never called. */
export function plantedRawAnswers(t: RouteTable): void {
  // @ts-expect-error JSON from a route that declared another media type
  t.serve(thingsCsv, ({ reply }) => reply.json({ id: 1 }));
  // @ts-expect-error a bare Response, not made by the route's reply
  t.serve(thingsCsv, () => new Response("id\n"));
}

Deno.test("a served route is listed once, as declared, in the order served", () => {
  const table = things();
  assert.deepEqual(table.operations, [deleteThing, thingsCsv]);
  const outer = new RouteTable().include(table);
  assert.deepEqual(outer.operations, [deleteThing, thingsCsv]);
  assert.throws(
    () => outer.include(things()),
    { message: "DELETE /api/things/{id} is served twice" },
  );
});

Deno.test("reply.json answers the body as JSON with the declared status", async () => {
  const res = await things().request("/api/things/7", { method: "DELETE" });
  assert.equal(res.status, 202);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.deepEqual(await res.json(), { id: 7, deleted: true });
});

Deno.test("reply.raw answers the handler's response as it is", async () => {
  const res = await things().request("/api/things.csv");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "id\n1\n");
});
