/**
 * Reading request bodies with a size limit enforced while streaming, so an
 * oversized or endless (chunked) upload is refused without being buffered,
 * and with a deadline, so a body cut off or trickled in is answered (408)
 * instead of holding a request open for ever: Deno.serve has no timeout of
 * its own (measured: a body announced as 1000 bytes with 10 sent waits past
 * 300 s).
 *
 * @module
 */
import { BadRequest, TooLarge } from "../core/errors.ts";
import { jsonBody } from "../core/json_body.ts";
import { BodyIncomplete, RequestTimeout } from "./problem.ts";

/** Largest accepted body for document imports: 64 MiB. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** Time a request body may take to arrive, from the request's arrival, by default: 30 s. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/**
 * Each this many bytes received extends the body deadline by a second, so an
 * upload going at least this fast (64 KiB/s) is never cut, whatever its size,
 * while one trickled slower is.
 */
export const BODY_BYTES_PER_EXTRA_SECOND = 64 * 1024;

/** When a request's body clock started, and its base allowance. */
interface BodyClock {
  startedAt: number;
  timeoutMs: number;
}

/** The clocks of requests in flight, set by the HTTP app as each request arrives. */
const clocks = new WeakMap<Request, BodyClock>();

/**
 * Starts the clock of `req`'s body: it must have arrived within `timeoutMs`
 * of now, plus a second for every {@linkcode BODY_BYTES_PER_EXTRA_SECOND}
 * received. A request read without a clock gets
 * {@linkcode DEFAULT_BODY_TIMEOUT_MS} from when its reading starts.
 */
export function startBodyClock(req: Request, timeoutMs: number): void {
  clocks.set(req, { startedAt: performance.now(), timeoutMs });
}

/** Milliseconds left on `clock` with `received` bytes in. */
function timeLeft(clock: BodyClock, received: number): number {
  const allowed = clock.timeoutMs + (received * 1000) / BODY_BYTES_PER_EXTRA_SECOND;
  return clock.startedAt + allowed - performance.now();
}

/**
 * Calls `onLate` once `clock` runs out with `received()` bytes in: one timer,
 * re-armed only when it fires early (bytes came in and moved the deadline),
 * so a body in many small chunks costs nothing per chunk.
 */
function watch(clock: BodyClock, received: () => number, onLate: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const left = timeLeft(clock, received());
    if (left <= 0) onLate();
    else timer = setTimeout(check, left);
  };
  check();
  return () => clearTimeout(timer);
}

/** The announced size when it is a usable hint (a whole number within the limit), else null. */
function declaredSize(declared: string | null, limit: number): number | null {
  if (declared === null || !/^\d+$/.test(declared)) return null;
  const size = Number(declared);
  return size <= limit ? size : null;
}

/**
 * Every byte of `body`, refusing once more than `limit` arrive. Each chunk
 * is copied into one growing buffer as it arrives and let go, so a big
 * upload is held about once rather than as chunks plus their joined copy;
 * an announced size sizes the buffer up front (a wrong one only costs a
 * regrowth, the bytes are what arrived).
 */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
  hint: number | null,
  clock: BodyClock,
  declared: string | null,
): Promise<Uint8Array> {
  // The announced size is the client's word: reserve at most 1 MiB on it before bytes arrive.
  let buffer = new Uint8Array(Math.min(hint ?? 64 * 1024, 1 << 20));
  let size = 0;
  const reader = body.getReader();
  let late = false;
  // Cancelling ends the pending read (done), so no read waits on a timer of its own.
  const stop = watch(clock, () => size, () => {
    late = true;
    reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (err) {
        // The stream fails when the client closed or reset its side mid-body (Deno says
        // BadResource): the client's fault, answered as such, never a 500 with a trace.
        if (late) throw lateBody(clock, size, declared);
        throw new BodyIncomplete(declared, { cause: err });
      }
      if (late) throw lateBody(clock, size, declared);
      const { done, value } = next;
      if (done) break;
      if (size + value.byteLength > limit) {
        await reader.cancel();
        throw new TooLarge(`body is over the ${limit}-byte limit`);
      }
      if (size + value.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.min(limit, Math.max(size + value.byteLength, buffer.byteLength * 2)),
        );
        grown.set(buffer.subarray(0, size));
        buffer = grown;
      }
      buffer.set(value, size);
      size += value.byteLength;
    }
  } finally {
    stop();
  }
  return buffer.subarray(0, size);
}

