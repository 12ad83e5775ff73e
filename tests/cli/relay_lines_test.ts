/**
 * The relay's start-up lines: one wording for start, serve and demo.
 */
import { strict as assert } from "node:assert";
import { relayLines } from "../../src/cli/relay_lines.ts";

Deno.test("no relay and no forward target: nothing is said", () => {
  assert.deepEqual(relayLines(null, []), []);
});

Deno.test("the relay's address, then each forward target in the order given", () => {
  assert.deepEqual(
    relayLines("127.0.0.1:33739", [
      { hostname: "127.0.0.1", port: 20777, format: "A" },
      { hostname: "192.168.1.30", port: 5300, format: "~" },
    ]),
    [
      "relaying the console's packets to apps that heartbeat UDP 127.0.0.1:33739 (at most 8)",
      "forwarding every packet to 127.0.0.1:20777 as A",
      "forwarding every packet to 192.168.1.30:5300 as ~",
    ],
  );
});
