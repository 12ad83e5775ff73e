/**
 * `--lan` end to end, across a real network hop: the test makes its own
 * network namespace joined to this one by a veth pair on a private /30 and
 * starts loggers with the flags `start` would pass. From inside the
 * namespace, a `--lan` logger serves the live page, its live stream and the
 * read routes, and refuses a change without the token; a logger without
 * `--lan` cannot be reached at all. No other interface or address is used.
 * Needs root and iproute2; skipped (with the reason) elsewhere.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { startLogger } from "../../src/cli/logger_process.ts";
import type { ServerFlags } from "../../src/cli/options.ts";
import { serverSettings } from "../../src/cli/start.ts";
import { VethNamespace } from "./_netns.ts";

const NET = new VethNamespace(`sdl${Deno.pid % 100_000}l`, "10.213.78.1", "10.213.78.2");
const NS = NET.ns;
const HOST_IP = NET.hostIp;

const skip = NET.unavailable();
if (skip) console.log(`--lan netns test skipped: ${skip}`);

/**
 * Sends one request from inside the namespace; returns its status and
 * content type, or "unreachable" when no connection could be made.
 */
async function fromNamespace(
  method: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const script = `try {
    const r = await fetch(${JSON.stringify(url)}, { method: ${JSON.stringify(method)}, headers: ${
    JSON.stringify(headers)
  }, signal: AbortSignal.timeout(10000) });
    await r.body?.cancel();
    console.log(r.status + " " + (r.headers.get("content-type") ?? "").split(";")[0]);
  } catch { console.log("unreachable"); }`;
  const out = await new Deno.Command("ip", {
    args: ["netns", "exec", NS, Deno.execPath(), "eval", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

const FLAGS: ServerFlags = {
  host: "127.0.0.1",
  port: 0,
  data: ":memory:",
  recordMaxMb: 256,
  recordKeep: 4,
  forward: [],
};

async function logger(flags: ServerFlags) {
  return await startLogger({
    ...serverSettings(flags),
    console: null,
    consolePort: 0,
    udpPort: 0,
    format: "C",
  });
}

Deno.test({
  name: "--lan: another host reads the page, the live stream and the API; changes need the token",
  ignore: skip !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  NET.setUp();
  const open = await logger({ ...FLAGS, lan: true });
  const guarded = await logger({ ...FLAGS, lan: true, token: "s3cret-token" });
  const local = await logger(FLAGS);
  try {
    const at = (l: { http: { port: number } }, path: string) =>
      `http://${HOST_IP}:${l.http.port}${path}`;
    const identify = "/api/tracks/identify";
    const results = {
      page: await fromNamespace("GET", at(open, "/")),
      script: await fromNamespace("GET", at(open, "/live.js")),
      live: await fromNamespace("GET", at(open, "/api/live?hz=1")),
      status: await fromNamespace("GET", at(open, "/api/status")),
      changeWithoutTokenConfigured: await fromNamespace("POST", at(open, identify)),
      changeWithoutHeader: await fromNamespace("POST", at(guarded, identify)),
      changeWithToken: await fromNamespace("POST", at(guarded, identify), {
        authorization: "Bearer s3cret-token",
      }),
      withoutLan: await fromNamespace("GET", at(local, "/")),
    };
    console.log(`--lan over a veth pair: ${JSON.stringify(results)}`);
    assert.deepEqual(results, {
      page: "200 text/html",
      script: "200 text/javascript",
      live: "200 text/event-stream",
      status: "200 application/json",
      changeWithoutTokenConfigured: "403 application/problem+json",
      changeWithoutHeader: "401 application/problem+json",
      changeWithToken: "200 application/json",
      withoutLan: "unreachable",
    });
  } finally {
    await open.close();
    await guarded.close();
    await local.close();
    NET.tearDown();
  }
});
