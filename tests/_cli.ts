/**
 * The command line run as a process, as a user runs it: `deno run -A
 * main.ts ARGS`, its exit code and both outputs as text.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** The project's entry point, absolute. */
export const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** What a finished command gave back. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `main.ts` with `args` to its end; never throws for a failing exit code. */
export async function cli(...args: string[]): Promise<CliResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}
