import { strict as assert } from "node:assert";
import { udpBindHost } from "../../src/cli/logger_process.ts";

Deno.test("telemetry binds loopback for a console on this machine, every interface otherwise", () => {
  for (const console of [null, "127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) {
    assert.equal(udpBindHost(console), "127.0.0.1", String(console));
  }
  // A name that merely starts like loopback is a console on the network.
  for (const console of ["192.168.1.30", "ps5.local", "127.example.net", "localhost.lan"]) {
    assert.equal(udpBindHost(console), "0.0.0.0", console);
  }
});
