import { strict as assert } from "node:assert";
import {
  WAKE_IDLE_S,
  wakeKeeper,
  type WakeSentinel,
  type WakeState,
  wakeText,
} from "../../src/web/wake_lock.js";

/** A fake `navigator.wakeLock`: each request answered by the test, each sentinel kept. */
function fakeLock() {
  const requests: PromiseWithResolvers<WakeSentinel>[] = [];
  const sentinels: { released: boolean; fire(): void }[] = [];
  const api = {
    request(type: "screen") {
      assert.equal(type, "screen");
      const p = Promise.withResolvers<WakeSentinel>();
      requests.push(p);
      return p.promise;
    },
  };
  const grant = () => {
    let onRelease = () => {};
    const s = {
      released: false,
      release() {
        s.released = true;
        onRelease();
        return Promise.resolve();
      },
      addEventListener(_: "release", fn: () => void) {
        onRelease = fn;
      },
      fire() {
        s.released = true;
        onRelease();
      },
    };
    sentinels.push(s);
    requests.at(-1)!.resolve(s);
    return s;
  };
  return { api, requests, sentinels, grant };
}

function keeper(api: ReturnType<typeof fakeLock>["api"] | undefined, secure = true) {
  const clock = { ms: 1_000_000, visible: true };
  const seen: WakeState["kind"][] = [];
  const k = wakeKeeper({
    api,
    secure,
    visible: () => clock.visible,
    now: () => clock.ms,
    onChange: (s) => seen.push(s.kind),
  });
  return { k, clock, seen };
}

Deno.test("the lock is asked for once while frames flow and let go when they stop", async () => {
  const lock = fakeLock();
  const { k, clock, seen } = keeper(lock.api);
  assert.equal(k.state.kind, "idle");
  // 60 frames a second: one request however many frames come while it is pending.
  for (let i = 0; i < 30; i++) {
    k.frame();
    clock.ms += 17;
  }
  assert.equal(lock.requests.length, 1);
  lock.grant();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(k.state.kind, "held");
  assert.equal(wakeText(k.state), "screen kept on");
  // Frames every 17 ms for a while: held, no second request.
  for (let i = 0; i < 600; i++) {
    clock.ms += 17;
    k.frame();
    if (i % 60 === 0) await k.tick();
  }
  assert.equal(lock.requests.length, 1);
  assert.equal(k.state.kind, "held");
  // Quiet for exactly the idle time: still held; one ms more: let go.
  clock.ms += WAKE_IDLE_S * 1000;
  await k.tick();
  assert.equal(k.state.kind, "held");
  clock.ms += 1;
  await k.tick();
  assert.equal(k.state.kind, "idle");
  assert.equal(lock.sentinels[0].released, true);
  assert.deepEqual(seen, ["asking", "held", "idle"]);
  // Telemetry again: asked again.
  k.frame();
  assert.equal(lock.requests.length, 2);
});

Deno.test("hidden, the browser lets the lock go; visible again, it is asked for again", async () => {
  const lock = fakeLock();
  const { k, clock } = keeper(lock.api);
  k.frame();
  lock.grant();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(k.state.kind, "held");
  clock.visible = false;
  lock.sentinels[0].fire();
  assert.equal(k.state.kind, "idle");
  // Frames while hidden ask for nothing (a hidden page is always refused).
  clock.ms += 100;
  k.frame();
  assert.equal(lock.requests.length, 1);
  clock.visible = true;
  k.shown();
  assert.equal(lock.requests.length, 2);
  lock.grant();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(k.state.kind, "held");
});

Deno.test("a refusal is said with its reason, and asked again only when shown or next session", async () => {
  const lock = fakeLock();
  const { k, clock } = keeper(lock.api);
  k.frame();
  lock.requests[0].reject(new Error("battery saver is on"));
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(k.state, { kind: "refused", why: "battery saver is on" });
  assert.equal(
    wakeText(k.state),
    "screen may sleep: the browser refused to keep it on (battery saver is on)",
  );
  for (let i = 0; i < 100; i++) {
    clock.ms += 17;
    k.frame();
  }
  assert.equal(lock.requests.length, 1);
  k.shown();
  assert.equal(lock.requests.length, 2);
  lock.requests[1].reject(new Error("still no"));
  await Promise.resolve();
  await Promise.resolve();
  // Telemetry stops: the refusal is forgotten, and the next frame asks afresh.
  clock.ms += WAKE_IDLE_S * 1000 + 1;
  await k.tick();
  assert.equal(k.state.kind, "idle");
  k.frame();
  assert.equal(lock.requests.length, 3);
});

Deno.test("a lock granted after telemetry stopped is let go at once", async () => {
  const lock = fakeLock();
  const { k, clock } = keeper(lock.api);
  k.frame();
  clock.ms += WAKE_IDLE_S * 1000 + 1;
  const s = lock.grant();
  await Promise.resolve();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(s.released, true);
  assert.equal(k.state.kind, "idle");
});

Deno.test("without the API the page says why: no secure context, or no support", () => {
  const insecure = keeper(undefined, false).k;
  insecure.frame();
  assert.equal(
    wakeText(insecure.state),
    "screen may sleep: browsers keep a screen on only for a page opened over https or on localhost",
  );
  assert.equal(
    wakeText(keeper(undefined, true).k.state),
    "screen may sleep: this browser cannot keep it on (no Wake Lock API)",
  );
  assert.equal(wakeText({ kind: "idle" }), "");
});
