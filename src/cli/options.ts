/**
 * Flag parsers and the option sets commands share, so every command spells
 * `--data`, ports and the logger's flags the same way and refuses bad values
 * with the same words.
 *
 * @module
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import {
  CONSOLE_PORT,
  isPacketFormat,
  type PacketFormat,
  TELEMETRY_PORT,
} from "../core/gt7/format.ts";
import { defaultDataDir } from "../storage/kv.ts";
import { canonicalOrigin } from "../server/cors_origin.ts";
import type { ReplaySpeed } from "./fake_console.ts";
import { describeNets, ipv4Value, relayPeerAllowed } from "../core/relay_address.ts";
import { MAX_RELAY_APPS, type RelayTarget } from "../capture/relay_hub.ts";
import { machineNets } from "../capture/relay_socket.ts";
import { type HubSettings, hubSettings } from "../core/hub/hub_settings.ts";

/** A port number 0..65535; {@linkcode InvalidArgumentError} otherwise. */
export function port(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new InvalidArgumentError("must be a port number 0..65535");
  }
  return Number(value);
}

/** A packet format letter A, B, ~ or C. */
export function format(value: string): PacketFormat {
  if (!isPacketFormat(value)) throw new InvalidArgumentError("must be one of A, B, ~, C");
  return value;
}

/** An IP address or host name (letters, digits, dots, colons and hyphens). */
export function address(value: string): string {
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(value)) {
    throw new InvalidArgumentError("must be an IP address or host name");
  }
  return value;
}

/** One browser origin, canonicalised; never a wildcard or a path. */
export function origin(value: string): string {
  const canonical = canonicalOrigin(value);
  if (canonical === null) {
    throw new InvalidArgumentError(
      "must be one origin such as http://localhost:3000 (no path, no wildcard), or null for a page opened from a file (reads /api/live and /api/strategy only)",
    );
  }
  return canonical;
}

/** A replay speed: a multiple of real time in (0, 1000], or `max`. */
export function speed(value: string): ReplaySpeed {
  if (value === "max") return "max";
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1000) {
    throw new InvalidArgumentError('must be a number in (0, 1000] or "max"');
  }
  return n;
}

/** A whole number 1..9999. */
export function positive(value: string): number {
  if (!/^[1-9]\d{0,3}$/.test(value)) throw new InvalidArgumentError("must be a whole number >= 1");
  return Number(value);
}

/**
 * The number of an id given as a command's argument (`laps 12`, `export lap
 * 40`): digits without a leading zero, at least 1. Otherwise an `Error`
 * saying "`what` id must be a positive integer, not "`value`"", thrown from
 * the command's action (not as a flag parser's rejection), so it is checked
 * before the command opens the store.
 */
export function idArgument(value: string, what: string): number {
  if (!/^[1-9]\d*$/.test(value)) {
    throw new Error(`${what} id must be a positive integer, not "${value}"`);
  }
  return Number(value);
}

/** A whole number 0..999. */
export function count(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError("must be a whole number 0..999");
  return Number(value);
}

/**
 * One `--forward HOST:PORT[:FORMAT]` target (format A when left out): HOST an
 * IPv4 address or `localhost` (taken as 127.0.0.1) that is loopback or on
 * this machine's subnet, as the relay's rule for heartbeats. `nets` defaults
 * to the machine's.
 */
export function forwardTarget(value: string, nets = machineNets()): RelayTarget {
  const parts = /^([^:]+):(\d{1,5})(?::(.))?$/.exec(value);
  if (!parts || Number(parts[2]) < 1 || Number(parts[2]) > 65535) {
    throw new InvalidArgumentError(
      "must be HOST:PORT or HOST:PORT:FORMAT, such as 127.0.0.1:20777:A (port 1..65535)",
    );
  }
  const hostname = parts[1] === "localhost" ? "127.0.0.1" : parts[1];
  if (ipv4Value(hostname) === null) {
    throw new InvalidArgumentError(`HOST must be an IPv4 address or localhost, got ${parts[1]}`);
  }
  const letter = parts[3] ?? "A";
  if (!isPacketFormat(letter)) {
    throw new InvalidArgumentError(`FORMAT must be one of A, B, ~, C, got ${letter}`);
  }
  if (!relayPeerAllowed(hostname, nets)) {
    throw new InvalidArgumentError(
      `HOST ${hostname} is neither loopback nor on this machine's subnet (${
        describeNets(nets)
      }); the logger relays only there`,
    );
  }
  return { hostname, port: Number(parts[2]), format: letter };
}

/** Adds one `--forward` target to those before it, at most {@linkcode MAX_RELAY_APPS}. */
export function collectForward(value: string, previous: RelayTarget[]): RelayTarget[] {
  if (previous.length >= MAX_RELAY_APPS) {
    throw new InvalidArgumentError(`at most ${MAX_RELAY_APPS} targets`);
  }
  return [...previous, forwardTarget(value)];
}

/** Adds the one `--data` option; `fallback` is the default store (the user's data dir). */
export function dataOption(cmd: Command, fallback: string = defaultDataDir()): Command {
  return cmd.option("--data <dir>", 'data directory, or ":memory:"', fallback);
}

