/**
 * The MoTeC log's exact bytes, pinned on the Suzuka lap: any change of a
 * byte of the .ld (a header field, a channel's scaling, a rounded value) or
 * of the .ldx text fails here. The digests were taken from the export the
 * round-trip test (ld_fixture_test.ts) reads back correctly.
 */
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { noFixtures } from "../../_fixtures.ts";
import { encodeLd } from "../../../src/core/motec/ld_writer.ts";
import { encodeLdx } from "../../../src/core/motec/ldx_writer.ts";
import type { MotecLog } from "../../../src/core/motec/log.ts";
import { suzukaMotecLap } from "./_motec_laps.ts";

function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

Deno.test({
  name: "the Suzuka lap's .ld and .ldx bytes are pinned",
  ignore: noFixtures,
  fn() {
    const log: MotecLog = {
      laps: [suzukaMotecLap()],
      driver: "A. Driver",
      vehicle: "McLaren VGT",
      venue: "Suzuka Circuit",
      event: "Gran Turismo 7",
      session: "Lap 1",
    };
    const ld = encodeLd(log);
    assert.equal(ld.length, 4276 + 35 * 124 + 35 * 5942 * 4);
    assert.equal(sha256(ld), "eb5c157a58fc5ef1ff1592e8cbb252ecf30e44f30aaf4f2ba8bdc0532b186fb6");
    assert.equal(sha256(encodeLd(log)), sha256(ld));
    assert.equal(
      sha256(encodeLdx(log)),
      "7a955026b71cd50e16bd9241f274ded5d74498f46b34a97d10089e1983307ec6",
    );
  },
});
