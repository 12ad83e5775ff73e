/// <reference lib="dom" />
// The page functions below run in Chromium, so they are typed against the DOM.
import { strict as assert } from "node:assert";
import type { Page } from "puppeteer-core";
import { noFixtures } from "../_fixtures.ts";
import { withServer } from "../server/_server.ts";
import {
  BROAD_BEAN,
  browserMissing,
  openPage,
  type StoredPageLaps,
  storePageLaps,
  waitReady,
  withChromium,
} from "./_pages_browser.ts";

const missing = browserMissing();
if (missing) console.log(missing);

/** What the compare page exposes as `window.comparePage` (the parts the test reads). */
interface Chart {
  key: string;
  series: unknown[];
  data: number[][];
  scales: { x: { min: number; max: number } };
  cursor: { idx: number | null };
}
interface Win {
  comparePage: {
    charts: Chart[];
    zoom(min: number, max: number): void;
    timings: Record<string, number | null>;
    laps: number[];
    ref: number;
  };
}

const CHANNELS = "speed,throttle,brake,gear,rpm,steer,tire_slip,pos_x,pos_z";

async function json(url: string) {
  const res = await fetch(url);
  const body = await res.json();
  return { status: res.status, body };
}

/** Each chart's key and its number of series (without the distance axis), as drawn. */
function drawnCharts(page: Page): Promise<{ key: string; series: number }[]> {
  return page.evaluate(() =>
    (window as unknown as Win).comparePage.charts.map((c: Chart) => ({
      key: c.key,
      series: c.series.length - 1,
    }))
  );
}

/** Every chart's distance range. */
function scales(page: Page): Promise<[number, number][]> {
  return page.evaluate(() =>
    (window as unknown as Win).comparePage.charts.map((
      c: Chart,
    ): [number, number] => [c.scales.x.min, c.scales.x.max])
  );
}

/** Moves the real mouse to `fraction` of the width of chart `key`'s plot, at mid height. */
async function hover(page: Page, key: string, fraction: number): Promise<void> {
  const box = await page.$eval(`[data-chart="${key}"] .u-over`, (e) => {
    e.scrollIntoView({ block: "center" });
    const r = e.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  });
  await page.mouse.move(box.x + Math.min(box.w - 0.5, box.w * fraction), box.y + box.h / 2);
}

