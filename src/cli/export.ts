/**
 * `export lap ID` (JSON or MoTeC CSV) and `export bundle SLUG` (version 4
 * JSON), to a file or standard output.
 *
 * @module
 */
import type { Command } from "commander";
import type { ExportTarget } from "../app/files.ts";
import { dataOption } from "./options.ts";
import { withStore } from "./with_store.ts";

/** Adds `export bundle` and `export lap` to `program`. */
export function addExportCommands(program: Command): void {
  const exportCommand = program.command("export").description("export a stored lap or bundle");

  dataOption(
    exportCommand.command("bundle")
      .description("write the track bundle SLUG as a version 4 bundle (JSON)")
      .argument("<slug>", "the bundle's slug, as GET /api/track-bundles lists it")
      .option("-o, --out <file>", "write to FILE instead of standard output"),
  ).action(async (slug: string, flags: { out?: string; data: string }) => {
    await withStore(flags.data, async (app) => {
      const wrote = await app.files.exportBundle(slug, target(flags.out));
      if (wrote) console.error(`wrote ${wrote}`);
    });
  });

  dataOption(
    exportCommand.command("lap")
      .description("write lap ID as a lap file (JSON), or as MoTeC CSV with --csv")
      .argument("<id>", "the lap's id")
      .option("--csv", "write MoTeC CSV instead of JSON", false)
      .option("--out <file>", "write to FILE instead of standard output"),
  ).action(async (id: string, flags: { csv: boolean; out?: string; data: string }) => {
    if (!/^[1-9]\d*$/.test(id)) throw new Error(`lap id must be a positive integer, not "${id}"`);
    await withStore(flags.data, async (app) => {
      const wrote = await app.files.exportLap(
        Number(id),
        flags.csv ? "csv" : "json",
        target(flags.out),
      );
      if (wrote) console.error(`wrote ${wrote}`);
    });
  });
}

/** A file named by `--out`, or standard output, which stays open for the process. */
function target(out: string | undefined): ExportTarget {
  return out ? { path: out } : { stream: Deno.stdout.writable };
}
