/**
 * `export lap ID` (JSON or MoTeC CSV) and `export bundle SLUG` (version 4
 * JSON), to a file or standard output.
 *
 * @module
 */
import type { Command } from "commander";
import { exportBundle } from "../app/bundles.ts";
import { exportLapCsv, exportLapFile } from "../app/lap_exchange.ts";
import { serialiseBundle } from "../core/bundle/serialise.ts";
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
      const text = serialiseBundle(await exportBundle(app, slug)) + "\n";
      if (flags.out) {
        await Deno.writeTextFile(flags.out, text);
        console.error(`wrote ${flags.out}`);
      } else {
        const writer = Deno.stdout.writable.getWriter();
        await writer.write(new TextEncoder().encode(text));
        writer.releaseLock();
      }
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
      const out = flags.out
        ? await Deno.open(flags.out, { write: true, create: true, truncate: true })
        : Deno.stdout;
      const writer = out.writable.getWriter();
      const encoder = new TextEncoder();
      try {
        if (flags.csv) {
          const csv = await exportLapCsv(app, Number(id));
          for (const line of csv.lines) await writer.write(encoder.encode(line));
        } else {
          const file = await exportLapFile(app, Number(id));
          await writer.write(encoder.encode(JSON.stringify(file) + "\n"));
        }
      } finally {
        if (flags.out) await writer.close();
        else writer.releaseLock();
      }
      if (flags.out) console.error(`wrote ${flags.out}`);
    });
  });
}
