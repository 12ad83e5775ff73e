/**
 * While the dashboard draws, what the logger reports (a request that fails
 * inside the server included) goes to its notice line, never the terminal.
 */
import { strict as assert } from "node:assert";
import { startLogger } from "../../src/cli/logger_process.ts";
import { reportOnNotices } from "../../src/cli/start.ts";
import { TuiNotices } from "../../src/tui/notices.ts";

Deno.test("a failing request becomes a notice while diverted, and is printed again once it ends", async () => {
  const logger = await startLogger({
    data: ":memory:",
    host: "127.0.0.1",
    port: 0,
    console: null,
    consolePort: 33739,
    udpPort: 0,
    format: "C",
  });
  const printed: unknown[][] = [];
  const saved = { error: console.error, warn: console.warn, log: console.log };
  try {
    assert.equal(logger.log, logger.app.log);
    logger.app.sessions.listing = () => Promise.reject(new TypeError("boom\n  at somewhere"));
    const notices = new TuiNotices();
    const seen: [string, boolean][] = [];
    notices.subscribe((n) => {
      if (n) seen.push([n.text, n.sticky]);
    });
    console.error = console.warn = console.log = (...args: unknown[]) => void printed.push(args);
    const stop = reportOnNotices(logger.log, notices);
    const during = await fetch(`${logger.http.url}/api/sessions`);
    assert.equal(during.status, 500);
    await during.body?.cancel();
    assert.deepEqual(seen, [["request failed: TypeError: boom", false]]);
    assert.deepEqual(printed, []);
    stop();
    const after = await fetch(`${logger.http.url}/api/sessions`);
    await after.body?.cancel();
    assert.equal(seen.length, 1);
    assert.equal(printed.length, 1);
    assert.equal(printed[0][0], "request failed:");
  } finally {
    Object.assign(console, saved);
    await logger.close();
  }
});
