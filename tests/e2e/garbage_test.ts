import { strict as assert } from "node:assert";
import { join } from "node:path";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { garbageDatagrams } from "../_garbage.ts";
import { assertSuzukaLap, mixIn, replayInto } from "./harness.ts";

const GARBAGE = 10_000;
Deno.test({
  name: "10,000 bad datagrams during a replay change nothing but the rejected counter",
  ignore: noFixtures,
  async fn() {
    // Mixed in at fixed places between the replay's packets, with the replay's
    // acknowledgement window and mixIn's bound on uncounted garbage keeping
    // what is in flight within even the platform's default socket buffer
    // (asked for here): none may be lost, and every one must be counted.
    const mix = mixIn(garbageDatagrams(99, GARBAGE), 6420);
    const { logger } = await replayInto(join(SHARED_FIXTURES, "gt7/suzuka-full-lap.A.gt7.gz"), {
      beforePacket: mix.beforePacket,
      logger: { receiveBufferBytes: 0 },
    });
    try {
      mix.close();
      const status = logger.udp.status();
      assert.equal(status.rejected, GARBAGE);
      assert.equal(status.rejected_magic, Math.ceil(GARBAGE / 3));
      assert.equal(status.rejected_size, GARBAGE - Math.ceil(GARBAGE / 3));
      assert.equal(status.decoded, 6420);
      assert.equal(status.packets_received, 6420 + GARBAGE);
      if (status.kernel_drops !== null) assert.equal(status.kernel_drops, 0);
      await assertSuzukaLap(logger);
    } finally {
      mix.close();
      await logger.close();
    }
  },
});
