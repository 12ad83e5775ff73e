/**
 * The token policy end to end, across a real network hop: the test makes its
 * own network namespace joined to this one by a veth pair on a private /30,
 * binds the API to the host end, and sends requests from inside the
 * namespace. No other interface or address is used. Needs root and iproute2;
 * skipped (with the reason) elsewhere.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { startHttp } from "../../src/server/http.ts";
import { VethNamespace } from "./_netns.ts";

const NET = new VethNamespace(`sdl${Deno.pid % 100_000}`, "10.213.77.1", "10.213.77.2");
const NS = NET.ns;
const HOST_IP = NET.hostIp;

const skip = NET.unavailable();
if (skip) console.log(`netns auth test skipped: ${skip}`);

/** Sends one request from inside the namespace; returns its status. */
async function fromNamespace(
  method: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const script = `const r = await fetch(${JSON.stringify(url)}, { method: ${
    JSON.stringify(method)
  }, headers: ${JSON.stringify(headers)} }); await r.body?.cancel(); console.log(r.status);`;
  const out = await new Deno.Command("ip", {
    args: ["netns", "exec", NS, Deno.execPath(), "eval", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return Number(text);
}

Deno.test({
  name: "from another host (a test-made network namespace), changes need the bearer token",
  ignore: skip !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  NET.setUp();
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const open = startHttp(app, { hostname: HOST_IP, port: 0 });
  const guarded = startHttp(app, { hostname: HOST_IP, port: 0, token: "s3cret-token" });
  try {
    // Identify answers 200 on an empty store (nothing to name): reaching it proves the request was let in.
    const identify = "/api/tracks/identify";
    const results = {
      read: await fromNamespace("GET", `${open.url}/api/health`),
      changeWithoutTokenConfigured: await fromNamespace("POST", `${open.url}${identify}`),
      changeWithoutHeader: await fromNamespace("POST", `${guarded.url}${identify}`),
      changeWithWrongToken: await fromNamespace("POST", `${guarded.url}${identify}`, {
        authorization: "Bearer wrong-token!",
      }),
      changeWithToken: await fromNamespace("POST", `${guarded.url}${identify}`, {
        authorization: "Bearer s3cret-token",
      }),
    };
    console.log(`netns auth: ${JSON.stringify(results)}`);
    assert.deepEqual(results, {
      read: 200,
      changeWithoutTokenConfigured: 403,
      changeWithoutHeader: 401,
      changeWithWrongToken: 403,
      changeWithToken: 200,
    });
  } finally {
    await open.close();
    await guarded.close();
    kv.close();
    NET.tearDown();
  }
});
