/**
 * Screenshots of the live page for docs/screenshots/: phone portrait
 * (390x844), phone landscape (844x390) and tablet (1024x768), with touch,
 * each in its own headless chromium, from a deterministic drive: the
 * synthetic drive (seed 7, a mistake each lap after the first) into a fresh
 * in-memory logger at 5x real time, held in lap 3 about one second before
 * the braking point of the corner lap 2 lost most at, so the delta, the
 * corner cue over the filling brake bar, the map with the car and the next
 * corner, the sector splits and the shift light all show. The held frame is
 * the same on every run (the drive is held by packet, the reference read
 * settled before it goes on). Not in scripts/page_screenshots.ts: that one
 * photographs stored laps through the analysis pages, and this page needs a
 * drive streaming into a logger.
 *
 * Usage: deno run -A scripts/live_page_screenshots.ts  (needs /usr/bin/chromium)
 *
 * @module
 */
/// <reference lib="dom" />
import type { LiveFrameService } from "../src/app/live/live_frames.ts";
import type { Logger } from "../src/cli/logger_process.ts";
import { runFakeConsole } from "../src/cli/fake_console.ts";
import { openReplaySource } from "../src/cli/replay_source.ts";
import { secondsToBrake } from "../src/web/cues.js";
import { launchChromium, NO_CHROMIUM } from "../tests/e2e/_browser.ts";
import { settle, startTestLogger } from "../tests/e2e/harness.ts";

/** Under docs/screenshots/, with the analysis pages' pictures (scripts/page_screenshots.ts). */
const SHOTS = [
  { file: "live_page_phone_portrait.png", width: 390, height: 844 },
  { file: "live_page_phone_landscape.png", width: 844, height: 390 },
  { file: "live_page_tablet.png", width: 1024, height: 768 },
];
const SPEED = 5;

if (NO_CHROMIUM) {
  console.error(NO_CHROMIUM);
  Deno.exit(1);
}
const browsers = await Promise.all(SHOTS.map(() => launchChromium()));
/** The lap held in: the one after a lap with coaching notes, so its corner cue shows. */
const HOLD_LAP = 3;
const source = await openReplaySource("synthetic:7", { laps: HOLD_LAP, mistakeEveryLap: true });
const listening = Promise.withResolvers<number>();
const ready = Promise.withResolvers<void>();
const held = Promise.withResolvers<number>();
const release = Promise.withResolvers<void>();
let logger: Logger | null = null;
let start = 0;
const replay = runFakeConsole({
  hostname: "127.0.0.1",
  port: 0,
  packets: source.packets,
  speed: "max",
  onListen: (p) => listening.resolve(p),
  backpressure: async (sent) => {
    await ready.promise;
    if (!logger) return;
    if (start === 0) start = performance.now();
    const wait = start + (sent / (60 * SPEED)) * 1000 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // In the held lap every packet is settled before the next, so the held frame is the same each run.
    if (sent % 30 === 0 || logger.app.frames.latest()?.lap === HOLD_LAP) {
      await settle(logger, sent);
      await (logger.app.frames as LiveFrameService).settled();
    }
    const f = logger.app.frames.latest();
    if (
      f && f.lap === HOLD_LAP && f.cue && f.next_brake?.corner === f.cue.n &&
      Math.abs(secondsToBrake(f.next_brake, f.speed_kmh) - 1) < 0.05
    ) {
      await settle(logger, sent);
      const f2 = logger.app.frames.latest()!;
      console.log(`held at packet ${f2.packet_id}, lap ${f2.lap} at ${f2.lap_clock_ms} ms`);
      held.resolve(f2.packet_id);
      await release.promise;
      throw new Error("held for the screenshots");
    }
  },
});
logger = await startTestLogger(await listening.promise);
const pages = await Promise.all(browsers.map((b) => b.newPage()));
for (const [i, page] of pages.entries()) {
  // A phone: touch, mobile viewport; the tablet too.
  await page.setViewport({
    width: SHOTS[i].width,
    height: SHOTS[i].height,
    isMobile: true,
    hasTouch: true,
  });
  await page.goto(`${logger.http.url}/`);
  await page.waitForFunction(() =>
    document.getElementById("state")!.textContent !== "reconnecting"
  );
}
ready.resolve();
// A drive that ends unheld has no cue to show; one held ends by the hold's own error, awaited below.
replay.then(
  () => held.reject(new Error(`no cue shown in lap ${HOLD_LAP} of the drive`)),
  () => {},
);
const packet = await held.promise;
await Promise.all(pages.map((page) =>
  page.waitForFunction(
    (p: number) => (window as unknown as { liveStats: { packet: number } }).liveStats.packet === p,
    { polling: 10 },
    packet,
  )
));
for (const [i, page] of pages.entries()) {
  const path = new URL(`../docs/screenshots/${SHOTS[i].file}`, import.meta.url).pathname;
  await page.screenshot({ path: path as `${string}.png` });
  console.log(`wrote ${path}`);
}
release.resolve();
await replay.catch(() => {});
for (const b of browsers) await b.close();
await logger.close();
