import { strict as assert } from "node:assert";
import { InvalidArgumentError } from "commander";
import { collectForward, forwardTarget } from "../../src/cli/options.ts";
import type { RelayTarget } from "../../src/capture/relay_hub.ts";

const LAN = [{ address: "192.168.1.10", prefix: 24 }];

Deno.test("--forward takes HOST:PORT[:FORMAT], format A unless given", () => {
  assert.deepEqual(forwardTarget("127.0.0.1:20777", LAN), {
    hostname: "127.0.0.1",
    port: 20777,
    format: "A",
  });
  assert.deepEqual(forwardTarget("localhost:5300:~", LAN), {
    hostname: "127.0.0.1",
    port: 5300,
    format: "~",
  });
  assert.deepEqual(forwardTarget("192.168.1.40:33740:C", LAN), {
    hostname: "192.168.1.40",
    port: 33740,
    format: "C",
  });
});

Deno.test("--forward refuses a host off loopback and the LAN, naming it and the subnets", () => {
  const refuse = (value: string, message: RegExp) =>
    assert.throws(() => forwardTarget(value, LAN), (err: Error) => {
      assert.ok(err instanceof InvalidArgumentError);
      assert.match(err.message, message);
      return true;
    }, value);
  refuse(
    "8.8.8.8:20777",
    /^HOST 8\.8\.8\.8 is neither loopback nor on this machine's subnet \(192\.168\.1\.0\/24\); the logger relays only there$/,
  );
  refuse("192.168.2.1:20777", /HOST 192\.168\.2\.1 is neither loopback/);
  refuse("example.com:20777", /^HOST must be an IPv4 address or localhost, got example\.com$/);
  refuse("127.0.0.1:20777:D", /^FORMAT must be one of A, B, ~, C, got D$/);
  refuse("127.0.0.1:0", /^must be HOST:PORT or HOST:PORT:FORMAT/);
  refuse("127.0.0.1:70000", /port 1\.\.65535/);
  refuse("127.0.0.1", /^must be HOST:PORT/);
  refuse("127.0.0.1:20777:AB", /^must be HOST:PORT/);
});

Deno.test("at most 8 --forward targets", () => {
  let targets: RelayTarget[] = [];
  for (let i = 0; i < 8; i++) targets = collectForward(`127.0.0.1:${6000 + i}`, targets);
  assert.equal(targets.length, 8);
  assert.throws(() => collectForward("127.0.0.1:6008", targets), /^.*at most 8 targets$/);
});
