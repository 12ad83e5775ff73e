/**
 * sim-datalogger: the process's entry point. Everything it does is in
 * src/cli (one module per command); this file only hands it the arguments
 * and ends the process with the code it returns.
 *
 * @module
 */
import { runCli } from "./src/cli/program.ts";

if (import.meta.main) {
  // Exit explicitly: a command that finished must not linger on a stray timer or socket.
  Deno.exit(await runCli(Deno.args));
}
