/**
 * Reading request bodies: exact bytes whatever the chunking or the announced
 * size, and the size limit enforced with its exact errors.
 */
import { strict as assert } from "node:assert";
import {
  BODY_BYTES_PER_EXTRA_SECOND,
  readBody,
  readJsonBody,
  readOptionalJsonBody,
  startBodyClock,
} from "../../src/server/body.ts";
import { problemOf, problemResponse, RequestTimeout } from "../../src/server/problem.ts";
import { BadRequest, TooLarge } from "../../src/core/errors.ts";
import { silentLog } from "../../src/app/log.ts";

/** A POST whose body arrives in `chunks`, with `length` as content-length when given. */
function request(chunks: Uint8Array[], length?: number): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  const headers = length === undefined ? undefined : { "content-length": String(length) };
  return new Request("http://x/", { method: "POST", body, headers });
}

/** `text` as UTF-8, cut into pieces of `size` bytes. */
function pieces(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

const DOC = {
  name: "Nürburgring – Nordschleife 🏁",
  values: Array.from({ length: 30_000 }, (_, i) => i * 1.5),
};
const TEXT = JSON.stringify(DOC);
const BYTES = new TextEncoder().encode(TEXT).byteLength;

Deno.test("a body in many chunks, announced or not, or announced wrongly, parses to the same value", async () => {
  for (const size of [1, 7, 4096, 65_536, 1 << 20]) {
    assert.deepEqual(await readJsonBody(request(pieces(TEXT, size)), 1 << 24), DOC);
    assert.deepEqual(await readJsonBody(request(pieces(TEXT, size), BYTES), 1 << 24), DOC);
    assert.deepEqual(await readJsonBody(request(pieces(TEXT, size), 10), 1 << 24), DOC);
  }
});

Deno.test("a body one byte over the limit is refused while streaming, with its message", async () => {
  await assert.rejects(
    () => readJsonBody(request(pieces(TEXT, 1000)), BYTES - 1),
    (err: unknown) =>
      err instanceof TooLarge && err.message === `body is over the ${BYTES - 1}-byte limit`,
  );
  // Exactly at the limit is accepted.
  assert.deepEqual(await readJsonBody(request(pieces(TEXT, 1000)), BYTES), DOC);
});

Deno.test("an announced size over the limit is refused before reading", async () => {
  await assert.rejects(
    () => readJsonBody(request(pieces("{}", 2), 101), 100),
    (err: unknown) =>
      err instanceof TooLarge && err.message === "body of 101 bytes is over the 100-byte limit",
  );
});

Deno.test("the optional reading gives undefined for no body, and reads a present one as readJsonBody", async () => {
  assert.equal(
    await readOptionalJsonBody(new Request("http://x/", { method: "POST" }), 100),
    undefined,
  );
  assert.equal(await readOptionalJsonBody(request([]), 100), undefined);
  assert.equal(await readOptionalJsonBody(request([new Uint8Array(0)], 0), 100), undefined);
  // JSON `null` is a document, not the absence of one.
  assert.equal(await readOptionalJsonBody(request(pieces("null", 1)), 100), null);
  assert.deepEqual(await readOptionalJsonBody(request(pieces(TEXT, 4096)), BYTES), DOC);
  await assert.rejects(
    () => readOptionalJsonBody(request(pieces(TEXT, 1000)), BYTES - 1),
    (err: unknown) =>
      err instanceof TooLarge && err.message === `body is over the ${BYTES - 1}-byte limit`,
  );
  await assert.rejects(
    () => readOptionalJsonBody(request(pieces("{}", 2), 101), 100),
    (err: unknown) =>
      err instanceof TooLarge && err.message === "body of 101 bytes is over the 100-byte limit",
  );
  await assert.rejects(
    () => readOptionalJsonBody(request(pieces('{"a":', 2)), 100),
    (err: unknown) =>
      err instanceof BadRequest && err.message.startsWith("body is not valid JSON: "),
  );
});

Deno.test("empty, non-UTF-8 and non-JSON bodies are refused with their messages", async () => {
  await assert.rejects(
    () => readJsonBody(request([]), 100),
    (err: unknown) => err instanceof BadRequest && err.message === "request body is empty",
  );
  await assert.rejects(
    () => readJsonBody(request([new Uint8Array([0x7b, 0xff, 0x7d])], 3), 100),
    (err: unknown) => err instanceof BadRequest && err.message === "body is not valid UTF-8",
  );
  await assert.rejects(
    () => readJsonBody(request(pieces('{"a":', 2)), 100),
    (err: unknown) =>
      err instanceof BadRequest && err.message.startsWith("body is not valid JSON: "),
  );
});

Deno.test("a body that stops arriving is refused (408) when its clock runs out, naming what came", async () => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"a":'));
    },
  });
  const req = new Request("http://x/", {
    method: "POST",
    body,
    headers: { "content-length": "1000" },
  });
  startBodyClock(req, 100);
  const started = performance.now();
  const err = await readJsonBody(req, 1 << 20).then(() => null, (e) => e);
  assert.ok(err instanceof RequestTimeout, String(err));
  assert.ok(performance.now() - started >= 100);
  assert.match(err.message, /^request body not complete after 0\.\d s: 5 of 1000 bytes received$/);
  assert.equal(problemOf(err).status, 408);
  const res = problemResponse(err, silentLog);
  assert.equal(res.headers.get("connection"), "close");
  assert.equal(res.headers.get("content-type"), "application/problem+json");
});

Deno.test("a body arriving at 64 KiB/s or faster is never cut, whatever its clock's base", async () => {
  const chunk = new Uint8Array(BODY_BYTES_PER_EXTRA_SECOND).fill(0x20);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Ten chunks, 50 ms apart: 500 ms in all against a 100 ms base, each chunk adding a second.
      await new Promise((r) => setTimeout(r, 50));
      if (sent++ < 10) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const req = new Request("http://x/", { method: "POST", body });
  startBodyClock(req, 100);
  assert.equal((await readBody(req, 1 << 24)).byteLength, 10 * BODY_BYTES_PER_EXTRA_SECOND);
});
