/**
 * Shared helpers of the dashboard tests: an in-memory app fed with real
 * frames, a sized Ink render, and waiting for text to appear.
 *
 * @module
 */
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import { EventEmitter } from "node:events";
import { stripVTControlCharacters } from "node:util";
import type { ReactNode } from "react";
import { render } from "ink";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { TelemetrySource, TelemetryStatus } from "../../src/app/live/telemetry_source.ts";
import { consoleLog } from "../../src/server/console_log.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../src/core/gt7/decode.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import type { ReferenceIndex } from "../../src/core/identify/reference_index.ts";
import { readGzFixture } from "../_fixtures.ts";

/**
 * A fresh app over an in-memory store; `close` closes the store. Its
 * reference lines are built before it is returned, so live naming follows a
 * drive from its first frame (and not from wherever the build ended).
 * `references` replaces the lines the project ships.
 */
export async function memoryApp(
  opts: { references?: ReferenceIndex } = {},
): Promise<{ app: App; close(): void }> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({
    kv,
    now: () => new Date("2026-11-21T12:00:00Z"),
    log: consoleLog,
    references: opts.references,
  });
  await app.tracks.warmReferences();
  return { app, close: () => kv.close() };
}

const captures = new Map<string, Frame[]>();

/** The decoded frames of a shared capture (cached across tests of a file). */
export function frames(file: string): Frame[] {
  let list = captures.get(file);
  if (!list) {
    list = parseCapture(readGzFixture(file)).packets.map(decodeFrame);
    captures.set(file, list);
  }
  return list;
}

/** Suzuka, format A: run-up, one lap of 1:39.036, 103 packets of the next. */
export const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";
/** Spa, format C: one lap of 1:55.244 ending at the last packet. */
export const SPA = "gt7/spa-full-lap.C.gt7.gz";

/** Ingests `list` into the live session and waits for the writes. */
export async function feed(app: App, list: readonly Frame[]): Promise<void> {
  for (const f of list) app.live.ingest(f);
  await app.live.flush();
}

/** A telemetry source reporting `status` (merged over a connected default). */
export function fakeTelemetry(status: Partial<TelemetryStatus> = {}): TelemetrySource {
  const full: TelemetryStatus = {
    connected: true,
    console: "192.168.1.30",
    format: "A",
    listen: "0.0.0.0:33740",
    packets_received: 1000,
    decoded: 998,
    rejected_size: 1,
    rejected_magic: 1,
    rejected: 2,
    duplicates: 0,
    missing: 3,
    packet_format: "A",
    packets_per_second: 59.6,
    heartbeats_sent: 10,
    last_packet_at: "2026-11-21T12:00:00.000Z",
    ...status,
  };
  return { status: () => full, close: () => Promise.resolve() };
}

/** `text` without terminal colour codes. */
export function plain(text: string | undefined): string {
  return stripVTControlCharacters(text ?? "");
}

/** Waits until `read()` (colours stripped) satisfies `ok`; returns it, or throws after `ms`. */
export async function waitFor(
  read: () => string | undefined,
  ok: (text: string) => boolean,
  ms = 10_000,
): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = plain(read());
    if (ok(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out; last frame:\n${text}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits until `count` key handler changes (mounts, turning on or off) made
 * after `since` (a {@linkcode keyHandlerChanges} reading taken before what
 * causes them) took effect, so the next key meets the handlers meant for it.
 */
export async function keysSettled(since: number, count = 1, ms = 10_000): Promise<void> {
  await waitFor(() => String(keyHandlerChanges()), (n) => Number(n) >= since + count, ms);
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A stdout double of a given size that keeps every frame written. */
export class FakeStdout extends EventEmitter {
  frames: string[] = [];
  constructor(public columns: number, public rows: number) {
    super();
  }
  write = (frame: string, done?: () => void) => {
    // An empty write is Ink's barrier before it reports the app ended.
    if (frame !== "") this.frames.push(frame);
    done?.();
    return true;
  };
}

/** A stdin double: `write` delivers keys as a terminal would. */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  #data: string | null = null;
  write(data: string) {
    this.#data = data;
    this.emit("readable");
    this.emit("data", data);
  }
  read = () => {
    const d = this.#data;
    this.#data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** A rendered tree on a terminal of the given size. */
export interface SizedRender {
  lastFrame(): string | undefined;
  stdin: FakeStdin;
  stdout: FakeStdout;
  unmount(): void;
  waitUntilExit(): Promise<unknown>;
}

/** Renders `tree` as ink-testing-library does, on a `columns` x `rows` terminal. */
export function renderSized(tree: ReactNode, columns: number, rows: number): SizedRender {
  const stdout = new FakeStdout(columns, rows);
  const stdin = new FakeStdin();
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout(columns, rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    lastFrame: () => stdout.frames.at(-1),
    stdin,
    stdout,
    unmount: () => instance.unmount(),
    waitUntilExit: () => instance.waitUntilExit(),
  };
}

/** Types a key: arrows and the like by name, anything else as is. */
export const KEY = {
  up: "\u001B[A",
  down: "\u001B[B",
  enter: "\r",
  escape: "\u001B",
  backspace: "\u007F",
} as const;

/** What the screen shows after `label` on the first line holding it, or null. */
function fieldAfter(frame: string | undefined, label: string): string | null {
  const line = plain(frame).split("\n").find((l) => l.includes(label));
  return line === undefined ? null : line.slice(line.indexOf(label) + label.length);
}

/**
 * Types `keys` (characters, or {@linkcode KEY}.backspace) into the text
 * field drawn after `label`, which reads `from` now: one key at a time, each
 * sent once the screen shows the one before taken (the field changed and
 * reads what was typed so far), so no key races a redraw. Spaces go with
 * the key after them: the screen does not show a trailing space, so erasing
 * one at the end of a line (nothing drawn after the field) cannot be waited
 * on and must not be asked for. Returns the field's text.
 */
export async function typeInto(
  r: { lastFrame(): string | undefined; stdin: { write(s: string): void } },
  label: string,
  keys: string,
  from = "",
): Promise<string> {
  const groups: string[] = [];
  let spaces = "";
  for (const key of keys) {
    if (key === " ") spaces += key;
    else if (key === KEY.backspace && spaces === "") groups.push(key);
    else {
      groups.push(spaces + key);
      spaces = "";
    }
  }
  if (spaces !== "") groups.push(spaces);
  let value = from;
  for (const group of groups) {
    const before = fieldAfter(r.lastFrame(), label);
    value = group === KEY.backspace ? value.slice(0, -1) : value + group;
    r.stdin.write(group);
    const want = value.trimEnd();
    await waitFor(r.lastFrame, (t) => {
      const now = fieldAfter(t, label);
      return now !== null && now !== before && now.startsWith(want);
    });
  }
  return value;
}
