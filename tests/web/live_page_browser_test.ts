/// <reference lib="dom" />
/**
 * The live page in Chromium against a scripted stream: the page's own files
 * (the logger's routes for them) and a `/api/live` whose frames the test
 * writes one by one, so each case is exactly the frames a phone would see
 * (opened mid-lap, a lap ending, a cue before a corner). Every wait is for
 * the page to have drawn a given packet, never for a time.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { Hono } from "hono";
import type { Page } from "puppeteer-core";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import { homeRoutes } from "../../src/server/routes/home.ts";
import { pageRoutes } from "../../src/server/routes/pages.ts";
import { launchChromium, NO_CHROMIUM } from "../e2e/_browser.ts";

if (NO_CHROMIUM) console.log(`live page browser test skipped: ${NO_CHROMIUM}`);

const encoder = new TextEncoder();

/** A frame of lap `lap`, sector `sector`, `clock` ms into the lap, as packet `packet`. */
function frame(
  packet: number,
  lap: number,
  sector: number | null,
  clock: number,
  more: Partial<LiveFrame> = {},
): LiveFrame {
  return {
    packet_id: packet,
    at: new Date().toISOString(),
    speed_kmh: 180,
    gear: 4,
    suggested_gear: null,
    rpm: 6000,
    rev_limit: false,
    rpm_alert: { min: 6500, max: 7500 },
    throttle_pct: 100,
    brake_pct: 0,
    clutch: 0,
    boost_bar: 0,
    fuel: 50,
    fuel_capacity: 100,
    fuel_laps_left: null,
    water_temp_c: 85,
    oil_temp_c: 100,
    oil_pressure_bar: 4,
    tyre_temp_c: [55, 70, 80, 105],
    aids: { tcs: false, asm: false },
    position: { x: 0, y: 0, z: 0 },
    distance_m: 500,
    lap,
    lap_clock_ms: clock,
    race_position: null,
    total_positions: null,
    delta: {
      delta_ms: null,
      predicted_lap_ms: null,
      reference_lap_id: null,
      reference_lap_ms: null,
      reference_label: null,
      reference_driver: null,
    },
    sector,
    strategy: { laps_to_empty: null, lap_time_ms: null } as LiveFrame["strategy"],
    cue: null,
    next_brake: null,
    ...more,
  };
}

/** A fake logger: the live page's files, a session, its sector bests, and a stream the test writes. */
function fakeLogger() {
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const asked: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    asked.push(new URL(c.req.url).pathname);
    await next();
  });
  app.route("/", homeRoutes());
  // The map draws with the compare page's shared_map.js, served with the analysis pages.
  app.route("/", pageRoutes());
  app.get("/api/status", (c) =>
    c.json({
      live: { session: { id: 1, track_name: "Test Circuit", car_id: 7, car_name: "Test Car" } },
    }));
  // The personal bests per sector: 30.00, 28.00, 33.00 s.
  app.get(
    "/api/analysis/sectors",
    (c) => c.json({ sectors: [{ best_s: 30 }, { best_s: 28 }, { best_s: 33 }] }),
  );
  // Lap 21 is lap 4 of an earlier session; lap 30 is lap 3 of this one (session 1).
  const rows: Record<string, { id: number; session_id: number; number: number }> = {
    "21": { id: 21, session_id: 2, number: 4 },
    "30": { id: 30, session_id: 1, number: 3 },
  };
  app.get("/api/laps", (c) => {
    const row = rows[c.req.query("ids") ?? ""];
    return c.json(row ? [row] : []);
  });
  // Every reference lap drives the same oval: its line on a 5 m grid, and two corners.
  app.get("/api/analysis/compare", (c) => {
    const ts = Array.from({ length: 300 }, (_, i) => (i / 299) * 2 * Math.PI);
    const pos_x = ts.map((t) => Math.round(300 * Math.cos(t) * 10) / 10);
    const pos_z = ts.map((t) => Math.round(150 * Math.sin(t) * 10) / 10);
    return c.json({ laps: [{ id: Number(c.req.query("ref")), channels: { pos_x, pos_z } }] });
  });
  app.get("/api/analysis/corners", (c) =>
    c.json({
      corners: [
        { n: 1, name: "Turn 1", apex_m: 360, apex: { x: 0, z: 150 } },
        { n: 2, name: "Turn 2", apex_m: 1080, apex: { x: 0, z: -150 } },
      ],
    }));
  app.get("/api/live", () => {
    let mine: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        mine = c;
        streams.add(c);
      },
      cancel() {
        streams.delete(mine);
      },
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const send = (event: string, data: unknown) => {
    const bytes = encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    for (const c of streams) c.enqueue(bytes);
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    asked,
    send,
    async close() {
      for (const c of streams) c.close();
      await server.shutdown();
    },
  };
}

