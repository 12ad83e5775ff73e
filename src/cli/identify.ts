/**
 * `identify`: names every unlabelled session that a known circuit matches.
 *
 * @module
 */
import type { Command } from "commander";
import { dataOption } from "./options.ts";
import { withStore } from "./with_store.ts";

/** Adds `identify` to `program`. */
export function addIdentifyCommand(program: Command): void {
  dataOption(
    program.command("identify")
      .description("name every unlabelled session whose shortest full lap matches a known circuit"),
  ).action(async (flags: { data: string }) => {
    await withStore(flags.data, async (app) => {
      const r = await app.tracks.identifyUnlabelled();
      const names = Object.entries(r.tracks).map(([name, n]) => `${name} x${n}`).join(", ");
      console.log(
        `identify: checked ${r.checked} unlabelled session(s), named ${r.identified}` +
          (names ? ` (${names})` : ""),
      );
      console.log(JSON.stringify(r));
    });
  });
}
