/**
 * `export lap ID` (JSON or MoTeC CSV) and `export bundle SLUG` (version 4
 * JSON), to a file or standard output; `export lap ID --motec DIR` and
 * `export session ID --motec DIR`, a MoTeC i2 log (.ld and .ldx) into a folder.
 *
 * @module
 */
import { type Command, InvalidArgumentError } from "commander";
import { driverNameSchema } from "../app/laps/motec_export.ts";
import type { ExportTarget, MotecSubject } from "../app/laps/files.ts";
import { dataOption, idArgument } from "./options.ts";
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
      .option("--out <file>", "write to FILE instead of standard output")
      .option("--motec <dir>", "write a MoTeC i2 log (.ld and .ldx) into folder DIR")
      .option("--driver <name>", "the driver's name in a MoTeC log's header", driverName),
  ).action(async (id: string, flags: LapExportFlags) => {
    const lapId = idArgument(id, "lap");
    if (flags.motec !== undefined) {
      if (flags.csv || flags.out !== undefined) {
        throw new Error(
          "--motec writes its own two files: it cannot be combined with --csv or --out",
        );
      }
      await exportMotec("lap", lapId, flags.motec, flags);
      return;
    }
    await withStore(flags.data, async (app) => {
      const wrote = await app.files.exportLap(
        lapId,
        flags.csv ? "csv" : "json",
        target(flags.out),
      );
      if (wrote) console.error(`wrote ${wrote}`);
    });
  });

  addSessionExport(exportCommand);
}

/**
 * A `--driver` the log's header can hold, by the rule the API's `driver`
 * query checks with ({@linkcode driverNameSchema}: at most 63 characters); {@linkcode InvalidArgumentError}
 * naming the rule otherwise, rather than a name silently cut short.
 */
function driverName(value: string): string {
  const checked = driverNameSchema.safeParse(value);
  if (!checked.success) throw new InvalidArgumentError(checked.error.issues[0].message);
  return value;
}

/** The flags of `export lap`. */
interface LapExportFlags {
  csv: boolean;
  out?: string;
  motec?: string;
  driver?: string;
  data: string;
}

/** Adds `export session ID --motec DIR` to the `export` command. */
function addSessionExport(exportCommand: Command): void {
  dataOption(
    exportCommand.command("session")
      .description("write every lap of session ID as one MoTeC i2 log (.ld and .ldx)")
      .argument("<id>", "the session's id")
      .requiredOption("--motec <dir>", "write the .ld and .ldx into folder DIR")
      .option("--driver <name>", "the driver's name in the log's header", driverName),
  ).action(async (id: string, flags: { motec: string; driver?: string; data: string }) => {
    await exportMotec("session", idArgument(id, "session"), flags.motec, flags);
  });
}

/** Writes the MoTeC log of a lap or session into `dir`, naming both files on stderr. */
async function exportMotec(
  subject: MotecSubject,
  id: number,
  dir: string,
  flags: { driver?: string; data: string },
): Promise<void> {
  await withStore(flags.data, async (app) => {
    const written = await app.files.exportMotec(subject, id, dir, { driver: flags.driver ?? "" });
    for (const path of written) console.error(`wrote ${path}`);
  });
}

/** A file named by `--out`, or standard output, which stays open for the process. */
function target(out: string | undefined): ExportTarget {
  return out ? { path: out } : { stream: Deno.stdout.writable };
}