/** Waits until `page` has drawn packet `packet`. */
async function drawn(page: Page, packet: number): Promise<void> {
  await page.waitForFunction(
    (p: number) => (window as unknown as { liveStats: { packet: number } }).liveStats.packet === p,
    { timeout: 10_000, polling: 10 },
    packet,
  );
}

/**
 * Opens `page` by `open` (a load or a reload), then waits until it has its
 * stream open and the session's sector bests in (it asks for them after
 * /api/status, once the stream is open).
 */
async function connected(page: Page, open: () => Promise<unknown>): Promise<void> {
  const bests = page.waitForResponse((r) => r.url().includes("/api/analysis/sectors"), {
    timeout: 10_000,
  });
  await open();
  await page.waitForFunction(
    () => (window as unknown as { liveStats: { connects: number } }).liveStats.connects >= 1,
    { timeout: 10_000, polling: 10 },
  );
  await bests;
  // The answer is read before the next task: one animation frame later it is in.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

/** The sector boxes as drawn: text and classes. */
function sectors(page: Page): Promise<{ text: string; cls: string }[]> {
  return page.$$eval(
    "#sectors div",
    (ds) => ds.map((d) => ({ text: d.textContent ?? "", cls: d.className })),
  );
}

Deno.test({
  name: "the live page opened mid-lap: untimed sectors read --, a cue shows before its corner",
  ignore: NO_CHROMIUM !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const logger = fakeLogger();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 844 });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`${m.text()} ${m.location().url ?? ""}`);
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("response", (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await connected(page, () => page.goto(`${logger.url}/`));

    // Opened 40 s into lap 3, in sector 2; sector 3 begins at 58.73 s.
    let pid = 1000;
    for (const clock of [40_000, 40_017, 58_713]) logger.send("frame", frame(pid++, 3, 2, clock));
    logger.send("frame", frame(pid, 3, 3, 58_730));
    await drawn(page, pid++);
    assert.deepEqual(await sectors(page), [
      { text: "S1 --", cls: "" },
      { text: "S2 --", cls: "" },
      { text: "S3 …", cls: "now" },
    ]);

    // The lap ends at 93.80 s (stored): sector 3, seen from its start, is 35.07 s, 2.07 s over the
    // best (red); lap 4 has no split yet, so lap 3's row stands in.
    logger.send("frame", frame(pid++, 3, 3, 93_783));
    logger.send("lap", { type: "lap", lap: { id: 3, number: 3, time_ms: 93_800, complete: true } });
    logger.send("frame", frame(pid, 4, 1, 0));
    await drawn(page, pid++);
    assert.deepEqual(await sectors(page), [
      { text: "S1 --", cls: "" },
      { text: "S2 --", cls: "" },
      { text: "S3 35.07", cls: "slow" },
    ]);

    // Reloaded (a phone woken) 80 s into lap 4, in sector 3; the lap ends at 93.80 s: sector 3
    // was not seen from its start, so it is not the whole lap in purple.
    await connected(page, () => page.reload());
    logger.send("frame", frame(pid++, 4, 3, 80_000));
    logger.send("frame", frame(pid++, 4, 3, 93_783));
    logger.send("lap", { type: "lap", lap: { id: 4, number: 4, time_ms: 93_800, complete: true } });
    logger.send("frame", frame(pid, 5, 1, 0));
    await drawn(page, pid++);
    assert.deepEqual(await sectors(page), [
      { text: "S1 …", cls: "now" },
      { text: "S2 --", cls: "" },
      { text: "S3 --", cls: "" },
    ]);

    // The clock reads m:ss.mmm under a minute too; each tyre tile is named.
    logger.send("frame", frame(pid, 5, 1, 5_083));
    await drawn(page, pid++);
    assert.equal(await page.$eval("#current", (e) => e.textContent), "0:05.083");
    assert.deepEqual(
      await page.$$eval("#tyres .tyre", (ts) => ts.map((t) => [t.textContent, t.className])),
      [["FL55°", "tyre cold"], ["FR70°", "tyre ok"], ["RL80°", "tyre ok"], ["RR105°", "tyre hot"]],
    );

    // Sector 1 of lap 5 is timed from the line: 29.50 s, under the best (purple).
    logger.send("frame", frame(pid, 5, 2, 29_500));
    await drawn(page, pid++);
    assert.deepEqual(await sectors(page), [
      { text: "S1 29.50", cls: "pb" },
      { text: "S2 …", cls: "now" },
      { text: "S3 --", cls: "" },
    ]);

    // The cue for the corner where the last lap lost most: shown large over the brake marker
    // while the frame carries it, gone once the car is past its point.
    const cue = {
      text: "Turn 4: brake later",
      n: 4,
      name: "Turn 4",
      loss_s: 0.214,
      lap_id: 3,
      at_m: 900,
    };
    logger.send(
      "frame",
      frame(pid, 5, 2, 34_000, {
        distance_m: 650,
        cue,
        next_brake: { corner: 4, name: "Turn 4", distance_m: 250 },
      }),
    );
    await drawn(page, pid++);
    // 250 m at 180 km/h is 5 s: the marker is not up yet, nor is the cue.
    assert.equal(await page.$eval("#cue", (e) => (e as HTMLElement).hidden), true);
    logger.send(
      "frame",
      frame(pid, 5, 2, 35_000, {
        distance_m: 800,
        cue,
        next_brake: { corner: 4, name: "Turn 4", distance_m: 100 },
      }),
    );
    await drawn(page, pid++);
    const cueNow = () =>
      page.$eval("#cue", (e) => {
        const r = e.getBoundingClientRect();
        const box = document.getElementById("brake-box")!.getBoundingClientRect();
        const label = document.getElementById("brake-label")!;
        return {
          hidden: (e as HTMLElement).hidden,
          text: e.textContent,
          onScreen: r.width > 0 && r.height > 0 && r.top >= box.top && r.bottom <= box.bottom,
          whole: e.scrollWidth <= e.clientWidth,
          size: parseFloat(getComputedStyle(e).fontSize),
          labelSize: parseFloat(getComputedStyle(label).fontSize),
        };
      });
    const shown = await cueNow();
    assert.deepEqual(shown, {
      hidden: false,
      text: "Turn 4: brake later (0.21 s lost)",
      onScreen: true,
      whole: true,
      size: shown.size,
      labelSize: shown.labelSize,
    });
    // Larger than the marker's own words.
    assert.ok(Math.abs(shown.size - shown.labelSize * 1.6) < 0.01, `${shown.size} px`);
    assert.ok(shown.size >= 30, `cue font ${shown.size} px`);
    // On its side, the cue still fits inside the marker's row, and is still the larger.
    await page.setViewport({ width: 844, height: 390 });
    const side = await cueNow();
    assert.deepEqual([side.onScreen, side.whole], [true, true]);
    assert.ok(side.size > side.labelSize, JSON.stringify(side));
    await page.setViewport({ width: 390, height: 844 });
    logger.send("frame", frame(pid, 5, 2, 38_000, { distance_m: 905, cue: null }));
    await drawn(page, pid++);
    assert.equal(await page.$eval("#cue", (e) => (e as HTMLElement).hidden), true);

    // The lap the delta is against is named by its session and number, not by its lap id.
    const reference = (want: string) =>
      page.waitForFunction(
        (w: string) => document.getElementById("reference")?.textContent === w,
        { timeout: 10_000, polling: 10 },
        want,
      );
    const against = (id: number) => ({
      delta: {
        delta_ms: 0,
        predicted_lap_ms: 93_500,
        reference_lap_id: id,
        reference_lap_ms: 93_500,
        reference_label: null,
        reference_driver: null,
      },
    });
    logger.send("frame", frame(pid++, 5, 2, 39_000, against(21)));
    await reference("vs your best here, 1:33.500 (session 2, lap 4)");
    logger.send("frame", frame(pid++, 5, 2, 40_000, against(30)));
    await reference("vs this session's best, 1:33.500 (lap 3)");
    // The logger's own label, where it sends one, says which lap the gap is against.
    const labelled = against(30);
    const label = "your best of Test Circuit / Test Short (same road so far)";
    Object.assign(labelled.delta, { reference_label: label, reference_driver: null });
    logger.send("frame", frame(pid++, 5, 2, 41_000, labelled));
    await reference(`vs ${label}`);

    // Nothing the page asked for failed, the icon included.
    const icon = await page.evaluate(async () => (await fetch("/favicon.ico")).status);
    assert.equal(icon, 200);
    assert.ok(
      logger.asked.includes("/favicon.svg") || logger.asked.includes("/favicon.ico"),
      logger.asked.join(" "),
    );
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await logger.close();
  }
});