/** The refusal of a body whose clock ran out with `size` bytes in. */
function lateBody(clock: BodyClock, size: number, declared: string | null): RequestTimeout {
  const seconds = ((performance.now() - clock.startedAt) / 1000).toFixed(1);
  const of = declared !== null && /^\d+$/.test(declared) ? ` of ${declared}` : "";
  return new RequestTimeout(
    `request body not complete after ${seconds} s: ${size}${of} bytes received`,
  );
}

/**
 * Every byte of `req`'s body, or undefined when it has none or an empty one:
 * the one reading behind {@linkcode readBody} and
 * {@linkcode readOptionalJsonBody}, so "no body" is a value here rather than
 * an error a caller must recognise. Refuses with {@linkcode TooLarge} as
 * soon as more than `limit` bytes are announced or received, and with
 * {@linkcode RequestTimeout} once its clock (see {@linkcode startBodyClock})
 * runs out before the body ends, and with {@linkcode BodyIncomplete} (400)
 * when the client ends or drops the body before all of it arrived.
 */
async function readBytes(req: Request, limit: number): Promise<Uint8Array | undefined> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw new TooLarge(`body of ${declared} bytes is over the ${limit}-byte limit`);
  }
  if (!req.body) return undefined;
  const clock = clocks.get(req) ??
    { startedAt: performance.now(), timeoutMs: DEFAULT_BODY_TIMEOUT_MS };
  const bytes = await readLimited(req.body, limit, declaredSize(declared, limit), clock, declared);
  return bytes.byteLength === 0 ? undefined : bytes;
}

/**
 * Every byte of `req`'s body, refusing with {@linkcode TooLarge} as soon as
 * more than `limit` bytes are announced or received, with
 * {@linkcode BadRequest} for an empty body (`empty` its words), and with
 * {@linkcode RequestTimeout} once its clock (see {@linkcode startBodyClock})
 * runs out before the body ends.
 */
export async function readBody(
  req: Request,
  limit: number,
  empty = "request body is empty",
): Promise<Uint8Array> {
  const bytes = await readBytes(req, limit);
  if (bytes === undefined) throw new BadRequest(empty);
  return bytes;
}

/**
 * The refusal of an import route's empty body (`what`: "a lap file"), in
 * the words the command line uses for an empty file, since the body is a
 * file sent (`curl --data-binary @lap.json`).
 */
export function emptyImport(what: string): string {
  return `request body is empty: the file is empty, or was not sent; send ${what}`;
}

/**
 * Reads `req`'s body as JSON: {@linkcode readBody}, then
 * {@linkcode jsonBody}'s refusals for text that is not UTF-8 or not JSON.
 */
export async function readJsonBody(
  req: Request,
  limit: number,
  empty?: string,
): Promise<unknown> {
  return jsonBody(await readBody(req, limit, empty));
}

/**
 * Reads `req`'s body as JSON when it has one: undefined for an absent body
 * (whatever its headers announce) or an empty one, which JSON text never
 * parses to, so a caller tells "no body" from any document, `null`
 * included. A body that is present is read as {@linkcode readJsonBody}
 * reads it: the same `limit`, streaming size check, deadline and refusals
 * ({@linkcode TooLarge}, {@linkcode RequestTimeout}, {@linkcode BadRequest}
 * for text that is not UTF-8 or not JSON).
 */
export async function readOptionalJsonBody(req: Request, limit: number): Promise<unknown> {
  if (req.body === null) return undefined;
  const bytes = await readBytes(req, limit);
  return bytes === undefined ? undefined : jsonBody(bytes);
}

/** Largest body of a command that takes no fields: `{}` and some room. */
const MAX_EMPTY_COMMAND_BYTES = 4096;

/**
 * Reads the body of a command that takes no fields: none, an empty one, or
 * `{}`; anything else is refused rather than ignored.
 *
 * @throws {BadRequest} for a body that is not JSON, not an object, or has a
 *   field (named by its path); {@linkcode TooLarge} and
 *   {@linkcode RequestTimeout} as {@linkcode readBody}.
 */
export async function readEmptyCommand(req: Request): Promise<void> {
  const value = await readOptionalJsonBody(req, MAX_EMPTY_COMMAND_BYTES);
  if (value === undefined) return;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new BadRequest("body must be empty or {}: this request takes no fields", [
      { path: "$", message: "must be empty or {}" },
    ]);
  }
  const fields = Object.keys(value);
  if (fields.length) {
    throw new BadRequest(
      `${fields[0]} is not a field of this request: it takes none`,
      fields.map((f) => ({ path: `$.${f}`, message: "is not a field of this request" })),
    );
  }
}
