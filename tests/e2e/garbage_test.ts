import { strict as assert } from "node:assert";
import { join } from "node:path";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import type { LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { garbageDatagrams } from "../_garbage.ts";
import { getJson, replayInto } from "./harness.ts";

const GARBAGE = 10_000;
Deno.test({
  name: "10,000 bad datagrams during a replay change nothing but the rejected counter",
  ignore: noFixtures,
  async fn() {
    const junk = garbageDatagrams(99, GARBAGE);
    const { logger } = await replayInto(join(SHARED_FIXTURES, "gt7/suzuka-full-lap.A.gt7.gz"), {
      async during(logger) {
        const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
        const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: logger.udp.port };
        try {
          for (let i = 0; i < junk.length; i++) {
            // Keep at most 64 bad datagrams in flight, so the kernel never drops
            // one for want of buffer space and every one must be counted.
            while (i - logger.udp.status().rejected >= 64) {
              await new Promise((r) => setTimeout(r, 1));
            }
            await sock.send(junk[i], to);
          }
          // The replay may end first: wait for the last ones in flight (a lost one
          // still fails the count below, after the deadline).
          const deadline = Date.now() + 10_000;
          while (logger.udp.status().rejected < junk.length && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 1));
          }
        } finally {
          sock.close();
        }
      },
    });
    try {
      const status = logger.udp.status();
      assert.equal(status.rejected, GARBAGE);
      assert.equal(status.rejected_magic, Math.ceil(GARBAGE / 3));
      assert.equal(status.rejected_size, GARBAGE - Math.ceil(GARBAGE / 3));
      assert.equal(status.decoded, 6420);
      assert.equal(status.packets_received, 6420 + GARBAGE);
      const [session] = await getJson<Session[]>(logger, "/api/sessions");
      const laps = await getJson<LapSummary[]>(logger, `/api/sessions/${session.id}/laps`);
      assert.equal(laps.length, 1);
      assert.equal(laps[0].time_ms, 99036);
      assert.equal(laps[0].total_ticks, 5942);
    } finally {
      await logger.close();
    }
  },
});
