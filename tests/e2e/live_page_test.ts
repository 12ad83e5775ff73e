/// <reference lib="dom" />
/**
 * The live page in a real browser (headless Debian chromium) against a real
 * logger fed over UDP by the fake console: a phone (390x844) and a tablet
 * (1024x768) follow the synthetic drive, the brake marker fills before a
 * braking point, a stopped drive says so, a restarted logger is found again,
 * and the speech and tones the pages ask for are recorded (one device
 * speaks; the settings survive a reload). The drive is held by the
 * logger's state (never by the wall clock) wherever the test checks a value.
 *
 * @module
 */
import { ownLabel } from "../../src/app/live/reference_label.ts";
import { strict as assert } from "node:assert";
import type { Page } from "puppeteer-core";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import type { Logger } from "../../src/cli/logger_process.ts";
import { runFakeConsole } from "../../src/cli/fake_console.ts";
import { openReplaySource } from "../../src/cli/replay_source.ts";
import type { CornerReport } from "../../src/core/analysis/types.ts";
import {
  biggestLoss,
  gap,
  lapSentence,
  lapTime,
  secondsToBrake,
  shiftLights,
  SPEECH_LEAD_S,
  TONE_STEPS_S,
} from "../../src/web/cues.js";
import { launchChromium, NO_CHROMIUM, percentile, stubSpeech } from "./_browser.ts";
import { getJson, HANG_MS, settle, startTestLogger } from "./harness.ts";

if (NO_CHROMIUM) console.log(`live page browser test skipped: ${NO_CHROMIUM}`);

interface Spoken {
  text: string;
  next_brake: { corner: number; distance_m: number } | null;
  speed_kmh: number | null;
}

interface Tone {
  hz: number;
  next_brake: { corner: number; distance_m: number } | null;
  speed_kmh: number | null;
}

/** What the page shows of the values a frame carries. */
async function shown(page: Page) {
  return await page.evaluate(() => ({
    packet: (window as unknown as { liveStats: { packet: number } }).liveStats.packet,
    delta: document.getElementById("delta")!.textContent,
    gear: document.getElementById("gear")!.textContent,
    speed: document.getElementById("speed")!.textContent,
    predicted: document.getElementById("predicted")!.textContent,
    lights: document.querySelectorAll("#shift i.on").length,
    brake: document.getElementById("brake-label")!.textContent,
  }));
}

/** What a page must show for `f`. */
function expected(f: LiveFrame) {
  return {
    packet: f.packet_id,
    delta: gap(f.delta.delta_ms),
    gear: f.gear === 0 ? "N" : String(f.gear),
    speed: String(Math.round(f.speed_kmh)),
    predicted: lapTime(f.delta.predicted_lap_ms),
    lights: shiftLights(f.rpm, f.rpm_alert, 10),
    brake: f.next_brake
      ? `${f.next_brake.name} ${Math.round(f.next_brake.distance_m)} m`
      : "no brake marker",
  };
}

async function waitDrawn(page: Page, packet: number): Promise<void> {
  await page.waitForFunction(
    (p: number) => (window as unknown as { liveStats: { packet: number } }).liveStats.packet === p,
    { timeout: HANG_MS, polling: 20 },
    packet,
  );
}

