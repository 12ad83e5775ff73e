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

const TAG = `sdl${Deno.pid % 100_000}`;
const NS = `${TAG}ns`;
const HOST_IF = `${TAG}h`;
const PEER_IF = `${TAG}p`;
const HOST_IP = "10.213.77.1";
const PEER_IP = "10.213.77.2";

function run(cmd: string, args: string[]): { ok: boolean; out: string } {
  try {
    const r = new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).outputSync();
    const dec = new TextDecoder();
    return { ok: r.success, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
  } catch (err) {
    return { ok: false, out: String(err) };
  }
}

/** Why the namespace cannot be made here, or null when it can. */
function unavailable(): string | null {
  if (Deno.build.os !== "linux") return "not Linux";
  if (Deno.uid() !== 0) return "not root";
  if (!run("ip", ["-V"]).ok) return "iproute2 (ip) is not installed";
  const probe = run("ip", ["netns", "add", NS]);
  if (!probe.ok) return `ip netns add failed: ${probe.out.trim()}`;
  run("ip", ["netns", "del", NS]);
  return null;
}

const skip = unavailable();
if (skip) console.log(`netns auth test skipped: ${skip}`);

function setUp(): void {
  const steps: string[][] = [
    ["netns", "add", NS],
    ["link", "add", HOST_IF, "type", "veth", "peer", "name", PEER_IF],
    ["link", "set", PEER_IF, "netns", NS],
    ["addr", "add", `${HOST_IP}/30`, "dev", HOST_IF],
    ["link", "set", HOST_IF, "up"],
    ["netns", "exec", NS, "ip", "addr", "add", `${PEER_IP}/30`, "dev", PEER_IF],
    ["netns", "exec", NS, "ip", "link", "set", PEER_IF, "up"],
    ["netns", "exec", NS, "ip", "link", "set", "lo", "up"],
  ];
  for (const step of steps) {
    const r = run("ip", step);
    if (!r.ok) throw new Error(`ip ${step.join(" ")}: ${r.out}`);
  }
}

function tearDown(): void {
  run("ip", ["netns", "del", NS]);
  run("ip", ["link", "del", HOST_IF]);
}

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
  setUp();
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
    tearDown();
  }
});
