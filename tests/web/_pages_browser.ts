/**
 * For the analysis pages' browser tests and screenshots: Debian's Chromium
 * driven by puppeteer-core, and a logger on loopback holding real laps (the
 * Broad Bean fixture's four laps, one of them again with 40 packets lost and
 * so incomplete, and the Suzuka capture's lap five times).
 *
 * @module
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import type { App } from "../../src/app/create_app.ts";
import { openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import type { LapSamples } from "../../src/core/laps/columns.ts";
import { broadBeanLaps } from "../core/analysis/_laps.ts";
import { readFixture } from "../_fixtures.ts";

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  try {
    Deno.statSync(CHROMIUM);
    return null;
  } catch {
    return `no Chromium at ${CHROMIUM}: the analysis pages' browser tests are skipped`;
  }
}

/** Runs `fn` with a headless Chromium, closed afterwards whatever happens. */
export async function withChromium<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

/** A page of `browser` at `url`, once its script says it is drawn (`body[data-ready]`). */
export async function openPage(
  browser: Browser,
  url: string,
  size = { width: 1400, height: 1000 },
): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(size);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await waitReady(page, errors);
  return page;
}

/** Waits for the page's script to finish drawing; throws its error when it failed. */
export async function waitReady(page: Page, errors: string[] = []): Promise<void> {
  await page.waitForSelector("body[data-ready]", { timeout: 20_000 });
  const state = await page.evaluate(() => document.body.dataset.ready);
  if (state !== "true") {
    const message = await page.evaluate(() => document.getElementById("message")?.textContent);
    throw new Error(`the page failed: ${message} ${errors.join("; ")}`);
  }
}

/** The laps the test logger holds, by role. */
export interface StoredPageLaps {
  /** The Broad Bean fixture's four laps, in file order (each its own session named Broad Bean Raceway). */
  broadBean: number[];
  /** Broad Bean lap 1 with 40 samples lost, given a faster time: incomplete, never a best. */
  incomplete: number;
  /** The Suzuka capture's lap, imported from the capture, then four more times from its lap file. */
  suzuka: number[];
  /** Broad Bean lap 3 with a steering channel added, moved off every known circuit: unnamed. */
  steered: number;
}

/** The track name the Broad Bean laps are filed under. */
export const BROAD_BEAN = "Broad Bean Raceway";
/** The track name the Suzuka laps are filed under. */
export const SUZUKA = "Suzuka Circuit";

async function send(url: string, method: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Imports a lap file's `lap` as its own session named `track` (null: unnamed); returns the lap's id. */
async function importLap(url: string, lap: unknown, track: string | null): Promise<number> {
  const res = await send(`${url}/api/laps/import`, "POST", {
    format: "sim-datalogger-lap",
    version: 2,
    lap,
  }) as { lap: { id: number }; session: { id: number } };
  if (track !== null) await send(`${url}/api/sessions/${res.session.id}`, "PATCH", { name: track });
  return res.lap.id;
}

/** Broad Bean lap 1 with 40 samples lost after sample 500. */
function holed(samples: LapSamples): LapSamples {
  const out: Record<string, number[]> = {};
  for (const [name, values] of Object.entries(samples as unknown as Record<string, number[]>)) {
    out[name] = [...values.slice(0, 500), ...values.slice(540)];
  }
  return out as unknown as LapSamples;
}

/** Fills the logger at `url` with the real laps of {@linkcode StoredPageLaps}. */
export async function storePageLaps(url: string, app: App): Promise<StoredPageLaps> {
  const bb = broadBeanLaps();
  const broadBean: number[] = [];
  for (const [k, l] of bb.entries()) {
    broadBean.push(
      await importLap(
        url,
        { number: k + 1, time_ms: l.time_ms, car_id: 1549, samples: l.samples },
        BROAD_BEAN,
      ),
    );
  }
  const incomplete = await importLap(url, {
    number: 5,
    time_ms: Math.min(...bb.map((l) => l.time_ms)) - 1000,
    car_id: 1549,
    samples: holed(bb[0].samples),
  }, BROAD_BEAN);
  const result = await app.laps.importCapture(
    openCaptureFile(readFixture("gt7/suzuka-full-lap.A.gt7.gz")),
  );
  const session = result.sessions[0];
  await send(`${url}/api/sessions/${session}`, "PATCH", { name: SUZUKA });
  const [first] = await app.sessions.laps(session);
  const file = await (await fetch(`${url}/api/laps/${first.id}/export.json`)).json();
  const suzuka = [first.id];
  for (let k = 0; k < 4; k++) suzuka.push(await importLap(url, file.lap, SUZUKA));
  const third = bb[2].samples as unknown as Record<string, number[]>;
  // Moved 20 km off, so no circuit's reference line names the session on import: it stays unnamed.
  const away = (values: number[]) => values.map((v) => v + 20_000);
  const steered = await importLap(url, {
    number: 1,
    time_ms: bb[2].time_ms,
    car_id: 1549,
    samples: {
      ...third,
      pos_x: away(third.pos_x),
      pos_z: away(third.pos_z),
      // A steering trace: 0.3 rad either way, one swing per 200 samples (3 dp).
      steer: third.t.map((_, i) => Math.round(300 * Math.sin(i / 32)) / 1000),
    },
  }, null);
  return { broadBean, incomplete, suzuka, steered };
}
