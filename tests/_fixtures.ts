/**
 * Locates the shared GT7 captures (../shared/fixtures beside the checkout).
 * In CI (CI=true) a missing folder fails the test loudly; elsewhere the test
 * is skipped with a message naming the folder.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";

/** Absolute path of the shared fixtures folder. */
export const SHARED_FIXTURES = fileURLToPath(new URL("../../shared/fixtures/", import.meta.url));

/** Absolute path of the shared reference folder. */
export const SHARED_REFERENCE = fileURLToPath(new URL("../../shared/reference/", import.meta.url));

/** True when the shared fixtures are present; throws in CI when they are not. */
export function haveFixtures(): boolean {
  if (existsSync(SHARED_FIXTURES)) return true;
  if (Deno.env.get("CI") === "true") {
    throw new Error(`shared fixtures missing at ${SHARED_FIXTURES} (required in CI)`);
  }
  console.warn(`skipping: shared fixtures not found at ${SHARED_FIXTURES}`);
  return false;
}

/** `ignore` option for Deno.test: skip outside CI when the fixtures are absent. */
export const noFixtures = !existsSync(SHARED_FIXTURES) && Deno.env.get("CI") !== "true";

/** Reads a fixture file by its path relative to the fixtures folder. */
export function readFixture(relative: string): Uint8Array {
  haveFixtures();
  return Deno.readFileSync(join(SHARED_FIXTURES, relative));
}

/** Reads and gunzips a `.gt7.gz` decrypted stream. */
export function readGzFixture(relative: string): Uint8Array {
  return new Uint8Array(gunzipSync(readFixture(relative)));
}
