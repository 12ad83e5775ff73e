/**
 * What a logger says at start about the apps it hands the console's packets
 * to (`--relay`, `--forward`): one wording for `start`, `serve` and `demo`, so
 * a driver who asked for a relay sees it was set up whichever command ran it.
 *
 * @module
 */
import type { RelayTarget } from "../capture/relay_hub.ts";
import { MAX_RELAY_APPS } from "../capture/relay_hub.ts";

/**
 * The lines announcing the relay and the forward targets: one for the relay
 * when it listens (`listen`, the bound `HOST:PORT`, or null without
 * `--relay`), then one per forward target in the order given. Empty when
 * neither was asked for.
 */
export function relayLines(listen: string | null, forwards: readonly RelayTarget[]): string[] {
  const lines: string[] = [];
  if (listen) {
    lines.push(
      `relaying the console's packets to apps that heartbeat UDP ${listen} ` +
        `(at most ${MAX_RELAY_APPS})`,
    );
  }
  for (const target of forwards) {
    lines.push(`forwarding every packet to ${target.hostname}:${target.port} as ${target.format}`);
  }
  return lines;
}
