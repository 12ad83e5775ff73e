import { strict as assert } from "node:assert";
import {
  BadRequest,
  Conflict,
  ImportRejected,
  NotFound,
  TooLarge,
  UserError,
} from "../../src/core/errors.ts";
import { problemOf, problemResponse, statusOf, Unauthorized } from "../../src/server/problem.ts";
import { silentLog } from "../../src/app/log.ts";

Deno.test("statusOf: each kind of user error has its one HTTP status", () => {
  const cases: [UserError, number][] = [
    [new ImportRejected({ path: "$.format", message: "must be x" }), 400],
    [new BadRequest("bad"), 400],
    [new NotFound("no lap 7"), 404],
    [new Conflict("already running"), 409],
    [new TooLarge("over 64 MiB"), 413],
    [new Unauthorized("needs a token"), 401],
    [new Unauthorized("refused", 403), 403],
  ];
  for (const [err, status] of cases) {
    assert.equal(statusOf(err), status, err.name);
    assert.equal(problemOf(err).status, status, err.name);
  }
});

Deno.test("problemOf: issues travel with their paths; anything else is a bare 500", async () => {
  const rejected = problemOf(new ImportRejected([{ path: "$.edges[3]", message: "bad" }]));
  assert.deepEqual(rejected.errors, [{ path: "$.edges[3]", message: "bad" }]);
  assert.equal(rejected.type, "https://sim-datalogger.dev/problems/document-rejected");
  const unknown = problemOf(new Error("secret internals"));
  assert.equal(unknown.status, 500);
  assert.doesNotMatch(unknown.detail, /secret/);
  const res = problemResponse(new NotFound("no lap 7"), silentLog);
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  assert.equal((await res.json()).detail, "no lap 7");
});
