/**
 * `--reference own|team` with `--hub` and `--hub-token` (or their
 * environment variables): what a logger is started with, and the flag
 * named when one is missing or wrong.
 */
import { strict as assert } from "node:assert";
import { Command } from "commander";
import { type ServerFlags, serverOptions } from "../../src/cli/options.ts";
import { teamReference } from "../../src/cli/start.ts";

/** The flags `args` give a command with the logger's server options. */
function parse(args: string[]): ServerFlags {
  const cmd = serverOptions(new Command().exitOverride().configureOutput({ writeErr: () => {} }));
  cmd.parse(args, { from: "user" });
  return cmd.opts<ServerFlags>();
}

Deno.test("--reference is own by default; team takes --hub and --hub-token, else the env", () => {
  const env = ["SIM_DATALOGGER_HUB", "SIM_DATALOGGER_HUB_TOKEN"].map((k) => [k, Deno.env.get(k)]);
  try {
    for (const [k] of env) Deno.env.delete(k!);
    assert.equal(teamReference(parse([])), null);
    assert.deepEqual(
      teamReference(parse(["--reference", "team", "--hub", "http://hub:8800", "--hub-token", "t"])),
      { link: { url: "http://hub:8800", token: "t" } },
    );
    assert.throws(() => parse(["--reference", "mine"]), /Allowed choices are own, team/);
    assert.throws(
      () => teamReference(parse(["--reference", "team", "--hub-token", "t"])),
      /^Error: --hub-token was given without --hub: pass the hub's URL with --hub URL$/,
    );
    assert.throws(
      () => teamReference(parse(["--reference", "team"])),
      /^Error: --reference team needs the hub: --hub URL \(or \$SIM_DATALOGGER_HUB\)$/,
    );
    assert.throws(
      () => teamReference(parse(["--reference", "team", "--hub", "ftp://hub", "--hub-token", "t"])),
      /^Error: --hub must be an http or https URL, not ftp$/,
    );
    Deno.env.set("SIM_DATALOGGER_HUB", "https://team.example");
    assert.throws(
      () => teamReference(parse(["--reference", "team"])),
      /^Error: --hub needs --hub-token TOKEN \(or SIM_DATALOGGER_HUB_TOKEN\)/,
    );
    Deno.env.set("SIM_DATALOGGER_HUB_TOKEN", "env-token");
    assert.deepEqual(teamReference(parse(["--reference", "team"])), {
      link: { url: "https://team.example", token: "env-token" },
    });
  } finally {
    for (const [k, v] of env) v === undefined ? Deno.env.delete(k!) : Deno.env.set(k!, v);
  }
});
