/**
 * The command line: every command, its flags and help, and how a failure is
 * told to the user (one line, exit code 1).
 *
 * @module
 */
import { Command, CommanderError } from "commander";
import { APP_VERSION } from "../app/version.ts";
import { ImportRejected } from "../core/errors.ts";
import { addDemoCommand } from "./demo.ts";
import { addExportCommands } from "./export.ts";
import { addIdentifyCommand } from "./identify.ts";
import { addHubCommand } from "./hub.ts";
import { addImportCommand } from "./import.ts";
import { addListingCommands } from "./listing.ts";
import { addReplayCommand } from "./replay.ts";
import { addLoggerCommands } from "./start.ts";
import { addHubCommands } from "./hub_link_commands.ts";

/** Builds the program with every command; parsing throws instead of exiting. */
export function createProgram(): Command {
  const program = new Command()
    .name("sim-datalogger")
    .description("Gran Turismo 7 telemetry logger: records laps, serves an HTTP API")
    .version(APP_VERSION, "-V, --version", "print the version")
    .showHelpAfterError()
    .exitOverride();
  addLoggerCommands(program);
  addReplayCommand(program);
  addDemoCommand(program);
  addImportCommand(program);
  addExportCommands(program);
  addIdentifyCommand(program);
  addListingCommands(program);
  addHubCommands(program);
  addHubCommand(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

/**
 * The command a mistyped word would otherwise run: `start` is the default,
 * so `sim-datalogger strat` would complain of "too many arguments for
 * 'start'". Returns the unknown word, or null when `args` names a command or
 * starts with a flag.
 */
export function unknownCommand(program: Command, args: readonly string[]): string | null {
  const first = args[0];
  if (first === undefined || first.startsWith("-") || first === "help") return null;
  const known = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  return known.includes(first) ? null : first;
}

/** One line for the user from anything a command threw. */
export function describeError(err: unknown): string {
  if (err instanceof ImportRejected) {
    return `rejected: ${err.issues.map((i) => `${i.path}: ${i.message}`).join("\n  ")}`;
  }
  return (err as Error).message;
}

/**
 * Whether `err` says the other end of a pipe was closed (EPIPE): what a
 * write to standard output gets once `head` has read enough.
 */
export function isClosedPipe(err: unknown): boolean {
  return err instanceof Deno.errors.BrokenPipe ||
    (err as { code?: unknown } | null)?.code === "EPIPE";
}

/**
 * Runs the command line on `args` and returns the exit code: 0 on success,
 * 1 after printing what went wrong.
 */
export async function runCli(args: string[]): Promise<number> {
  const program = createProgram();
  const unknown = unknownCommand(program, args);
  if (unknown !== null) {
    const names = program.commands.map((c) => c.name()).join(", ");
    console.error(`sim-datalogger: unknown command '${unknown}' (commands: ${names}; see --help)`);
    return 1;
  }
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (err) {
    // Commander has already printed its own message (and help) for usage errors.
    if (err instanceof CommanderError) return err.exitCode;
    // The reader of standard output went away (`| head`): a normal end, not a failure.
    if (isClosedPipe(err)) return 0;
    console.error(`sim-datalogger: ${describeError(err)}`);
    return 1;
  }
}
