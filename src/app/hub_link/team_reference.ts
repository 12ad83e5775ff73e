/**
 * A teammate as the reference while driving (`--reference team`, #38): the
 * team's best lap at a circuit in a car, fetched from the hub
 * (`GET {hub}/api/leaderboard?circuit=SLUG&car=ID`, then
 * `GET {hub}/api/laps/{lap_id}`), decoded by the lap-file reader, and kept
 * in the store keyed by circuit and car (src/storage/team_laps.ts), so an
 * offline start still has it.
 *
 * Reading the kept lap ({@linkcode TeamReference.cached}) never touches the
 * network. Asking the hub ({@linkcode TeamReference.refresh}) is for the
 * background, at a session's naming and each lap's end: one request per
 * circuit and car in flight, a time limit on each, and a hub that is down
 * or answers nonsense leaves the kept lap as it was (said once in the log
 * until it answers again). Recording and ingest never wait for it.
 *
 * @module
 */
import { parseLapFile } from "../../core/laps/lap_file.ts";
import type { LapSamples } from "../../core/laps/columns.ts";
import { messageOf } from "../../core/errors.ts";
import { getTeamLap, putTeamLap, type TeamLapHead } from "../../storage/team_laps.ts";
import type { AppDeps } from "../deps.ts";
import type { HubSettings } from "../../core/hub/hub_settings.ts";
import { lapFileUrl, leaderboardUrl, meName, meUrl, topRow } from "./hub_answers.ts";

/** The team's best lap at a circuit in a car, ready to drive against. */
export interface TeamLap {
  driver: string;
  /** The team's best is the driver's own (the hub token's driver drove it). */
  mine: boolean;
  hubLapId: string;
  timeMs: number;
  /** The circuit's name as the lap file carries it ("" when the hub's lap had none). */
  trackName: string;
  samples: LapSamples;
}

/** Options of {@linkcode TeamReference}. */
export interface TeamReferenceOptions {
  /** The fetch to use; the global one by default (tests pass one that counts). */
  fetch?: typeof fetch;
  /** Longest wait for one hub request, ms (default 10 s). */
  timeoutMs?: number;
}

/** The team's best laps from the hub, kept in the store. */
export class TeamReference {
  readonly #deps: Pick<AppDeps, "kv" | "log" | "now">;
  readonly #link: HubSettings;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #memory = new Map<string, TeamLap | null>();
  readonly #inFlight = new Map<string, Promise<boolean>>();
  readonly #abort = new AbortController();
  #failing = false;
  /** The hub token's driver, once the hub said. */
  #me: string | null = null;

  /** Asks the hub at `link` on behalf of the store in `deps`. */
  constructor(
    deps: Pick<AppDeps, "kv" | "log" | "now">,
    link: HubSettings,
    opts: TeamReferenceOptions = {},
  ) {
    this.#deps = deps;
    this.#link = link;
    this.#fetch = opts.fetch ?? fetch;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /**
   * The team's best at `circuit` in `car` as last fetched (this run or an
   * earlier one), or null when none was. Never asks the hub; a kept lap
   * the lap-file reader refuses reads as none.
   */
  async cached(circuit: string, car: number): Promise<TeamLap | null> {
    const key = `${circuit} ${car}`;
    if (this.#memory.has(key)) return this.#memory.get(key)!;
    const kept = await getTeamLap(this.#deps.kv, circuit, car);
    let lap: TeamLap | null = null;
    if (kept !== null) {
      try {
        lap = decode(kept.head, new TextDecoder().decode(kept.file));
      } catch (err) {
        this.#deps.log.warn(`the team lap kept for ${circuit} cannot be read`, err);
      }
    }
    this.#memory.set(key, lap);
    return lap;
  }

  /**
   * Asks the hub for the team's best at `circuit` in `car` and keeps it
   * when it is another lap than the one kept. Resolves true when the kept
   * lap changed; never rejects (a failure goes to the log, once until the
   * hub answers again). A call while one for the same circuit and car is
   * under way shares it.
   */
  refresh(circuit: string, car: number): Promise<boolean> {
    const key = `${circuit} ${car}`;
    const running = this.#inFlight.get(key);
    if (running) return running;
    const task = this.#refresh(circuit, car).then(
      (changed) => {
        if (this.#failing) this.#deps.log.warn(`the hub answers again (${this.#link.url})`);
        this.#failing = false;
        return changed;
      },
      (err) => {
        if (!this.#failing && !this.#abort.signal.aborted) {
          this.#deps.log.warn(
            `the team's best lap could not be fetched from ${this.#link.url}: ${messageOf(err)}`,
          );
        }
        this.#failing = true;
        return false;
      },
    ).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, task);
    return task;
  }

  /** Resolves once every refresh under way has ended. */
  async settled(): Promise<void> {
    await Promise.all(this.#inFlight.values());
  }

  /** Cancels the requests under way; nothing more is kept after. */
  close(): void {
    this.#abort.abort();
  }

  async #refresh(circuit: string, car: number): Promise<boolean> {
    const board = await this.#get(leaderboardUrl(this.#link.url, circuit, car));
    const row = topRow(board, car);
    if (row === null) return false;
    const kept = await this.cached(circuit, car);
    if (kept !== null && kept.hubLapId === row.lap_id && kept.timeMs === row.best_ms) return false;
    this.#me ??= meName(await this.#get(meUrl(this.#link.url)));
    const text = await this.#text(lapFileUrl(this.#link.url, row.lap_id));
    const head: TeamLapHead = {
      driver: row.driver,
      mine: row.driver === this.#me,
      hub_lap_id: row.lap_id,
      time_ms: row.best_ms,
      fetched_at: this.#deps.now().toISOString(),
    };
    // Refused here, a lap the reader cannot take is never kept.
    const lap = decode(head, text);
    if (this.#abort.signal.aborted) return false;
    await putTeamLap(this.#deps.kv, circuit, car, head, new TextEncoder().encode(text));
    this.#memory.set(`${circuit} ${car}`, lap);
    return true;
  }

  async #get(url: URL): Promise<unknown> {
    return JSON.parse(await this.#text(url));
  }

  async #text(url: URL): Promise<string> {
    const res = await this.#fetch(url, {
      headers: { authorization: `Bearer ${this.#link.token}`, accept: "application/json" },
      signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(this.#timeoutMs)]),
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url.pathname} answered ${res.status} ${res.statusText}`);
    return body;
  }
}

/** The lap of lap-file text `text` kept under `head`, through the lap-file reader. */
function decode(head: TeamLapHead, text: string): TeamLap {
  const parsed = parseLapFile(JSON.parse(text));
  return {
    driver: head.driver,
    mine: head.mine,
    hubLapId: head.hub_lap_id,
    timeMs: head.time_ms,
    trackName: parsed.track_name,
    samples: parsed.samples,
  };
}
