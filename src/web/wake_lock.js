// @ts-check
/**
 * Keeps a phone's screen on while telemetry flows: a screen wake lock is
 * asked for when frames arrive (and again when the page becomes visible,
 * since the browser lets the lock go whenever the page is hidden) and let go
 * once no frame has come for {@linkcode WAKE_IDLE_S}, so a phone left on the
 * rig after the session sleeps as usual. Where the browser has no Wake Lock
 * API (it offers it only to a secure context: https, or localhost) or
 * refuses (battery saver, a hidden page), the state says so for the page to
 * show. The browser's objects and the clock are passed in, so Deno tests
 * drive it with a fake lock and a fake clock.
 *
 * @module
 */

/** Seconds without a frame after which the lock is let go: telemetry has stopped. */
export const WAKE_IDLE_S = 5;

/**
 * What the keeper knows: `held` while the screen is kept on; `idle` with no
 * lock because no telemetry flows; `asking` while a request is pending;
 * `refused` when the browser said no (`why` its reason), asked again only
 * when the page next becomes visible; `unsupported` when there is no API
 * (`why`: no secure context, or none in this browser).
 * @typedef {{ kind: "held" | "idle" | "asking" } | { kind: "refused" | "unsupported", why: string }} WakeState
 */

/**
 * The part of `navigator.wakeLock` used: a request for the screen's lock,
 * resolving to a sentinel that can be released and says when it was.
 * @typedef {{ request(type: "screen"): Promise<WakeSentinel> }} WakeApi
 * @typedef {{ released: boolean, release(): Promise<void>,
 *   addEventListener(type: "release", fn: () => void): void }} WakeSentinel
 */

/**
 * The page's words for a state: what the driver needs to know about the screen.
 * @param {WakeState} s
 * @returns {string}
 */
export function wakeText(s) {
  switch (s.kind) {
    case "held":
      return "screen kept on";
    case "idle":
    case "asking":
      return "";
    case "refused":
      return `screen may sleep: the browser refused to keep it on (${s.why})`;
    case "unsupported":
      return `screen may sleep: ${s.why}`;
  }
}

/**
 * A keeper of the screen's wake lock. Call `frame()` per frame received,
 * `tick()` about once a second and `shown()` when the page becomes visible;
 * `onChange` hears every new state.
 * @param {{
 *   api: WakeApi | undefined,
 *   secure: boolean,
 *   visible: () => boolean,
 *   now: () => number,
 *   onChange?: (s: WakeState) => void,
 * }} deps
 */
export function wakeKeeper(deps) {
  /** @type {WakeState} */
  let state = deps.api ? { kind: "idle" } : {
    kind: "unsupported",
    why: deps.secure
      ? "this browser cannot keep it on (no Wake Lock API)"
      : "browsers keep a screen on only for a page opened over https or on localhost",
  };
  /** @type {WakeSentinel | null} */
  let sentinel = null;
  let lastFrame = -Infinity;

  /** @param {WakeState} s */
  const set = (s) => {
    state = s;
    deps.onChange?.(s);
  };
  const flowing = () => deps.now() - lastFrame <= WAKE_IDLE_S * 1000;

  async function ask() {
    const api = deps.api;
    if (!api || state.kind === "held" || state.kind === "asking") return;
    set({ kind: "asking" });
    try {
      const s = await api.request("screen");
      // Telemetry may have stopped while the browser decided.
      if (!flowing()) {
        await s.release();
        set({ kind: "idle" });
        return;
      }
      sentinel = s;
      s.addEventListener("release", () => {
        // The browser lets it go when the page is hidden; the next `shown()` asks again.
        if (sentinel !== s) return;
        sentinel = null;
        if (state.kind === "held") set({ kind: "idle" });
      });
      set({ kind: "held" });
    } catch (err) {
      set({ kind: "refused", why: err instanceof Error ? err.message || err.name : String(err) });
    }
  }

  return {
    /** The state now. */
    get state() {
      return state;
    },
    /** A frame arrived: ask for the lock unless it is held, pending, refused or impossible. */
    frame() {
      lastFrame = deps.now();
      if (state.kind === "idle" && deps.visible()) void ask();
    },
    /** The page became visible: ask again (a refusal too) while frames flow. */
    shown() {
      if (!deps.visible() || !flowing()) return;
      if (state.kind === "idle" || state.kind === "refused") {
        if (state.kind === "refused") set({ kind: "idle" });
        void ask();
      }
    },
    /**
     * Once no frame has come for {@linkcode WAKE_IDLE_S}: lets the lock go,
     * and forgets a refusal (the next session's frames ask afresh).
     */
    async tick() {
      if (flowing()) return;
      if (state.kind === "refused") set({ kind: "idle" });
      if (state.kind !== "held") return;
      const s = sentinel;
      sentinel = null;
      set({ kind: "idle" });
      if (s && !s.released) await s.release();
    },
  };
}
