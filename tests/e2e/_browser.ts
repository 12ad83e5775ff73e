/// <reference lib="dom" />
/**
 * A headless Debian chromium driven by puppeteer-core (no browser download),
 * for the live page's tests and its latency script. Where chromium is
 * missing, {@linkcode NO_CHROMIUM} says why and the callers skip.
 *
 * @module
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";

/** The chromium the tests drive (`apt-get install -y chromium`). */
export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here, or null when they can. */
export const NO_CHROMIUM: string | null = (() => {
  try {
    Deno.statSync(CHROMIUM);
    return null;
  } catch {
    return `${CHROMIUM} is missing (apt-get install -y chromium)`;
  }
})();

/** Starts headless chromium; pages never throttle timers or animation frames in the background. */
export async function launchChromium(): Promise<Browser> {
  return await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-timer-throttling",
      "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
}

/**
 * Before any script of `page` runs: speech synthesis and WebAudio replaced
 * by recorders (window.spoken: each utterance asked for; window.tones: the
 * frequency of each tone started; each with the page's newest frame's brake
 * marker and speed at that moment), and, on the device's first load only
 * (settings persist across reloads, as on a phone), the live page's settings
 * with speech on or off (`speak`) and the "brake" voice cue.
 */
export async function stubSpeech(page: Page, speak: boolean): Promise<void> {
  await page.evaluateOnNewDocument((speakOn: boolean) => {
    const key = "sim-datalogger.live.settings";
    if (localStorage.getItem(key) === null) {
      localStorage.setItem(
        key,
        JSON.stringify({ speak: speakOn, mode: "voice", verbosity: "coach", volume: 0.8 }),
      );
    }
    const spoken: unknown[] = [];
    const tones: unknown[] = [];
    Object.assign(window, { spoken, tones });
    const now = () => {
      const f = (window as unknown as {
        liveStats?: { frame?: { next_brake: unknown; speed_kmh: number } };
      }).liveStats?.frame;
      return { next_brake: f?.next_brake ?? null, speed_kmh: f?.speed_kmh ?? null };
    };
    class Utterance {
      text: string;
      volume = 1;
      rate = 1;
      constructor(text: string) {
        this.text = text;
      }
    }
    Object.defineProperty(window, "SpeechSynthesisUtterance", { value: Utterance });
    Object.defineProperty(window, "speechSynthesis", {
      value: {
        speak(u: Utterance) {
          spoken.push({ text: u.text, volume: u.volume, ...now() });
        },
        cancel() {},
      },
    });
    class Audio {
      currentTime = 0;
      destination = {};
      createGain() {
        return { gain: { value: 1 }, connect: (to: unknown) => to };
      }
      createOscillator() {
        const osc = {
          frequency: { value: 440 },
          connect: (to: unknown) => to,
          start: () => tones.push({ hz: osc.frequency.value, ...now() }),
          stop: () => {},
        };
        return osc;
      }
    }
    Object.defineProperty(window, "AudioContext", { value: Audio });
  }, speak);
}

/** The nearest-rank percentile `p` (0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))];
}
