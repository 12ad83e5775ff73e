import { strict as assert } from "node:assert";
import { leftOf, rightOf } from "../../../src/core/gt7/handedness.ts";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";

Deno.test("leftOf and rightOf are opposite unit normals of the heading", () => {
  for (let h = -3; h <= 3; h += 0.25) {
    const fx = Math.sin(h);
    const fz = Math.cos(h);
    const [lx, lz] = leftOf(fx, fz);
    const [rx, rz] = rightOf(fx, fz);
    assert.ok(Math.abs(lx * fx + lz * fz) < 1e-12);
    assert.ok(Math.abs(Math.hypot(lx, lz) - 1) < 1e-12);
    assert.equal(lx, -rx);
    assert.equal(lz, -rz);
  }
  // Heading +z: left is +x.
  assert.deepEqual(leftOf(0, 1), [1, -0]);
});

Deno.test({
  name: "leftOf matches the real game: turning towards it, the left front wheel is the slower",
  ignore: noFixtures,
  fn() {
    // Decrypted format A packets; offsets of GT7's layout: velocity 0x10, wheel speeds 0xA4.
    const size = 296;
    const bytes = readGzFixture("gt7/suzuka-full-lap.A.gt7.gz");
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = Math.floor(bytes.length / size);
    const f32 = (i: number, off: number) => view.getFloat32(i * size + off, true);
    let agree = 0;
    let judged = 0;
    for (let i = 0; i + 1 < count; i++) {
      const vx = f32(i, 0x10);
      const vz = f32(i, 0x18);
      const v = Math.hypot(vx, vz);
      if (v < 10) continue;
      const [lx, lz] = leftOf(vx / v, vz / v);
      const nx = f32(i + 1, 0x10);
      const nz = f32(i + 1, 0x18);
      const nv = Math.hypot(nx, nz);
      // How fast the heading swings towards leftOf, rad/s.
      const swing = ((nx / nv) * lx + (nz / nv) * lz) * 60;
      if (Math.abs(swing) < 0.2) continue;
      const fl = Math.abs(f32(i, 0xa4));
      const fr = Math.abs(f32(i, 0xa8));
      judged++;
      if ((swing > 0) === (fl < fr)) agree++;
    }
    assert.ok(judged > 2000, `${judged} turning ticks`);
    assert.ok(agree / judged > 0.95, `${agree} of ${judged}`);
  },
});