/** The flags every logger face shares (`start`, `serve`, `demo`): its API and its record file. */
export interface ServerFlags {
  host: string;
  port: number;
  data: string;
  token?: string;
  cors?: string;
  record?: string;
  recordMaxMb: number;
  recordKeep: number;
  /** `--relay PORT`: take other apps' heartbeats there. */
  relay?: number;
  /** `--forward` targets, in the order given. */
  forward: RelayTarget[];
  spill?: string;
  /** `--lan`: serve on every interface, so phones on the network open the live page. */
  lan?: boolean;
  /** `--hub URL`: the team hub recorded laps are pushed to. */
  hub?: string;
  /** `--hub-token TOKEN`: this driver's token at the hub. */
  hubToken?: string;
  /** `--share-live`: the live frames go to the hub (needs a hub). */
  shareLive?: boolean;
}

/** The flags of a logger command (`start`, `serve`). */
export interface LoggerFlags extends ServerFlags {
  console?: string;
  consolePort: number;
  udpPort: number;
  format: PacketFormat;
}

/**
 * Adds the flags of the logger's API and record file to `cmd`: the one
 * definition `start`, `serve` and `demo` share, so each spells and checks
 * them alike.
 */
export function serverOptions(cmd: Command): Command {
  return cmd
    .option("--host <address>", "HTTP bind address", "127.0.0.1")
    .option(
      "--lan",
      "serve the live page and the read routes on the network (binds 0.0.0.0; changes still need --token)",
    )
    .option("--port <port>", "HTTP port", port, 8765)
    .option(
      "--token <token>",
      "bearer token other machines must send to make changes (default: $SIM_DATALOGGER_TOKEN; none: refused)",
    )
    .option(
      "--cors <origin>",
      "allow this one browser origin, such as http://localhost:3000 (null: pages opened from a file read the live frames)",
      origin,
    )
    .option(
      "--record <file>",
      "write every datagram received (raw, with arrival times) to FILE, for replay or import",
    )
    .option("--record-max-mb <n>", "start a new record file past N MiB", positive, 256)
    .option("--record-keep <n>", "full record files kept as FILE.1..FILE.N", count, 4)
    .option(
      "--spill <dir>",
      "where laps wait when the store's disk is full (default: the OS temp directory)",
    )
    .option(
      "--relay <port>",
      "relay the console's packets to apps that heartbeat this UDP port, as they would the console's 33739",
      port,
    )
    .addOption(
      new Option(
        "--forward <host:port[:format]>",
        "also send every packet to this listening app (format A unless given; repeatable)",
      ).argParser(collectForward).default([] as RelayTarget[], "none"),
    )
    .option(...HUB_OPTION)
    .option(...HUB_TOKEN_OPTION)
    .option(
      "--share-live",
      "send the live frames to the hub (up to 10 a second) for a team-mate to engineer; needs --hub",
    );
}

/** `--hub`, as every command that talks to the team hub spells it. */
export const HUB_OPTION = [
  "--hub <url>",
  "the team hub recorded laps are pushed to (default: $SIM_DATALOGGER_HUB)",
] as const;

/** `--hub-token`, as every command that talks to the team hub spells it. */
export const HUB_TOKEN_OPTION = [
  "--hub-token <token>",
  "this driver's token at the hub (default: $SIM_DATALOGGER_HUB_TOKEN)",
] as const;

/**
 * The hub of `flags` (`--hub`, `--hub-token`, else their environment
 * variables), checked: null when none is set; an Error naming the flag and
 * the rule for a bad URL or a missing token, or for `--share-live` without
 * a hub (it is marked `shareLive` otherwise).
 */
export function hubFlags(
  flags: { hub?: string; hubToken?: string; shareLive?: boolean },
): HubSettings | null {
  const settings = hubSettings(
    flags.hub ?? Deno.env.get("SIM_DATALOGGER_HUB"),
    flags.hubToken ?? Deno.env.get("SIM_DATALOGGER_HUB_TOKEN"),
  );
  if (!flags.shareLive) return settings;
  if (settings === null) {
    throw new Error(
      "--share-live needs --hub URL and --hub-token TOKEN (or SIM_DATALOGGER_HUB and " +
        "SIM_DATALOGGER_HUB_TOKEN): the live frames go to the team hub",
    );
  }
  return { ...settings, shareLive: true };
}

/** Adds the logger's flags to `cmd`: the console's, then {@linkcode serverOptions}. */
export function loggerOptions(cmd: Command): Command {
  return serverOptions(dataOption(
    cmd
      .option("--console <ip>", "the PlayStation's address (heartbeats go there)", address)
      .option("--console-port <port>", "the console's heartbeat port", port, CONSOLE_PORT)
      .option("--udp-port <port>", "local UDP port for telemetry", port, TELEMETRY_PORT)
      .addOption(
        new Option("--format <letter>", "packet format to request: A, B, ~ or C")
          .default("C").argParser(format),
      ),
  ));
}
