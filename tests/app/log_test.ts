import { strict as assert } from "node:assert";
import { type Log, logLine, RoutedLog } from "../../src/app/log.ts";

/** A log that keeps each call as [level, message, err]. */
function keeping(): { log: Log; calls: [string, string, unknown][] } {
  const calls: [string, string, unknown][] = [];
  return {
    calls,
    log: {
      warn: (message, err) => void calls.push(["warn", message, err]),
      error: (message, err) => void calls.push(["error", message, err]),
    },
  };
}

Deno.test("logLine: the message and the error's first line, never a stack", () => {
  assert.equal(logLine("lap write failed"), "lap write failed");
  const err = new TypeError("disk gone\nsecond line");
  assert.equal(logLine("request failed", err), "request failed: TypeError: disk gone");
  assert.equal(logLine("listener threw", "plain text"), "listener threw: plain text");
});

Deno.test("RoutedLog: the fallback until diverted, then only the diversion, then the fallback again", () => {
  const { log, calls } = keeping();
  const routed = new RoutedLog(log);
  const bug = new Error("a bug");
  routed.error("before", bug);
  const lines: [string, string][] = [];
  const undivert = routed.divert((line, level) => lines.push([line, level]));
  routed.warn("cache not kept");
  routed.error("request failed", bug);
  undivert();
  routed.warn("after");
  assert.deepEqual(calls, [["error", "before", bug], ["warn", "after", undefined]]);
  assert.deepEqual(lines, [["cache not kept", "warn"], ["request failed: Error: a bug", "error"]]);
});

Deno.test("RoutedLog: a later diversion replaces an earlier one, whose end then changes nothing", () => {
  const { log, calls } = keeping();
  const routed = new RoutedLog(log);
  const first: string[] = [];
  const second: string[] = [];
  const endFirst = routed.divert((line) => first.push(line));
  const endSecond = routed.divert((line) => second.push(line));
  endFirst();
  routed.warn("one");
  endSecond();
  routed.warn("two");
  assert.deepEqual([first, second], [[], ["one"]]);
  assert.deepEqual(calls, [["warn", "two", undefined]]);
});