Deno.test({
  name:
    "the analysis pages in Chromium: laps, bests, compare charts, cursor, zoom, deep link, speed",
  ignore: missing !== null || noFixtures,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    await withServer(async (url, app) => {
      const laps: StoredPageLaps = await storePageLaps(url, app);
      const bests = (await json(`${url}/api/laps/bests`)).body;
      await withChromium(async (browser) => {
        await t.step(
          "laps page: the incomplete lap is marked and never offered as a best",
          async () => {
            const page = await openPage(browser, `${url}/laps`);
            const row = await page.$eval(
              `#sessions tr[data-lap="${laps.incomplete}"]`,
              (tr) => ({ cls: tr.className, text: tr.textContent }),
            );
            assert.equal(row.cls, "incomplete");
            assert.match(row.text ?? "", /incomplete/);
            // Every lap is listed: no note about older ones.
            assert.equal(await page.$eval("#sessions-note", (e) => e.textContent), "");
            const offered = await page.$$eval(
              "#bests tbody tr[data-lap]",
              (trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.lap)),
            );
            // The API's bests, then the unnamed session's own best: its lap counts for it.
            assert.deepEqual(
              offered,
              [...bests.map((b: { lap_id: number }) => b.lap_id), laps.steered],
            );
            const unnamed = await page.$eval(
              `#bests tr[data-lap="${laps.steered}"]`,
              (tr) => tr.textContent,
            );
            assert.match(unnamed ?? "", /\(unnamed\)/);
            assert.ok(!offered.includes(laps.incomplete));
            // Its time is the fastest of the circuit: it would be the best if it counted.
            const bb = bests.find((b: { track: string }) => b.track === BROAD_BEAN);
            assert.ok(laps.broadBean.includes(bb.lap_id));
            // The theoretical best arrives from the sectors route.
            await page.waitForFunction(() =>
              [...document.querySelectorAll("#bests td.theoretical")].every((td) =>
                td.textContent !== "…"
              )
            );
            const sectors = (await json(
              `${url}/api/analysis/sectors?track=${encodeURIComponent(BROAD_BEAN)}&car=1549`,
            )).body;
            const theo = await page.$eval(
              `#bests tr[data-lap="${bb.lap_id}"] td.theoretical`,
              (td) => td.textContent,
            );
            const clock = (ms: number) =>
              `${Math.floor(ms / 60000)}:${((ms % 60000) / 1000).toFixed(3).padStart(6, "0")}`;
            assert.equal(theo, clock(sectors.theoretical_best_ms));
            // The unnamed session's row has its own theoretical best, of its session's laps.
            const lapRows = (await json(`${url}/api/laps?limit=1000`)).body;
            const steeredRow = lapRows.find((r: { id: number }) => r.id === laps.steered);
            const own = (await json(
              `${url}/api/analysis/sectors?session=${steeredRow.session_id}&car=1549`,
            )).body;
            assert.equal(own.sectors.length, 3);
            assert.equal(
              await page.$eval(
                `#bests tr[data-lap="${laps.steered}"] td.theoretical`,
                (td) => td.textContent,
              ),
              clock(own.theoretical_best_ms),
            );
            // The circuit filter keeps only that circuit's sessions and puts itself in the URL.
            await page.select("#filter-circuit", "broad-bean-raceway");
            // The filter asks the API (`/api/laps?track=...`) and draws again.
            await page.waitForFunction(() =>
              (window as unknown as { lapsPage: { drawn: number } }).lapsPage.drawn === 2
            );
            const sessions = await page.$$eval(
              "#sessions tr[data-lap]",
              (trs) =>
                trs.map((tr) => Number((tr as HTMLElement).dataset.lap)).sort((a, b) => a - b),
            );
            assert.deepEqual(
              sessions,
              [...laps.broadBean, laps.incomplete].sort((a, b) => a - b),
            );
            assert.equal(new URL(page.url()).search, "?track=broad-bean-raceway");
            // Picked with a complete lap, the faster incomplete one is not made the reference.
            await page.click(`#sessions input[data-pick="${laps.incomplete}"]`);
            await page.click(`#sessions input[data-pick="${laps.broadBean[0]}"]`);
            // The comparison opens in the same document: a mark left on the window survives.
            await page.evaluate(() => (window as unknown as { mark: number }).mark = 7);
            await page.click("#compare");
            await waitReady(page);
            const opened = new URL(page.url());
            assert.equal(opened.pathname, "/compare");
            assert.equal(
              opened.searchParams.get("laps"),
              `${laps.incomplete},${laps.broadBean[0]}`,
            );
            assert.equal(opened.searchParams.get("ref"), String(laps.broadBean[0]));
            const shown = () =>
              page.evaluate(() => ({
                mark: (window as unknown as { mark?: number }).mark,
                // The keyboard's focus moves to the shown page's heading.
                focus: document.activeElement?.closest("div[id$='-view']")?.id ?? null,
                laps: !document.getElementById("laps-view")!.hidden,
                compare: !document.getElementById("compare-view")!.hidden,
                charts: document.querySelectorAll("#charts .chart").length,
              }));
            // The mark survives, the focus is on the shown page's heading, and the seven charts
            // (delta, speed, throttle, brake, gear, rpm, tyre slip: no steering) are drawn once.
            const inCompare = {
              mark: 7,
              focus: "compare-view",
              laps: false,
              compare: true,
              charts: 7,
            };
            const inLaps = { ...inCompare, focus: "laps-view", laps: true, compare: false };
            assert.deepEqual(await shown(), inCompare);
            // Back shows the list again, filter and picks kept; forward the same comparison.
            await page.goBack();
            await waitReady(page);
            assert.equal(new URL(page.url()).search, "?track=broad-bean-raceway");
            assert.deepEqual(await shown(), inLaps);
            const boxes = await page.$$eval(
              "#sessions input.pick:checked",
              (b) => b.map((x) => Number((x as HTMLElement).dataset.pick)).sort((a, z) => a - z),
            );
            assert.deepEqual(boxes, [laps.broadBean[0], laps.incomplete].sort((a, z) => a - z));
            await page.goForward();
            await waitReady(page);
            assert.deepEqual(await shown(), inCompare);
            // The link back to the list is followed in place too.
            await page.click(".compare .top a[href='/laps']");
            await waitReady(page);
            assert.equal(new URL(page.url()).pathname, "/laps");
            assert.deepEqual(await shown(), inLaps);
            await page.close();
          },
        );

        const ids = [...laps.broadBean, laps.incomplete];
        const ref = laps.broadBean[1];
        const cmpUrl = `${url}/compare?laps=${ids.join(",")}&ref=${ref}`;
        const api = (await json(
          `${url}/api/analysis/compare?laps=${ids.join(",")}&ref=${ref}&channels=${CHANNELS}`,
        )).body;
        const order = [ref, ...ids.filter((id) => id !== ref)];
        const apiLap = (id: number) => api.laps.find((l: { id: number }) => l.id === id);
        let deepLink = "";
        let zoomed: [number, number][] = [];

        await t.step(
          "compare page: every chart with one series per lap, the delta at the line is the API's",
          async () => {
            const page = await openPage(browser, cmpUrl);
            const cons = await json(
              `${url}/api/analysis/consistency?track=${encodeURIComponent(BROAD_BEAN)}&car=1549`,
            );
            assert.equal(cons.status, 200);
            const carries = (ch: string) =>
              api.laps.some((l: { channels: Record<string, unknown> }) => l.channels[ch] !== null);
            const want = [
              { key: "delta", series: 5 },
              { key: "speed", series: 5 + 2 },
              { key: "throttle", series: 5 },
              { key: "brake", series: 5 },
              { key: "gear", series: 5 },
              { key: "rpm", series: 5 },
              ...(carries("steer") ? [{ key: "steer", series: 5 }] : []),
              ...(carries("tire_slip") ? [{ key: "tire_slip", series: 5 }] : []),
            ];
            assert.deepEqual(await drawnCharts(page), want);
            assert.ok(!carries("steer"), "the Broad Bean file carries no steering");
            // The legend's swatches are the laps' colours, the reference first (white).
            const swatches = await page.$$eval(
              "#laps-legend .swatch",
              (e) => e.map((i) => getComputedStyle(i).backgroundColor),
            );
            assert.deepEqual(swatches, [
              "rgb(232, 232, 232)",
              "rgb(255, 92, 92)",
              "rgb(77, 184, 255)",
              "rgb(255, 194, 26)",
              "rgb(94, 224, 122)",
            ]);
            // The incomplete lap is marked in the legend.
            const mark = await page.$eval(
              `#laps-legend [data-lap="${laps.incomplete}"]`,
              (e) => e.textContent,
            );
            assert.match(mark ?? "", /incomplete/);

            // The cursor at the line: every delta chart legend value is the API's last delta.
            const len = api.distance[api.distance.length - 1];
            await page.evaluate((l) => (window as unknown as Win).comparePage.zoom(l - 20, l), len);
            await hover(page, "delta", 1);
            const shown = await page.$$eval(
              '[data-chart="delta"] .u-legend .u-series td.u-value',
              (tds) => tds.map((td) => td.textContent),
            );
            const idx = await page.evaluate(() =>
              (window as unknown as Win).comparePage.charts[0].cursor.idx
            );
            assert.equal(idx, api.distance.length - 1);
            assert.deepEqual(
              shown.slice(1),
              order.map((id) => apiLap(id).delta_s.at(-1).toFixed(3)),
            );
            const drawnDelta = await page.evaluate(() =>
              (window as unknown as Win).comparePage.charts[0].data.slice(1).map((s: number[]) =>
                s[s.length - 1]
              )
            );
            assert.deepEqual(drawnDelta, order.map((id) => apiLap(id).delta_s.at(-1)));
            assert.notEqual(drawnDelta[1], 0);
            await page.close();
          },
        );

        await t.step(
          "compare page: one cursor on every chart and the map; a corner row zooms all",
          async () => {
            const page = await openPage(browser, cmpUrl);
            await hover(page, "speed", 0.4);
            const cursor = await page.evaluate(() => {
              const p = (window as unknown as Win).comparePage;
              const dot = document.querySelector('#map-cursor circle[data-lap="0"]')!;
              return {
                idx: p.charts.map((c: Chart) => c.cursor.idx),
                cx: Number(dot.getAttribute("cx")),
                cy: Number(dot.getAttribute("cy")),
                visible: dot.getAttribute("visibility"),
              };
            });
            const idx: number = cursor.idx[0] ?? -1;
            assert.ok(idx > 0);
            assert.deepEqual(cursor.idx, cursor.idx.map(() => idx));
            assert.equal(cursor.visible, "visible");
            assert.equal(cursor.cx, Number(apiLap(ref).channels.pos_x[idx].toFixed(2)));
            assert.equal(cursor.cy, Number(apiLap(ref).channels.pos_z[idx].toFixed(2)));
            // Another chart moves the same cursor.
            await hover(page, "rpm", 0.7);
            const again = await page.evaluate(() =>
              (window as unknown as Win).comparePage.charts.map((c: Chart) => c.cursor.idx)
            );
            assert.ok((again[0] ?? -1) > idx);
            assert.deepEqual(again, again.map(() => again[0]));

            // A drag across one chart zooms every chart to the dragged stretch; a double
            // click gives the whole lap back to all of them.
            const len0 = api.distance[api.distance.length - 1];
            const over = await page.$eval('[data-chart="throttle"] .u-over', (e) => {
              e.scrollIntoView({ block: "center" });
              const r = e.getBoundingClientRect();
              return { x: r.left, y: r.top + r.height / 2, w: r.width };
            });
            await page.mouse.move(over.x + over.w * 0.2, over.y);
            await page.mouse.down();
            await page.mouse.move(over.x + over.w * 0.3, over.y, { steps: 4 });
            await page.mouse.move(over.x + over.w * 0.4, over.y, { steps: 4 });
            await page.mouse.up();
            const dragged = await scales(page);
            assert.deepEqual(dragged, dragged.map(() => dragged[0]));
            // The stretch dragged, within a pixel's worth of metres.
            const px = len0 / over.w;
            assert.ok(Math.abs(dragged[0][0] - len0 * 0.2) < 2 * px, `${dragged[0]}`);
            assert.ok(Math.abs(dragged[0][1] - len0 * 0.4) < 2 * px, `${dragged[0]}`);
            assert.match(page.url(), /[?&]from=[\d.]+&to=[\d.]+/);
            await page.mouse.click(over.x + over.w * 0.5, over.y, { count: 2 });
            const whole = await scales(page);
            assert.deepEqual(whole, whole.map(() => [0, len0]));
            assert.doesNotMatch(page.url(), /from=/);

            // A click on the first corner row zooms every chart to that corner of the reference.
            const n = await page.$eval(
              "#corners tbody tr",
              (tr) => Number((tr as HTMLElement).dataset.corner),
            );
            const vs = order[1];
            const report = (await json(`${url}/api/analysis/corners?lap=${vs}&ref=${ref}`)).body;
            assert.equal(n, report.corners[0].n, "rows are most time lost first");
            const refCorners = (await json(`${url}/api/analysis/corners?lap=${ref}`)).body.corners;
            const w = refCorners.find((c: { n: number }) => c.n === n);
            const len = api.distance[api.distance.length - 1];
            // In view below the sticky header, as a driver would see it before clicking.
            await page.$eval("#corners tbody tr", (tr) => tr.scrollIntoView({ block: "center" }));
            await page.click("#corners tbody tr");
            zoomed = await scales(page);
            const want: [number, number] = [
              Math.max(0, w.entry_m - 50),
              Math.min(len, w.exit_m + 50),
            ];
            assert.deepEqual(zoomed, zoomed.map(() => want));
            deepLink = page.url();
            assert.match(deepLink, /[?&]from=/);
            await page.close();
          },
        );

        await t.step("a deep link restores the same view", async () => {
          const page = await openPage(browser, deepLink);
          assert.deepEqual(await scales(page), zoomed);
          // The two requests pages.html starts for a deep link before its scripts load were used.
          const leftOver = await page.evaluate(() =>
            Object.keys((window as unknown as { earlyApi: Record<string, unknown> }).earlyApi)
          );
          assert.deepEqual(leftOver, []);
          const state = await page.evaluate(() => {
            const p = (window as unknown as Win).comparePage;
            return { laps: p.laps, ref: p.ref };
          });
          assert.deepEqual(state, { laps: order, ref });
          // The map draws a compiled bundle's borders, left and right, inside its frame
          // (no fixture bundle fits these laps, so a small square circuit is drawn).
          const borders = await page.evaluate(async () => {
            // The page's own module, as the page loads it (a path of the server, not of this repo).
            const served = "/shared_map.js";
            const { makeMap } = await import(served);
            const holder = document.createElement("div");
            const line = { x: [0, 100, 100, 0], z: [0, 0, 100, 100], colour: "#fff" };
            const ring = (
              o: number,
            ) => [[-o, -o, null], [100 + o, -o, null], [100 + o, 100 + o, null]];
            const map = makeMap(holder, [line], [{ n: 1, apex: { x: 100, z: 0 } }], {
              borders: { L: [ring(6)], R: [ring(-6)] },
            }, "test");
            const box = map.svg.getAttribute("viewBox")!.split(" ").map(Number);
            return {
              sides: [...holder.querySelectorAll("#map-borders polyline")].map((p) =>
                p.getAttribute("data-side")
              ),
              left: holder.querySelector('#map-borders [data-side="L"]')!.getAttribute("points"),
              corner: holder.querySelector("#map-corners text")!.textContent,
              covers: box[0] <= -6 && box[1] <= -6 && box[0] + box[2] >= 106 &&
                box[1] + box[3] >= 106,
            };
          });
          assert.deepEqual(borders, {
            sides: ["L", "R"],
            left: "-6,-6 106,-6 106,106",
            corner: "T1",
            covers: true,
          });
          await page.close();
        });

        await t.step("steering is drawn where a lap carries it", async () => {
          const page = await openPage(
            browser,
            `${url}/compare?laps=${laps.broadBean[2]},${laps.steered}&ref=${laps.broadBean[2]}`,
          );
          const charts = await drawnCharts(page);
          assert.deepEqual(charts.map((c) => c.key), [
            "delta",
            "speed",
            "throttle",
            "brake",
            "gear",
            "rpm",
            "steer",
            "tire_slip",
          ]);
          assert.equal(charts.find((c) => c.key === "steer")?.series, 2);
          const steer = (await json(
            `${url}/api/analysis/compare?laps=${laps.broadBean[2]},${laps.steered}&ref=${
              laps.broadBean[2]
            }&channels=steer`,
          )).body;
          const drawn = await page.evaluate(() => {
            const c = (window as unknown as Win).comparePage.charts.find((c) => c.key === "steer")!;
            return { ref: c.data[1].every((v) => v === null), lap: c.data[2] };
          });
          assert.equal(steer.laps[0].channels.steer, null);
          assert.deepEqual(drawn, { ref: true, lap: steer.laps[1].channels.steer });
          await page.close();
          // With the unnamed session's lap as the reference, the sectors and band are its session's.
          const unnamed = await openPage(
            browser,
            `${url}/compare?laps=${laps.steered},${laps.broadBean[2]}&ref=${laps.steered}`,
          );
          const row = (await json(`${url}/api/laps?limit=1000`)).body
            .find((r: { id: number }) => r.id === laps.steered);
          const own = (await json(
            `${url}/api/analysis/sectors?session=${row.session_id}&car=1549`,
          )).body;
          const shown = await unnamed.evaluate(() => ({
            title: document.getElementById("sectors-title")!.textContent,
            rows: [...document.querySelectorAll("#sectors tbody tr")].map((tr) =>
              tr.querySelector("td:nth-child(3)")!.textContent
            ),
            band: (window as unknown as Win).comparePage.charts.find((c) => c.key === "speed")!
              .series.length,
          }));
          assert.deepEqual(shown, {
            title: `Sectors of session ${row.session_id} (unnamed) and car`,
            rows: own.sectors.map((x: { best_s: number }) => x.best_s.toFixed(3)),
            // The distance, the two laps and the band's two edges.
            band: 5,
          });
          await unnamed.close();
        });

        await t.step("a chart saves as PNG and the map as SVG from the page", async () => {
          const dir = await Deno.makeTempDir();
          try {
            const page = await openPage(browser, cmpUrl);
            const cdp = await browser.target().createCDPSession();
            await cdp.send("Browser.setDownloadBehavior", {
              behavior: "allow",
              downloadPath: dir,
              eventsEnabled: true,
            });
            const saved = (click: () => Promise<void>) =>
              new Promise<string>((resolve) => {
                const names = new Map<string, string>();
                cdp.on("Browser.downloadWillBegin", (e) => names.set(e.guid, e.suggestedFilename));
                cdp.on("Browser.downloadProgress", (e) => {
                  if (e.state === "completed") resolve(names.get(e.guid) ?? "");
                });
                click();
              });
            await page.$eval('[data-png="speed"]', (b) => b.scrollIntoView({ block: "center" }));
            const png = await saved(() => page.click('[data-png="speed"]'));
            assert.equal(png, "speed.png");
            const bytes = await Deno.readFile(`${dir}/${png}`);
            assert.deepEqual([...bytes.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
            cdp.removeAllListeners();
            await page.$eval("#map-svg", (b) => b.scrollIntoView({ block: "center" }));
            const svg = await saved(() => page.click("#map-svg"));
            assert.equal(svg, `map-${ref}.svg`);
            const text = await Deno.readTextFile(`${dir}/${svg}`);
            assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg /);
            // The corners of the circuit are labelled on the saved map.
            const refCorners = (await json(`${url}/api/analysis/corners?lap=${ref}`)).body.corners;
            const labels = [...text.matchAll(/data-corner="(\d+)"/g)].map((m) => Number(m[1]));
            assert.deepEqual(labels, refCorners.map((c: { n: number }) => c.n));
            await cdp.detach();
            await page.close();
          } finally {
            await Deno.remove(dir, { recursive: true });
          }
        });

        await t.step("on a phone (390 px) neither page scrolls sideways", async () => {
          const phone = { width: 390, height: 844 };
          for (const path of ["/laps", `/compare?laps=${laps.suzuka.slice(0, 3).join(",")}`]) {
            const page = await openPage(browser, `${url}${path}`, phone);
            assert.equal(
              await page.evaluate(() => document.documentElement.scrollWidth),
              390,
              path,
            );
            await page.close();
          }
        });

        await t.step(
          "on a phone (390x844) /laps: every pick box whole, unnamed only when one is",
          async () => {
            const page = await openPage(browser, `${url}/laps`, { width: 390, height: 844 });
            const cut = await page.evaluate(() =>
              [...document.querySelectorAll<HTMLInputElement>("input.pick")].filter((b) => {
                const r = b.getBoundingClientRect();
                const box = b.closest("#bests-box, .session")!.getBoundingClientRect();
                return !(r.width > 0 && r.left >= Math.max(0, box.left) &&
                  r.right <= Math.min(innerWidth, box.right));
              }).map((b) => b.dataset.pick)
            );
            assert.deepEqual(cut, []);
            // The circuits of the listed laps by name, then `unnamed`: the steered lap has no circuit.
            type Row = { circuit: string | null; track: string };
            const rows: Row[] = (await json(`${url}/api/laps?limit=1000`)).body;
            const byName = (a: string, b: string) => a.localeCompare(b);
            const named = [...new Set(rows.filter((r) => r.circuit).map((r) => r.track))].sort(
              byName,
            );
            const options = (p: Page) =>
              p.$$eval("#filter-circuit option", (os) => os.map((o) => o.textContent));
            assert.deepEqual(await options(page), ["all", ...named, "unnamed"]);
            await page.close();
            // A store whose every lap has a circuit is offered no `unnamed` to pick.
            const allNamed = await browser.newPage();
            await allNamed.setViewport({ width: 390, height: 844 });
            await allNamed.setRequestInterception(true);
            allNamed.on("request", (req) => {
              const u = new URL(req.url());
              if (u.pathname === "/api/laps" && u.search === "?limit=1000") {
                req.respond({
                  status: 200,
                  contentType: "application/json",
                  body: JSON.stringify(rows.filter((r) => r.circuit !== null)),
                });
              } else req.continue();
            });
            await allNamed.goto(`${url}/laps`);
            await waitReady(allNamed);
            assert.deepEqual(await options(allNamed), ["all", ...named]);
            await allNamed.close();
          },
        );

        await t.step(
          "on a phone (390x844) corner numbers stand apart, over every trace",
          async () => {
            const path = `/compare?laps=${laps.suzuka.slice(0, 3).join(",")}`;
            const page = await openPage(browser, `${url}${path}`, { width: 390, height: 844 });
            const charts = await page.evaluate(() => {
              type Label = { n: number; row: number; left: number; right: number; bottom: number };
              type Drawn = Chart & {
                cornerLabels: Label[];
                bbox: { top: number };
                valToPos(v: number, scale: string, canvas: boolean): number;
              };
              const gap = 6 * devicePixelRatio;
              return (window as unknown as { comparePage: { charts: Drawn[] } }).comparePage.charts
                .map((c) => {
                  const ls = [...c.cornerLabels].sort((a, b) => a.row - b.row || a.left - b.left);
                  return {
                    key: c.key,
                    labelled: ls.length > 0,
                    // Pairs of one row closer than the gap.
                    close: ls.slice(1).filter((l, i) =>
                      l.row === ls[i].row && l.left - ls[i].right < gap
                    )
                      .map((l) => l.n),
                    // Numbers reaching into the plot, where traces are drawn.
                    inPlot: ls.filter((l) => l.bottom > c.bbox.top).map((l) => l.n),
                    // The throttle's 100% line is below every number.
                    under100: c.key !== "throttle" ||
                      ls.every((l) => l.bottom < c.valToPos(100, "y", true)),
                  };
                });
            });
            assert.ok(charts.some((c) => c.key === "throttle"));
            for (const c of charts) {
              assert.deepEqual(c, {
                key: c.key,
                labelled: true,
                close: [],
                inPlot: [],
                under100: true,
              });
            }
            await page.close();
          },
        );

        await t.step("on a phone (390x844) the corner table's time lost is on screen", async () => {
          const page = await openPage(browser, cmpUrl, { width: 390, height: 844 });
          await page.$eval("#corners", (e) => e.scrollIntoView({ block: "center" }));
          const seen = await page.evaluate(() => {
            const head = document.querySelector("#corners thead th:nth-child(2)")!;
            const cell = document.querySelector("#corners tbody tr td:nth-child(2)")!;
            const box = document.getElementById("corners-box")!.getBoundingClientRect();
            const r = cell.getBoundingClientRect();
            return {
              head: head.textContent,
              inView: r.left >= Math.max(0, box.left) && r.right <= Math.min(innerWidth, box.right),
              text: /^[+-]?\d+\.\d{3}$/.test(cell.textContent ?? ""),
            };
          });
          assert.deepEqual(seen, { head: "lost", inView: true, text: true });
          await page.close();
        });

        await t.step("no page logs a console error, the icon included", async () => {
          for (const path of ["/", "/laps", `/compare?laps=${laps.suzuka.slice(0, 2).join(",")}`]) {
            const page = await browser.newPage();
            await page.setViewport({ width: 1400, height: 1000 });
            const errors: string[] = [];
            page.on("console", (m) => {
              if (m.type() === "error") errors.push(`${m.text()} ${m.location().url ?? ""}`);
            });
            page.on("pageerror", (e) => errors.push(String(e)));
            page.on("response", (r) => {
              if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
            });
            await page.goto(`${url}${path}`);
            if (path === "/") {
              await page.waitForFunction(() =>
                (window as unknown as { liveStats: { connects: number } }).liveStats.connects >= 1
              );
            } else await waitReady(page);
            // What a browser asks for by itself, whatever the page links.
            const icon = await page.evaluate(async () => {
              const r = await fetch("/favicon.ico");
              return [r.status, r.headers.get("content-type")];
            });
            assert.deepEqual(icon, [200, "image/svg+xml"], path);
            assert.equal(
              await page.$eval("link[rel=icon]", (l) => l.getAttribute("href")),
              "/favicon.svg",
              path,
            );
            assert.deepEqual(errors, [], path);
            await page.close();
          }
        });

        await t.step("a bad lap id reads once, with no empty panels", async () => {
          for (
            const [ids, said] of [
              ["0,1", "400 the 1st lap id (0) must be a positive integer"],
              [`${laps.suzuka[0]},999999`, "404 "],
            ] as const
          ) {
            const page = await browser.newPage();
            await page.setViewport({ width: 1400, height: 1000 });
            await page.goto(`${url}/compare?laps=${ids}`);
            await page.waitForSelector("body[data-ready]");
            const shown = await page.evaluate(() => {
              const visible = (id: string) => {
                const e = document.getElementById(id)!;
                return e.getClientRects().length > 0;
              };
              return {
                state: document.body.dataset.ready,
                message: document.getElementById("message")!.textContent ?? "",
                layout: visible("layout"),
                legend: visible("laps-legend"),
              };
            });
            assert.deepEqual({ ...shown, message: "" }, {
              state: "error",
              message: "",
              layout: false,
              legend: false,
            }, ids);
            assert.ok(shown.message.startsWith(said), shown.message);
            // Said once: no part of it twice.
            const words = shown.message.split(/[ ;:]+/).filter((w) => /\[|\d{3,}|must/.test(w));
            assert.deepEqual(words, [...new Set(words)], shown.message);
            await page.close();
          }
        });

        await t.step("Suzuka's charts number every corner", async () => {
          const pair = laps.suzuka.slice(0, 2);
          const page = await openPage(
            browser,
            `${url}/compare?laps=${pair.join(",")}&ref=${pair[0]}`,
          );
          const corners = (await json(`${url}/api/analysis/corners?lap=${pair[0]}`)).body.corners;
          const labelled = await page.evaluate(() =>
            (window as unknown as {
              comparePage: { charts: { key: string; cornerLabels: { n: number }[] }[] };
            }).comparePage.charts.map((c) => ({ key: c.key, n: c.cornerLabels.map((l) => l.n) }))
          );
          const all = corners.map((c: { n: number }) => c.n);
          assert.equal(all.length, 20);
          for (const chart of labelled) assert.deepEqual(chart.n, all, chart.key);
          await page.close();
        });

        await t.step("a full list says how to reach older laps", async () => {
          const real = (await json(`${url}/api/laps?limit=1000`)).body;
          // 1,000 rows, as a larger store answers: the real rows again under other ids.
          const full = Array.from({ length: 1000 }, (_, k) => ({
            ...real[k % real.length],
            id: 100_000 + k,
          }));
          const page = await browser.newPage();
          await page.setViewport({ width: 1400, height: 1000 });
          await page.setRequestInterception(true);
          page.on("request", (req) => {
            const u = new URL(req.url());
            if (u.pathname === "/api/laps" && u.search === "?limit=1000") {
              req.respond({
                status: 200,
                contentType: "application/json",
                body: JSON.stringify(full),
              });
            } else req.continue();
          });
          await page.goto(`${url}/laps`);
          await waitReady(page);
          assert.equal(
            await page.$eval("#sessions-note", (e) => e.textContent),
            "The store's latest 1,000 laps are listed: pick a circuit or a car to reach older ones.",
          );
          assert.equal(await page.$$eval("#sessions tr[data-lap]", (t) => t.length), 1000);
          await page.close();
        });

        await t.step(
          "a comparison asks for its own laps' rows only, however large the store",
          async () => {
            const page = await browser.newPage();
            await page.setViewport({ width: 1400, height: 1000 });
            const listed: string[] = [];
            page.on("request", (req) => {
              const u = new URL(req.url());
              if (u.pathname === "/api/laps") listed.push(u.search);
            });
            await page.goto(cmpUrl);
            await waitReady(page);
            // One request, by ids (the URL's laps, the reference among them), never the whole list.
            assert.deepEqual(listed, [`?ids=${ids.join(",")}`]);
            const mark = await page.$eval(
              `#laps-legend [data-lap="${laps.incomplete}"]`,
              (e) => e.textContent,
            );
            assert.match(mark ?? "", /incomplete/);
            const sectors = (await json(
              `${url}/api/analysis/sectors?track=${encodeURIComponent(BROAD_BEAN)}&car=1549`,
            )).body;
            const shown = await page.$$eval("#sectors tbody tr", (trs) => trs.length);
            assert.equal(shown, sectors.sectors.length);
            assert.equal(
              await page.$eval("#title", (e) => e.textContent),
              `${BROAD_BEAN} · Amuse NISMO 380RS Super Leggera`,
            );
            await page.close();
          },
        );

        await t.step("more laps than a comparison draws is refused with a message", async () => {
          const page = await browser.newPage();
          const six = [...laps.suzuka, laps.broadBean[0]].join(",");
          await page.goto(`${url}/compare?laps=${six}`);
          await page.waitForSelector("body[data-ready]");
          const message = await page.$eval("#message", (e) => e.textContent);
          assert.match(message ?? "", /at most 5 laps/);
          assert.equal(await page.$$eval(".chart", (c) => c.length), 0);
          await page.close();
        });

        await t.step(
          "five 6,000-sample laps from the click, and the cursor's frame rate",
          async () => {
            const page = await openPage(browser, `${url}/laps?track=suzuka-circuit`);
            // As a driver picks: once the board's theoretical bests (the sectors route) are in.
            await page.waitForFunction(() =>
              [...document.querySelectorAll("#bests td.theoretical")].every((td) =>
                td.textContent !== "…"
              )
            );
            for (const id of laps.suzuka) await page.click(`#sessions input[data-pick="${id}"]`);
            const t0 = performance.now();
            await page.click("#compare");
            await waitReady(page);
            const outside = performance.now() - t0;
            const timings = await page.evaluate(() =>
              (window as unknown as Win).comparePage.timings
            );
            const charts = await drawnCharts(page);
            assert.equal(charts[0].series, 5);
            const samples = api.distance.length;
            const points = await page.evaluate(() =>
              (window as unknown as Win).comparePage.charts[0].data[0].length
            );
            assert.ok(points > 5700, `${points} grid points (${samples} on Broad Bean)`);
            const fps = await page.evaluate(async () => {
              const over = document.querySelector('[data-chart="speed"] .u-over')!;
              const r = over.getBoundingClientRect();
              const frames = 120;
              let work = 0;
              const t0 = performance.now();
              for (let i = 0; i < frames; i++) {
                await new Promise((res) => requestAnimationFrame(res));
                const a = performance.now();
                over.dispatchEvent(
                  new MouseEvent("mousemove", {
                    clientX: r.left + (r.width * (i + 0.5)) / frames,
                    clientY: r.top + r.height / 2,
                    bubbles: true,
                  }),
                );
                work += performance.now() - a;
              }
              const elapsed = performance.now() - t0;
              const idx = (window as unknown as Win).comparePage.charts.map((c: Chart) =>
                c.cursor.idx
              );
              return { fps: (frames * 1000) / elapsed, move_ms: work / frames, idx };
            });
            assert.deepEqual(fps.idx, fps.idx.map(() => fps.idx[0]));
            console.log(
              `five Suzuka laps (${points} points each): click to drawn ${
                Math.round(outside)
              } ms ` +
                `(page's own: ${JSON.stringify(timings)}); cursor ${
                  fps.fps.toFixed(1)
                } frames/s, ` +
                `${fps.move_ms.toFixed(2)} ms a move`,
            );
            // Generous bounds: the targets (300 ms, 50 frames/s) are recorded in docs/performance.md.
            assert.ok(
              timings.click_to_charts_ms !== null && timings.click_to_charts_ms < 10_000,
              JSON.stringify(timings),
            );
            assert.ok(fps.fps > 5, `${fps.fps} frames/s`);
            await page.close();
          },
        );
      });
    });
  },
});
