/**
 * `--share-live` (issue #40) needs a hub: alone it is refused with the
 * flags it needs; with one it marks the hub's settings.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { hubFlags } from "../../src/cli/options.ts";

Deno.test("--share-live without a hub is refused naming --hub and --hub-token; with one it marks the settings", () => {
  const env = ["SIM_DATALOGGER_HUB", "SIM_DATALOGGER_HUB_TOKEN"].map((k) => [k, Deno.env.get(k)]);
  for (const [k] of env) Deno.env.delete(k!);
  try {
    assert.throws(() => hubFlags({ shareLive: true }), {
      message: "--share-live needs --hub URL and --hub-token TOKEN (or SIM_DATALOGGER_HUB and " +
        "SIM_DATALOGGER_HUB_TOKEN): the live frames go to the team hub",
    });
    assert.deepEqual(
      hubFlags({ hub: "http://hub.local:8780/", hubToken: "t0k", shareLive: true }),
      {
        url: "http://hub.local:8780",
        token: "t0k",
        shareLive: true,
      },
    );
    assert.deepEqual(hubFlags({ hub: "http://hub.local:8780", hubToken: "t0k" }), {
      url: "http://hub.local:8780",
      token: "t0k",
    });
  } finally {
    for (const [k, v] of env) if (v !== undefined) Deno.env.set(k!, v);
  }
});