/** Records the page's wake lock requests (window.wakeAsked) and grants each with a fake lock. */
function stubWakeLock(page: Page): Promise<unknown> {
  return page.evaluateOnNewDocument(() => {
    const asked: string[] = [];
    Object.assign(window, { wakeAsked: asked });
    const lock = {
      request(type: string) {
        asked.push(type);
        const sentinel = {
          released: false,
          release() {
            sentinel.released = true;
            return Promise.resolve();
          },
          addEventListener() {},
        };
        return Promise.resolve(sentinel);
      },
    };
    Object.defineProperty(navigator, "wakeLock", { value: lock, configurable: true });
  });
}

Deno.test({
  name:
    "the phone app at 390x844 with touch: manifest, icon, wake lock, map marker, fits both ways",
  ignore: NO_CHROMIUM !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const logger = fakeLogger();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await stubWakeLock(page);
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`${m.text()} ${m.location().url ?? ""}`);
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("response", (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await connected(page, () => page.goto(`${logger.url}/`));

    // The browser reads the manifest the page links, without complaint.
    const cdp = await page.createCDPSession();
    const app = await cdp.send("Page.getAppManifest") as {
      url: string;
      errors: { message: string }[];
      data?: string;
    };
    assert.equal(app.url, `${logger.url}/manifest.webmanifest`);
    assert.deepEqual(app.errors, []);
    const manifest = JSON.parse(app.data ?? "{}");
    assert.equal(manifest.display, "fullscreen");
    const big = manifest.icons.find((i: { sizes: string }) => i.sizes === "192x192");
    const icon = await page.evaluate(async (src: string) => {
      const r = await fetch(src);
      const img = await createImageBitmap(await r.blob());
      return [r.status, r.headers.get("content-type"), img.width, img.height];
    }, big.src);
    assert.deepEqual(icon, [200, "image/png", 192, 192]);
    assert.equal(await page.$eval("#wake", (e) => e.textContent), "");

    // Frames against reference lap 30: the lock is asked for, the map drawn, the car put on it.
    const on = (packet: number, x: number, z: number, distance: number) =>
      frame(packet, 2, 1, packet * 10, {
        position: { x, y: 0, z },
        distance_m: distance,
        delta: {
          delta_ms: -120,
          predicted_lap_ms: 93_380,
          reference_lap_id: 30,
          reference_lap_ms: 93_500,
          reference_label: null,
          reference_driver: null,
        },
      });
    const car = () =>
      page.$eval("[data-car]", (e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, cx: e.getAttribute("cx") };
      });
    logger.send("frame", on(2000, 300, 0, 10));
    await page.waitForSelector("[data-car][visibility=visible]", { timeout: 10_000 });
    await page.waitForFunction(() => document.getElementById("wake")?.textContent !== "", {
      timeout: 10_000,
    });
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { wakeAsked: string[] }).wakeAsked),
      [
        "screen",
      ],
    );
    assert.equal(await page.$eval("#wake", (e) => e.textContent), "screen kept on");
    const first = await car();
    assert.equal(first.cx, "300.0");
    assert.equal(await page.$eval("[data-next-label]", (e) => e.textContent), "T1");
    // A quarter lap on: the marker has moved up-left on screen (z runs down), the next corner is T2.
    logger.send("frame", on(2001, 0, 150, 400));
    await drawn(page, 2001);
    const second = await car();
    assert.equal(second.cx, "0.0");
    assert.ok(second.x < first.x - 50 && second.y > first.y + 20, JSON.stringify([first, second]));
    assert.equal(await page.$eval("[data-next-label]", (e) => e.textContent), "T2");
    // Still one request for all those frames.
    assert.equal(
      await page.evaluate(() => (window as unknown as { wakeAsked: string[] }).wakeAsked.length),
      1,
    );

    // All of it on one screen, either way up: the map, the gap and the marker inside the viewport,
    // the map beside another cell, no scrolling.
    const fits = () =>
      page.evaluate(() => {
        const box = (id: string) => document.getElementById(id)!.getBoundingClientRect();
        const inside = ["map-box", "delta-box", "brake-box", "tyres"].every((id) => {
          const r = box(id);
          return r.top >= 0 && r.bottom <= innerHeight && r.width > 100 && r.height > 60;
        });
        const map = box("map-box");
        const beside = map.right <= box("gear-box").left + 1;
        const scrolls = document.documentElement.scrollHeight > innerHeight ||
          document.documentElement.scrollWidth > innerWidth;
        // Nothing of the gear's cell is cut: its shift light and speed are within it.
        const gear = box("gear-box");
        const whole = box("shift").top >= gear.top && box("speed").bottom <= gear.bottom;
        return { inside, beside, scrolls, whole };
      });
    assert.deepEqual(await fits(), { inside: true, beside: true, scrolls: false, whole: true });
    await page.setViewport({ width: 844, height: 390, isMobile: true, hasTouch: true });
    assert.deepEqual(await fits(), { inside: true, beside: true, scrolls: false, whole: true });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await logger.close();
  }
});
