import { strict as assert } from "node:assert";
import fc from "fast-check";
import { hubSettings } from "../../../src/core/hub/hub_settings.ts";
import { HUB_FIRST_MS, HUB_MAX_MS, hubBackoffMs } from "../../../src/core/hub/hub_backoff.ts";

Deno.test("hub settings: none without either flag; the URL loses its trailing slash", () => {
  assert.equal(hubSettings(undefined, undefined), null);
  assert.equal(hubSettings("", ""), null);
  assert.deepEqual(hubSettings("https://hub.example:8780/team/", "tok-1"), {
    url: "https://hub.example:8780/team",
    token: "tok-1",
  });
});

Deno.test("hub settings: each bad value is refused naming the flag and the rule", () => {
  const refused = (url: string | undefined, token: string | undefined, message: string) =>
    assert.throws(() => hubSettings(url, token), { message });
  refused(
    "hub.local",
    "t",
    '--hub must be an absolute URL such as http://hub.local:8780, not "hub.local"',
  );
  refused("ftp://hub.local", "t", "--hub must be an http or https URL, not ftp");
  refused(
    "http://me:pw@hub.local",
    "t",
    "--hub must not carry a user or password: the token goes in --hub-token",
  );
  refused(
    "http://hub.local/?x=1",
    "t",
    "--hub must not have a query or a fragment: give the hub's base URL",
  );
  refused(
    "http://hub.local",
    undefined,
    "--hub needs --hub-token TOKEN (or SIM_DATALOGGER_HUB_TOKEN): the driver token the hub's admin gave you",
  );
  refused(
    undefined,
    "t",
    "--hub-token was given without --hub: pass the hub's URL with --hub URL",
  );
  refused(
    "http://hub.local",
    "two words",
    "--hub-token must be 1..512 printable ASCII characters without spaces (as the hub printed it)",
  );
});

Deno.test("hub back-off: doubles from 2 s to 5 min, jittered within the step's upper half", () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => hubBackoffMs(n, 0)), [1000, 2000, 4000, 8000]);
  assert.equal(hubBackoffMs(100, 0.999999), HUB_MAX_MS);
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 10_000 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (n, r) => {
        const ms = hubBackoffMs(n, r);
        const step = Math.min(HUB_FIRST_MS * 2 ** Math.min(n - 1, 30), HUB_MAX_MS);
        // Never a busy loop (at least half the step, 1 s), never past the cap.
        return ms >= step / 2 && ms <= step && ms >= HUB_FIRST_MS / 2;
      },
    ),
  );
});
