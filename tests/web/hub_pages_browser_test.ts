/// <reference lib="dom" />
// The page functions below run in Chromium, so they are typed against the DOM.
import { strict as assert } from "node:assert";
import type { Page } from "puppeteer-core";
import { noFixtures } from "../_fixtures.ts";
import { withHub } from "../server/hub/_analysis_hub.ts";
import { team } from "../server/hub/_analysis_team.ts";
import { browserMissing, openPage, waitReady, withChromium } from "./_pages_browser.ts";

const missing = browserMissing();
if (missing) console.log(missing);

/** The laps table as drawn: its header, and each row's id and driver. */
function drawnLaps(page: Page): Promise<{ heads: string[]; rows: string[][] }> {
  return page.evaluate(() => ({
    heads: [...document.querySelectorAll("#sessions thead th")].map((th) => th.textContent!),
    rows: [...document.querySelectorAll<HTMLElement>("#sessions tbody tr")].map((
      tr,
    ) => [tr.dataset.lap!, tr.querySelector(".driver")!.textContent!]),
  }));
}

Deno.test({
  name: "hub pages on a phone: the team's laps with their drivers, a driver filter, compare",
  ignore: noFixtures || missing !== null,
  async fn() {
    await withHub(team().hub, async (url) => {
      await withChromium(async (browser) => {
        const phone = { width: 390, height: 844 };
        const page = await openPage(browser, `${url}/laps`, phone);
        const all = await drawnLaps(page);
        assert.deepEqual(all.heads, ["", "Driver", "circuit", "car", "time", "finished", ""]);
        // Newest first, as the hub lists them.
        assert.deepEqual(all.rows, [
          ["47", "dave"],
          ["46", "dave"],
          ["24", "bob"],
          ["13", "alice"],
          ["22", "bob"],
          ["35", "carol"],
          ["11", "alice"],
        ]);
        assert.equal(await page.$eval("#bests-box", (b) => (b as HTMLElement).hidden), true);
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);

        // The driver filter asks the hub and keeps the choice in the address.
        const drawn = () => page.evaluate(() => (window as unknown as Win).lapsPage.drawn);
        const before = await drawn();
        await page.select("#filter-driver", "bob");
        await page.waitForFunction(
          (n) => (window as unknown as Win).lapsPage.drawn > n,
          {},
          before,
        );
        assert.deepEqual((await drawnLaps(page)).rows, [["24", "bob"], ["22", "bob"]]);
        assert.equal(new URL(page.url()).search, "?driver=bob");
        await page.click('#sessions input[data-pick="22"]');
        await page.select("#filter-driver", "alice");
        await page.waitForFunction(
          (n) => (window as unknown as Win).lapsPage.drawn > n,
          {},
          before + 1,
        );
        await page.click('#sessions input[data-pick="11"]');
        await page.click("#compare");
        await waitReady(page);
        const opened = new URL(page.url());
        assert.equal(opened.pathname, "/compare");
        assert.equal(opened.search, "?laps=22,11&ref=22");
        // Each lap is labelled with its driver.
        const legend = await page.$$eval(
          "#laps-legend .lap",
          (ls) => ls.map((l) => l.textContent!.split(" · ")[1]?.split(/reference|make/)[0]),
        );
        assert.deepEqual(legend, ["bob", "alice"]);
        await page.close();
      });
    });
  },
});

/** What the laps page exposes as `window.lapsPage`. */
interface Win {
  lapsPage: { drawn: number };
}