async function stateText(page: Page): Promise<string> {
  return await page.$eval("#state", (e) => e.textContent ?? "");
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

Deno.test({
  name: "the live page in chromium follows a drive, marks braking, speaks, and reconnects",
  ignore: NO_CHROMIUM !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const started = performance.now();
  // A browser each: a page in a background tab gets no animation frames, so would draw nothing.
  const browsers = await Promise.all([launchChromium(), launchChromium()]);
  const source = await openReplaySource("synthetic:7", { laps: 2 });
  const listening = Promise.withResolvers<number>();
  const pagesReady = Promise.withResolvers<void>();
  const held = Promise.withResolvers<LiveFrame>();
  const release = Promise.withResolvers<void>();
  const realTimeStarted = Promise.withResolvers<void>();
  const realTimeDone = Promise.withResolvers<void>();
  let logger: Logger | null = null;
  let pages: Page[] = [];
  /**
   * Waits until every page has received frame `pid` or a later one (a page never falls so far
   * behind that the logger drops it, whatever the load), and returns at once for `pid` < 0.
   */
  const pagesHave = async (pid: number) => {
    for (const page of pages) {
      await page.waitForFunction(
        (p: number) =>
          ((window as unknown as { liveStats: { frame: { packet_id: number } | null } }).liveStats
            .frame?.packet_id ?? -1) >= p,
        { timeout: HANG_MS, polling: 5 },
        pid,
      );
    }
  };
  // Phases of the drive, moved on by what the logger shows (never by a timer).
  let phase: "reference" | "approach" | "realtime" | "rest" = "reference";
  let realStart = 0;
  let realSent = 0;
  const REAL_TIME_PACKETS = 360;
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    speed: "max",
    onListen: (p) => listening.resolve(p),
    backpressure: async (sent) => {
      // Nothing is driven before both pages listen, so they hear every lap end.
      await pagesReady.promise;
      if (!logger) return;
      const frames = logger.app.frames as LiveFrameService;
      if (phase === "reference" || phase === "approach") {
        // The reference (lap 1) is read when the lap is stored: hold until it is, so the
        // frames of lap 2 carry the delta and the brake marker whatever the load.
        if (sent % 30 === 0) {
          await settle(logger, sent);
          await frames.settled();
          await pagesHave((frames.latest()?.packet_id ?? 0) - 60);
        }
        const f = frames.latest();
        if (phase === "reference" && f?.next_brake && f.lap === 2) phase = "approach";
        // Real time from 3 to 4 s before a braking point on.
        if (phase === "approach" && f?.next_brake) {
          const t = secondsToBrake(f.next_brake, f.speed_kmh);
          if (t > 3 && t < 4) {
            phase = "realtime";
            realStart = performance.now();
            realTimeStarted.resolve();
          }
        }
        return;
      }
      if (phase === "realtime") {
        const due = realStart + (realSent++ / 60) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (realSent === REAL_TIME_PACKETS) {
          await settle(logger, sent);
          realTimeDone.resolve();
          held.resolve(frames.latest()!);
          await release.promise;
          phase = "rest";
        }
        return;
      }
      // The rest of lap 2 as fast as the pages keep up.
      if (sent % 30 === 0) {
        await settle(logger, sent);
        await pagesHave((frames.latest()?.packet_id ?? 0) - 60);
      }
    },
  });
  logger = await startTestLogger(await listening.promise);
  const url = logger.http.url;
  const port = logger.http.port;
  const phone = await browsers[0].newPage();
  const tablet = await browsers[1].newPage();
  pages = [phone, tablet];
  try {
    await phone.setViewport({ width: 390, height: 844 });
    await tablet.setViewport({ width: 1024, height: 768 });
    await stubSpeech(phone, true);
    await stubSpeech(tablet, true);
    await phone.goto(`${url}/`);
    await phone.waitForFunction(() =>
      document.getElementById("voice-toggle")!.textContent === "voice on"
    );
    // The tablet switches speech on later: it takes the voice, the phone falls silent.
    await tablet.goto(`${url}/`);
    await tablet.waitForFunction(() =>
      document.getElementById("voice-toggle")!.textContent === "voice on"
    );
    await phone.waitForFunction(() =>
      document.getElementById("voice-toggle")!.textContent === "voice: another device"
    );
    pagesReady.resolve();

    // Real time up to and past a braking point: the bar fills, the pages keep up.
    await realTimeStarted.promise;
    const cpu0 = await tablet.metrics();
    const wall0 = performance.now();
    await tablet.evaluate(() =>
      (window as unknown as { liveStats: { latencies: number[] } }).liveStats.latencies.length = 0
    );
    await phone.evaluate(() =>
      (window as unknown as { liveStats: { latencies: number[] } }).liveStats.latencies.length = 0
    );
    // Every draw of the phone's brake bar, with the corner it counted down to.
    await phone.evaluate(() => {
      const w = window as unknown as {
        fills: { corner: number | null; fill: number }[];
        liveStats: { frame: { next_brake: { corner: number } | null } };
      };
      w.fills = [];
      const bar = document.getElementById("brake-bar")!;
      new MutationObserver(() =>
        w.fills.push({
          corner: w.liveStats.frame.next_brake?.corner ?? null,
          fill: Number(bar.dataset.fill),
        })
      ).observe(bar, { attributes: true, attributeFilter: ["data-fill"] });
    });
    await realTimeDone.promise;
    const fills = await phone.evaluate(() =>
      (window as unknown as { fills: { corner: number | null; fill: number }[] }).fills
    );
    const cpu1 = await tablet.metrics();
    const wall = (performance.now() - wall0) / 1000;
    const cpu = ((cpu1.TaskDuration ?? 0) - (cpu0.TaskDuration ?? 0)) / wall;
    const latencies = [
      ...await phone.evaluate(() =>
        (window as unknown as { liveStats: { latencies: number[] } }).liveStats.latencies
      ),
      ...await tablet.evaluate(() =>
        (window as unknown as { liveStats: { latencies: number[] } }).liveStats.latencies
      ),
    ];
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    console.log(
      `live page at 60 Hz: ${latencies.length} draws, arrival to draw p50 ${p50.toFixed(1)} ms, ` +
        `p95 ${p95.toFixed(1)} ms; tablet page CPU ${(cpu * 100).toFixed(1)} % of a core`,
    );
    // The target (p95 <= 50 ms) is measured by bench/live_page_latency.ts on a quiet machine;
    // here only what a driver would notice at once on a busy one.
    assert.ok(latencies.length >= 120, `${latencies.length} draws`);
    assert.ok(p95 < 500, `p95 ${p95} ms`);
    // The bar filled towards a braking point: low, then nearly full, for the same corner.
    const filled = fills.some((a, i) =>
      a.corner !== null && a.fill < 0.5 &&
      fills.slice(i).some((b) => b.corner === a.corner && b.fill >= 0.9)
    );
    assert.ok(filled, JSON.stringify(fills.filter((_, i) => i % 10 === 0)));

    // Held: both pages show exactly the logger's newest frame, then say telemetry stopped.
    const last = await held.promise;
    // The shift light's range is the packet's own.
    const raw = logger.app.live.lastFrame!;
    assert.deepEqual(last.rpm_alert, {
      min: Math.round(raw.rpmAlertMin),
      max: Math.round(raw.rpmAlertMax),
    });
    assert.ok(last.rpm_alert.max > last.rpm_alert.min, JSON.stringify(last.rpm_alert));
    for (const page of [phone, tablet]) {
      await waitDrawn(page, last.packet_id);
      assert.deepEqual(await shown(page), expected(last));
      assert.notEqual(last.delta.delta_ms, null);
    }
    // The header: the session and circuit as the logger knows them, and what the delta is against.
    const session = logger.app.live.session!;
    const where = `session ${session.id}: ${
      session.track_name || "unnamed circuit"
    } · ${session.car_name}`;
    // Named by its number in this session, never by its lap id.
    const [ref] = await getJson<{ session_id: number; number: number }[]>(
      logger,
      `/api/laps?ids=${last.delta.reference_lap_id}`,
    );
    assert.equal(ref.session_id, session.id);
    // The logger's own words for the reference (the frame's reference_label), as the page shows them.
    assert.equal(
      last.delta.reference_label,
      ownLabel(session.track_name, last.delta.reference_lap_ms!),
    );
    const against = `vs ${last.delta.reference_label}`;
    await phone.waitForFunction(
      (w: string, a: string) =>
        document.getElementById("where")!.textContent === w &&
        document.getElementById("reference")!.textContent === a,
      { timeout: HANG_MS, polling: 50 },
      where,
      against,
    );
    await phone.waitForFunction(
      () => /^no telemetry for \d+ s$/.test(document.getElementById("stale")!.textContent ?? ""),
      { timeout: HANG_MS, polling: 100 },
    );
    assert.match(await stateText(tablet), /^(live|no telemetry for \d+ s)$/);
    // The driver switches the tablet's brake cue to tones: a countdown from here on, no "brake".
    const spokenBeforeTones = await tablet.evaluate(() =>
      (window as unknown as { spoken: unknown[] }).spoken.length
    );
    await tablet.select("#set-mode", "tones");
    release.resolve();

    // The drive ends (lap 2 complete): the pages show its last frame; the tablet spoke.
    const result = await replay;
    await settle(logger, result.sent);
    const end = logger.app.frames.latest()!;
    for (const page of [phone, tablet]) {
      await waitDrawn(page, end.packet_id);
      assert.deepEqual(await shown(page), expected(end));
    }
    const laps = await logger.app.sessions.laps(logger.app.live.session!.id);
    assert.equal(laps.length, 2);
    const report = await getJson<CornerReport>(
      logger,
      `/api/analysis/corners?lap=${laps[1].id}&ref=${laps[0].id}`,
    );
    // Lap 1 had nothing to race against: its time alone. Lap 2: time, gap, and its worst corner.
    const wanted = [
      lapSentence(laps[0].time_ms, null),
      lapSentence(laps[1].time_ms, laps[0].time_ms),
      biggestLoss(report.corners),
    ].filter((x) => x !== null);
    await tablet.waitForFunction(
      (n: number) =>
        (window as unknown as { spoken: { text: string }[] }).spoken.filter((s) =>
          s.text !== "brake"
        )
          .length >= n,
      { timeout: HANG_MS, polling: 50 },
      wanted.length,
    );
    const spoken = await tablet.evaluate(() => (window as unknown as { spoken: Spoken[] }).spoken);
    const phoneSpoken = await phone.evaluate(() =>
      (window as unknown as { spoken: Spoken[] }).spoken
    );
    console.log(`spoken: ${JSON.stringify(spoken.map((s) => s.text))}`);
    assert.deepEqual(phoneSpoken, []);
    assert.deepEqual(spoken.filter((s) => s.text !== "brake").map((s) => s.text), wanted);
    const brakes = spoken.filter((s) => s.text === "brake");
    assert.ok(brakes.length >= 1, "no brake call");
    assert.deepEqual(spoken.slice(spokenBeforeTones).filter((s) => s.text === "brake"), []);
    // Tones: each at most 1 s before a braking point, the long one (1,320 Hz) at it.
    const tones = await tablet.evaluate(() => (window as unknown as { tones: Tone[] }).tones);
    console.log(`tones: ${tones.length}, ${tones.filter((x) => x.hz === 1320).length} long`);
    assert.ok(tones.some((x) => x.hz === 1320), JSON.stringify(tones));
    for (const x of tones) {
      const t = secondsToBrake(x.next_brake!, x.speed_kmh!);
      const lead = x.hz === 1320 ? TONE_STEPS_S[2] : TONE_STEPS_S[0];
      assert.ok(t <= lead && t > 0, `tone of ${x.hz} Hz ${t} s out`);
    }
    for (const b of brakes) {
      // Said within the lead (one 60 Hz frame of slack), before the point was passed.
      const t = secondsToBrake(b.next_brake!, b.speed_kmh!);
      assert.ok(t <= SPEECH_LEAD_S + 1 / 60 && t > 0, `brake said ${t} s out`);
    }

    // The logger restarts on the same port: the pages notice, then find it again by themselves.
    const connects = await phone.evaluate(() =>
      (window as unknown as { liveStats: { connects: number } }).liveStats.connects
    );
    await (logger.app.frames as LiveFrameService).settled();
    await logger.close();
    await phone.waitForFunction(
      () => document.getElementById("state")!.textContent === "reconnecting",
      { timeout: HANG_MS, polling: 50 },
    );
    const again = await openReplaySource("synthetic:7", { laps: 1 });
    const stop = new AbortController();
    const listening2 = Promise.withResolvers<number>();
    const replay2 = runFakeConsole({
      hostname: "127.0.0.1",
      port: 0,
      packets: again.packets,
      speed: 1,
      signal: stop.signal,
      onListen: (p) => listening2.resolve(p),
    });
    logger = await startTestLogger(await listening2.promise, undefined, { port });
    for (const page of [phone, tablet]) {
      await page.waitForFunction(
        (n: number) =>
          (window as unknown as { liveStats: { connects: number } }).liveStats.connects > n &&
          document.getElementById("state")!.textContent === "live",
        { timeout: HANG_MS, polling: 50 },
        connects,
      );
    }
    // The device keeps its settings: reloaded, the tablet has speech on, tones, and the voice.
    await tablet.reload();
    await tablet.waitForFunction(
      () => document.getElementById("voice-toggle")!.textContent === "voice on",
      { timeout: HANG_MS, polling: 50 },
    );
    assert.deepEqual(
      await tablet.evaluate(() => ({
        speak: (document.getElementById("set-speak") as HTMLInputElement).checked,
        mode: (document.getElementById("set-mode") as HTMLSelectElement).value,
        verbosity: (document.getElementById("set-verbosity") as HTMLSelectElement).value,
        volume: (document.getElementById("set-volume") as HTMLInputElement).value,
      })),
      { speak: true, mode: "tones", verbosity: "coach", volume: "0.8" },
    );
    stop.abort();
    await replay2;
    console.log(`live page test took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    for (const browser of browsers) await browser.close();
    await logger?.close();
  }
});
