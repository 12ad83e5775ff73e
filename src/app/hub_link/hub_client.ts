/**
 * The logger's client of the team hub's HTTP contract (issue #38,
 * docs/hub.md): push a lap file, push a bundle's votes, fetch the team
 * bundle. Every answer comes back as a {@linkcode HubAnswer}, never a
 * throw, so the sender decides on the status alone: a network failure, a
 * timeout or an abort is status 0.
 *
 * @module
 */
import type { HubSettings } from "../../core/hub/hub_settings.ts";
import { messageOf } from "../../core/errors.ts";

/** Longest a request may take, ms: a lap file of a long lap over a slow uplink. */
export const HUB_TIMEOUT_MS = 60_000;

/** What the hub answered: 2xx with its body, or any other status (0: no answer) with why. */
export type HubAnswer =
  | { ok: true; status: number; body: Uint8Array }
  | { ok: false; status: number; reason: string };

/** Options of {@linkcode HubClient}. */
export interface HubClientOptions {
  /** Longest a request may take, ms ({@linkcode HUB_TIMEOUT_MS} by default). */
  timeoutMs?: number;
}

/** Talks to one hub as one driver. */
export class HubClient {
  readonly #settings: HubSettings;
  readonly #timeoutMs: number;

  /** A client of the hub at `settings.url` signing in with `settings.token`. */
  constructor(settings: HubSettings, opts: HubClientOptions = {}) {
    this.#settings = settings;
    this.#timeoutMs = opts.timeoutMs ?? HUB_TIMEOUT_MS;
  }

  /** The hub's base URL. */
  get url(): string {
    return this.#settings.url;
  }

  /** POST /api/laps with `file` (a lap file as export.json answers it). */
  pushLap(file: unknown, signal?: AbortSignal): Promise<HubAnswer> {
    return this.#send("POST", "/api/laps", JSON.stringify(file), signal);
  }

  /** POST /api/bundles/{slug}/votes with `bundle` (a bundle file whose votes the hub merges). */
  pushVotes(slug: string, bundle: unknown, signal?: AbortSignal): Promise<HubAnswer> {
    const path = `/api/bundles/${encodeURIComponent(slug)}/votes`;
    return this.#send("POST", path, JSON.stringify(bundle), signal);
  }

  /** GET /api/bundles/{slug}: the team's merged bundle. */
  getBundle(slug: string, signal?: AbortSignal): Promise<HubAnswer> {
    return this.#send("GET", `/api/bundles/${encodeURIComponent(slug)}`, null, signal);
  }

  async #send(
    method: string,
    path: string,
    body: string | null,
    signal?: AbortSignal,
  ): Promise<HubAnswer> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#settings.token}` };
    if (body !== null) headers["content-type"] = "application/json";
    try {
      const res = await fetch(this.#settings.url + path, {
        method,
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.ok) return { ok: true, status: res.status, body: bytes };
      return { ok: false, status: res.status, reason: `${res.status}: ${problemText(bytes, res)}` };
    } catch (err) {
      const why = timeout.aborted
        ? `no answer within ${Math.round(this.#timeoutMs / 1000)} s`
        : messageOf(err);
      return { ok: false, status: 0, reason: `hub unreachable: ${why}` };
    }
  }
}

/** The problem document's detail (or title), else the status text. */
function problemText(bytes: Uint8Array, res: Response): string {
  try {
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as {
      detail?: unknown;
      title?: unknown;
    };
    if (typeof doc.detail === "string" && doc.detail !== "") return doc.detail;
    if (typeof doc.title === "string" && doc.title !== "") return doc.title;
  } catch {
    // Not a problem document (a proxy's page): the status text says enough.
  }
  return res.statusText || "refused";
}
