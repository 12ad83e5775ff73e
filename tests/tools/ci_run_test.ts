/**
 * CI runs the fast gate, then the hardening suite as a step of its own, in
 * the README's own words; and tries to give later browser tests a chromium.
 */
import { strict as assert } from "node:assert";

const root = new URL("../../", import.meta.url);

Deno.test("deno task ok is the fast gate; deno task hardening runs tests/hardening", async () => {
  const { tasks } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  assert.match(
    tasks.ok,
    /deno fmt --check && deno lint && deno task cycles && deno check .*&& deno task test$/,
  );
  assert.equal(tasks.test, "DENO_JOBS=3 deno test -A --parallel --ignore=tests/hardening");
  assert.equal(tasks.hardening, "deno test -A --v8-flags=--expose-gc tests/hardening");
});

Deno.test(".ci/run runs the gate, then the hardening suite, and installs chromium if it can", async () => {
  const script = await Deno.readTextFile(new URL(".ci/run", root));
  const steps = script.split("\n").filter((l) => /^npx /.test(l));
  assert.deepEqual(steps, [
    "npx --yes deno@2.9.6 task ok",
    "npx --yes deno@2.9.6 task hardening",
  ]);
  assert.match(script, /set -euo pipefail/);
  // Best effort: only where apt-get exists and chromium is missing, and a failure goes on.
  assert.match(
    script,
    /if command -v apt-get .* && ! command -v chromium .*; then\n.*\n\s+\{ apt-get update -qq && apt-get install -y -qq chromium; \} \|\| echo/,
  );
  const readme = await Deno.readTextFile(new URL("README.md", root));
  for (const step of steps) assert.ok(readme.includes(step), `the README shows "${step}"`);
});
