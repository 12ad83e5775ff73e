/// <reference lib="dom" />
/**
 * Writes the analysis pages' screenshots in docs/screenshots/ from real laps:
 * a logger on loopback with an in-memory store is filled with the shared
 * fixtures' laps (the Broad Bean fixture's four, one of them again with
 * packets lost, and the Suzuka capture), and Debian's Chromium photographs
 * the laps page, the comparison of the Broad Bean laps, the same zoomed to
 * the corner where the most time was lost, and saves the track map as SVG
 * through the page's own export. Run: `deno run -A scripts/page_screenshots.ts`.
 *
 * @module
 */
import { withServer } from "../tests/server/_server.ts";
import {
  browserMissing,
  openPage,
  storePageLaps,
  withChromium,
} from "../tests/web/_pages_browser.ts";

/** Where the pictures go, under the project's root. */
const OUT = new URL("../docs/screenshots/", import.meta.url);

if (import.meta.main) {
  const missing = browserMissing();
  if (missing) {
    console.error(missing);
    Deno.exit(1);
  }
  await Deno.mkdir(OUT, { recursive: true });
  await withServer(async (url, app) => {
    const laps = await storePageLaps(url, app);
    await withChromium(async (browser) => {
      const size = { width: 1500, height: 1100 };
      const list = await openPage(browser, `${url}/laps`, size);
      await list.waitForFunction(() =>
        [...document.querySelectorAll("#bests td.theoretical")].every((td) =>
          td.textContent !== "…"
        )
      );
      await list.screenshot({ path: new URL("laps.png", OUT).pathname, fullPage: true });
      await list.close();

      const ids = [...laps.broadBean, laps.incomplete];
      const ref = laps.broadBean[1];
      const cmp = await openPage(browser, `${url}/compare?laps=${ids.join(",")}&ref=${ref}`, size);
      await cmp.screenshot({ path: new URL("compare.png", OUT).pathname, fullPage: true });
      await cmp.click("#corners tbody tr");
      await cmp.hover('[data-chart="speed"] .u-over');
      await cmp.screenshot({ path: new URL("compare_corner.png", OUT).pathname, fullPage: true });
      const svg = await cmp.evaluate(() =>
        (window as unknown as { comparePage: { map: { text(): string } } }).comparePage.map.text()
      );
      await Deno.writeTextFile(new URL("compare_map.svg", OUT), svg);
      await cmp.close();

      const suzuka = await openPage(
        browser,
        `${url}/compare?laps=${laps.suzuka.slice(0, 2).join(",")}&ref=${laps.suzuka[0]}&map=speed`,
        size,
      );
      await suzuka.screenshot({
        path: new URL("compare_suzuka.png", OUT).pathname,
        fullPage: true,
      });
      await suzuka.close();
    });
  });
  console.log(
    `wrote ${OUT.pathname}{laps,compare,compare_corner,compare_suzuka}.png, compare_map.svg`,
  );
}
