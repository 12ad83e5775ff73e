import { strict as assert } from "node:assert";
import {
  describeNets,
  ipv4Value,
  lanNets,
  relayPeerAllowed,
} from "../../src/core/relay_address.ts";

const LAN = lanNets([
  { family: "IPv4", address: "127.0.0.1", cidr: "127.0.0.1/8" },
  { family: "IPv4", address: "192.168.1.10", cidr: "192.168.1.10/24" },
  { family: "IPv6", address: "fe80::1", cidr: "fe80::1/64" },
  { family: "IPv4", address: "10.9.8.7", cidr: "10.9.8.7/4" },
]);

Deno.test("lanNets keeps IPv4 subnets off loopback with a prefix of 8 to 32", () => {
  assert.deepEqual(LAN, [{ address: "192.168.1.10", prefix: 24 }]);
  assert.equal(describeNets(LAN), "192.168.1.0/24");
  assert.equal(describeNets([]), "none");
});

Deno.test("loopback and the machine's own subnet are allowed", () => {
  for (const host of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"]) {
    assert.equal(relayPeerAllowed(host, []), true, host);
  }
  for (const host of ["192.168.1.1", "192.168.1.10", "192.168.1.254", "::ffff:192.168.1.77"]) {
    assert.equal(relayPeerAllowed(host, LAN), true, host);
  }
});

Deno.test("anything else is refused: other subnets, the internet, broadcast, names, IPv6", () => {
  for (
    const host of [
      "192.168.2.5",
      "192.168.0.255",
      "8.8.8.8",
      "203.0.113.5",
      "10.9.8.7",
      "192.168.1.0", // the subnet's network address
      "192.168.1.255", // its broadcast address
      "255.255.255.255",
      "0.0.0.0",
      "example.com",
      "fe80::2",
      "2001:db8::1",
      "192.168.1.256",
      "",
    ]
  ) {
    assert.equal(relayPeerAllowed(host, LAN), false, host);
  }
  // With no LAN address at all, only loopback.
  assert.equal(relayPeerAllowed("192.168.1.20", []), false);
});

Deno.test("a /31 and a /32 allow their addresses", () => {
  const nets = [{ address: "10.0.0.0", prefix: 31 }, { address: "172.16.0.9", prefix: 32 }];
  assert.equal(relayPeerAllowed("10.0.0.1", nets), true);
  assert.equal(relayPeerAllowed("10.0.0.2", nets), false);
  assert.equal(relayPeerAllowed("172.16.0.9", nets), true);
  assert.equal(relayPeerAllowed("172.16.0.8", nets), false);
});

Deno.test("ipv4Value reads dotted quads and IPv4-mapped addresses only", () => {
  assert.equal(ipv4Value("192.168.1.10"), 0xc0a8010a);
  assert.equal(ipv4Value("::ffff:10.0.0.1"), 0x0a000001);
  assert.equal(ipv4Value("1.2.3"), null);
  assert.equal(ipv4Value("1.2.3.999"), null);
});
