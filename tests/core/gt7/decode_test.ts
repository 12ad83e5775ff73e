import { strict as assert } from "node:assert";
import fc from "fast-check";
import { decryptPacket } from "../../../src/core/gt7/cipher.ts";
import { decodeFrame, readCurrentLap, readPacketId } from "../../../src/core/gt7/decode.ts";
import { encodeFrame } from "../../../src/core/gt7/encode.ts";
import {
  PACKET_FORMATS,
  PACKET_MAGIC,
  PACKET_SIZE,
  type PacketFormat,
} from "../../../src/core/gt7/format.ts";
import { FLAG, type Frame } from "../../../src/core/gt7/frame.ts";
import { noFixtures, readFixture, readGzFixture } from "../../_fixtures.ts";

/** Splits a decrypted stream by packet size, ignoring a partial tail. */
function packetsOf(stream: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at + size <= stream.length; at += size) out.push(stream.subarray(at, at + size));
  return out;
}

function framesOf(file: string, size: number): Frame[] {
  return packetsOf(readGzFixture(`gt7/${file}`), size).map(decodeFrame);
}

/** Indexes where the lap counter changes, as "from->to@index". */
function lapChanges(frames: Frame[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < frames.length; i++) {
    const [a, b] = [frames[i - 1].currentLap, frames[i].currentLap];
    if (a !== b) out.push(`${a}->${b}@${i}`);
  }
  return out;
}

/** Packet-id steps other than +1, as "step@index". */
function idIrregularities(frames: Frame[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < frames.length; i++) {
    const step = frames[i].packetId - frames[i - 1].packetId;
    if (step !== 1) out.push(`${step}@${i}`);
  }
  return out;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Byte ranges [from, to) a Frame does not carry: IV slot, padding, reserved, unknown. */
const NOT_IN_FRAME: Record<PacketFormat, [number, number][]> = {
  A: [[0x40, 0x44], [0x93, 0x94], [0xd4, 0xf4]],
  B: [[0x40, 0x44], [0x93, 0x94], [0xd4, 0xf4], [0x12c, 0x130]],
  "~": [[0x40, 0x44], [0x93, 0x94], [0xd4, 0xf4], [0x12c, 0x130], [0x13e, 0x140], [0x154, 0x158]],
  C: [[0x40, 0x44], [0x93, 0x94], [0xd4, 0xf4], [0x12c, 0x130], [0x13e, 0x140], [0x154, 0x158]],
};

/** A copy of `packet` with the bytes a Frame does not carry set to zero. */
function maskUnknown(packet: Uint8Array, format: PacketFormat): Uint8Array {
  const copy = packet.slice();
  for (const [from, to] of NOT_IN_FRAME[format]) copy.fill(0, from, to);
  return copy;
}

Deno.test({
  name: "test vector decodes to the published values",
  ignore: noFixtures,
  fn() {
    const cipher = readFixture("gt7/encrypted/broad-bean-raceway--full-course.A.gt7")
      .subarray(0, 296);
    const plain = decryptPacket(cipher);
    assert.ok(plain !== null);
    const f = decodeFrame(plain);
    assert.equal(f.format, "A");
    assert.equal(f.packetId, 420001);
    assert.equal(f.currentLap, 2);
    assert.deepEqual([f.posX, f.posY, f.posZ].map(round3), [0.188, 0.346, 205.031]);
    assert.equal(round3(f.speed), 67.599);
    assert.equal(f.carId, 3531);
    assert.equal(f.flags, 9);
    assert.equal(f.flags & FLAG.onTrack, FLAG.onTrack);
    assert.equal(f.flags & FLAG.inGear, FLAG.inGear);
    assert.equal(f.motion, null);
    assert.equal(f.filtered, null);
    assert.equal(f.surface, null);
    assert.equal(f.gearRatios.length, 8);
    assert.equal(readPacketId(plain), 420001);
    assert.equal(readCurrentLap(plain), 2);
  },
});

Deno.test({
  name: "Suzuka (A): lap 0->1 at 375, 1->2 at 6317 with last lap 99,036 ms",
  ignore: noFixtures,
  fn() {
    const stream = readGzFixture("gt7/suzuka-full-lap.A.gt7.gz");
    assert.equal(stream.length, 6420 * 296 + 224);
    const frames = packetsOf(stream, 296).map(decodeFrame);
    assert.equal(frames.length, 6420);
    assert.deepEqual(lapChanges(frames), ["0->1@375", "1->2@6317"]);
    assert.equal(6317 - 375, 5942);
    assert.equal(frames[6316].lastLapMs, -1);
    assert.equal(frames[6317].lastLapMs, 99036);
    assert.equal(frames[6317].bestLapMs, 99036);
    assert.ok(frames.every((f) => f.format === "A" && f.carId === 3315 && f.motion === null));
    assert.ok(frames.every((f) => (f.flags & FLAG.onTrack) === 0));
  },
});

Deno.test({
  name: "Spa (C): lap 1->2 at the last packet, 115,244 ms; surfaces; lap clock",
  ignore: noFixtures,
  fn() {
    const frames = framesOf("spa-full-lap.C.gt7.gz", 368);
    assert.equal(frames.length, 6914);
    assert.deepEqual(lapChanges(frames), ["1->2@6913"]);
    assert.equal(frames[6913].lastLapMs, 115244);
    assert.deepEqual(idIrregularities(frames), []);
    assert.ok(frames.every((f) => f.format === "C" && f.carId === 3582));
    assert.ok(frames.every((f) => (f.flags & FLAG.onTrack) === 0));

    const letters = new Map<string, number>();
    for (const f of frames) {
      assert.ok(f.surface !== null && f.motion !== null && f.filtered !== null);
      assert.equal(f.surface.surface.length, 4);
      for (const letter of f.surface.surface) letters.set(letter, (letters.get(letter) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(letters), { T: 25386, C: 2246, G: 24 });

    // The live lap clock at 0x15C: starts at 34 ms, runs at 16-17 ms a tick, never
    // goes back, and passes the game's lap time at the line.
    const clock = frames.map((f) => f.surface!.lapTimeMs);
    assert.equal(clock[0], 34);
    assert.deepEqual(clock.slice(-2), [115234, 115250]);
    for (let i = 1; i < clock.length; i++) {
      const step = clock[i] - clock[i - 1];
      assert.ok(step >= 0 && step <= 17, `lap clock step ${step} at ${i}`);
    }
    assert.equal(frames[0].surface!.carCategory, "GRX");
  },
});

Deno.test({
  name: "Nordschleife (~): lap 1->2 at 442 (240,280 ms), one duplicate id, one gap of 2",
  ignore: noFixtures,
  fn() {
    const frames = framesOf("nordschleife-partial.tilde.gt7.gz", 344);
    assert.equal(frames.length, 3600);
    assert.deepEqual(lapChanges(frames), ["1->2@442"]);
    assert.equal(frames[441].lastLapMs, -1);
    assert.equal(frames[442].lastLapMs, 240280);
    assert.deepEqual(idIrregularities(frames), ["2@1488", "0@1490"]);
    assert.ok(frames.every((f) => f.format === "~" && f.carId === 2108));
    assert.ok(frames.every((f) => f.motion !== null && f.filtered !== null && f.surface === null));
    assert.ok(frames.every((f) => (f.flags & FLAG.onTrack) === 0));
  },
});

Deno.test({
  name: "real packets re-encode byte for byte, apart from bytes a Frame does not carry",
  ignore: noFixtures,
  fn() {
    const streams: [string, PacketFormat][] = [
      ["suzuka-full-lap.A.gt7.gz", "A"],
      ["spa-full-lap.C.gt7.gz", "C"],
      ["nordschleife-partial.tilde.gt7.gz", "~"],
    ];
    for (const [file, format] of streams) {
      const packets = packetsOf(readGzFixture(`gt7/${file}`), PACKET_SIZE[format]);
      packets.forEach((packet, i) => {
        const frame = decodeFrame(packet);
        assert.equal(readPacketId(packet), frame.packetId);
        assert.equal(readCurrentLap(packet), frame.currentLap);
        const again = encodeFrame(frame);
        assert.deepEqual(again, maskUnknown(packet, format), `${file} packet ${i}`);
      });
    }
  },
});

const f32 = fc.float();
const wheels = fc.tuple(f32, f32, f32, f32);
const int = (bits: 8 | 16 | 32, signed: boolean) =>
  signed
    ? fc.integer({ min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1 })
    : fc.integer({ min: 0, max: 2 ** bits - 1 });

/** Decoded frames are plain objects, so generated ones must be too. */
const PLAIN = { noNullPrototype: true };

function frameArb(format: PacketFormat): fc.Arbitrary<Frame> {
  const size = PACKET_SIZE[format];
  return fc.record({
    format: fc.constant(format),
    packetId: int(32, true),
    posX: f32,
    posY: f32,
    posZ: f32,
    velX: f32,
    velY: f32,
    velZ: f32,
    rotX: f32,
    rotY: f32,
    rotZ: f32,
    rotW: f32,
    angVelX: f32,
    angVelY: f32,
    angVelZ: f32,
    bodyHeight: f32,
    engineRpm: f32,
    fuelLevel: f32,
    fuelCapacity: f32,
    speed: f32,
    boostRaw: f32,
    oilPressure: f32,
    waterTemp: f32,
    oilTemp: f32,
    tyreTemp: wheels,
    currentLap: int(16, true),
    totalLaps: int(16, true),
    bestLapMs: int(32, true),
    lastLapMs: int(32, true),
    dayProgressionMs: int(32, true),
    racePosition: int(16, true),
    totalPositions: int(16, true),
    rpmAlertMin: int(16, false),
    rpmAlertMax: int(16, false),
    calculatedMaxSpeed: int(16, true),
    flags: int(16, false),
    gear: fc.integer({ min: 0, max: 15 }),
    suggestedGear: fc.integer({ min: 0, max: 15 }),
    throttle: int(8, false),
    brake: int(8, false),
    roadPlane: wheels,
    wheelRps: wheels,
    tyreRadius: wheels,
    suspension: wheels,
    clutch: f32,
    clutchEngagement: f32,
    rpmAfterClutch: f32,
    transmissionTopSpeed: f32,
    gearRatios: fc.array(f32, { minLength: 8, maxLength: 8 }),
    carId: int(32, true),
    motion: size >= PACKET_SIZE.B
      ? fc.record({ wheelRotation: f32, sway: f32, heave: f32, surge: f32 }, PLAIN)
      : fc.constant(null),
    filtered: size >= PACKET_SIZE["~"]
      ? fc.record({
        throttleFiltered: int(8, false),
        brakeFiltered: int(8, false),
        torqueVectors: wheels,
        energyRecovery: f32,
      }, PLAIN)
      : fc.constant(null),
    surface: size >= PACKET_SIZE.C
      ? fc.record({
        surface: fc.string({
          unit: fc.constantFrom("T", "C", "D", "G", "S", "s"),
          minLength: 4,
          maxLength: 4,
        }),
        lapTimeMs: int(32, true),
        wheelSteering: fc.tuple(f32, f32),
        wheelbase: f32,
        carCategory: fc.string({ unit: "grapheme-ascii", maxLength: 4 }),
      }, PLAIN)
      : fc.constant(null),
  }, PLAIN);
}

Deno.test("encode then decode gives the same frame, for every format (property)", () => {
  for (const format of PACKET_FORMATS) {
    fc.assert(
      fc.property(frameArb(format), (frame) => {
        const packet = encodeFrame(frame);
        assert.equal(packet.length, PACKET_SIZE[format]);
        assert.equal(new DataView(packet.buffer).getUint32(0, true), PACKET_MAGIC);
        for (const [from, to] of NOT_IN_FRAME[format]) {
          assert.ok(packet.subarray(from, to).every((b) => b === 0), `bytes ${from}..${to}`);
        }
        assert.deepStrictEqual(decodeFrame(packet), frame);
        assert.equal(readPacketId(packet), frame.packetId);
        assert.equal(readCurrentLap(packet), frame.currentLap);
      }),
      { numRuns: 300 },
    );
  }
});

Deno.test("float fields round to float32 on the way through", () => {
  const frame = fc.sample(frameArb("A"), { numRuns: 1, seed: 7 })[0];
  const decoded = decodeFrame(encodeFrame({ ...frame, speed: 0.1, tyreTemp: [1 / 3, 0, 0, 0] }));
  assert.equal(decoded.speed, Math.fround(0.1));
  assert.notEqual(decoded.speed, 0.1);
  assert.equal(decoded.tyreTemp[0], Math.fround(1 / 3));
});

Deno.test("encoding to another format drops or zero-fills the extensions", () => {
  const [c] = fc.sample(frameArb("C"), { numRuns: 1, seed: 42 });
  const asA = decodeFrame(encodeFrame(c, "A"));
  assert.deepStrictEqual(asA, { ...c, format: "A", motion: null, filtered: null, surface: null });
  const asTilde = decodeFrame(encodeFrame(c, "~"));
  assert.deepStrictEqual(asTilde, { ...c, format: "~", surface: null });

  const [a] = fc.sample(frameArb("A"), { numRuns: 1, seed: 43 });
  const asC = decodeFrame(encodeFrame(a, "C"));
  assert.equal(asC.format, "C");
  assert.deepStrictEqual(asC.motion, { wheelRotation: 0, sway: 0, heave: 0, surge: 0 });
  assert.deepStrictEqual(asC.filtered, {
    throttleFiltered: 0,
    brakeFiltered: 0,
    torqueVectors: [0, 0, 0, 0],
    energyRecovery: 0,
  });
  assert.deepStrictEqual(asC.surface, {
    surface: "\0\0\0\0",
    lapTimeMs: 0,
    wheelSteering: [0, 0],
    wheelbase: 0,
    carCategory: "",
  });
  assert.deepStrictEqual({ ...asC, motion: null, filtered: null, surface: null, format: "A" }, a);
});

Deno.test("decodeFrame refuses unknown sizes and packets without the magic", () => {
  for (const size of [0, 295, 297, 300, 369]) {
    assert.throws(() => decodeFrame(new Uint8Array(size)), RangeError, `size ${size}`);
  }
  assert.throws(() => decodeFrame(new Uint8Array(296)), /magic/);
  const packet = new Uint8Array(400);
  new DataView(packet.buffer).setUint32(52, PACKET_MAGIC, true);
  // A view at an offset decodes from its own start.
  assert.equal(decodeFrame(packet.subarray(52, 52 + 316)).format, "B");
});

Deno.test("encodeFrame refuses values the packet cannot hold", () => {
  const [frame] = fc.sample(frameArb("C"), { numRuns: 1, seed: 1 });
  const surface = frame.surface!;
  const bad: [string, Frame][] = [
    ["packetId", { ...frame, packetId: 2 ** 31 }],
    ["currentLap", { ...frame, currentLap: 40000 }],
    ["rpmAlertMax", { ...frame, rpmAlertMax: -1 }],
    ["gear", { ...frame, gear: 16 }],
    ["throttle", { ...frame, throttle: 1.5 }],
    ["flags", { ...frame, flags: 0x10000 }],
    ["gearRatios", { ...frame, gearRatios: [1, 2, 3] }],
    ["surface", { ...frame, surface: { ...surface, surface: "TT" } }],
    ["carCategory", { ...frame, surface: { ...surface, carCategory: "ABCDE" } }],
    ["carCategory", { ...frame, surface: { ...surface, carCategory: "€" } }],
    ["lapTimeMs", { ...frame, surface: { ...surface, lapTimeMs: NaN } }],
  ];
  for (const [field, f] of bad) {
    assert.throws(() => encodeFrame(f), (e: unknown) => {
      return e instanceof RangeError && e.message.startsWith(field);
    }, field);
  }
  // Latin-1 letters fit a byte each.
  const latin = { ...frame, surface: { ...surface, carCategory: "é" } };
  assert.equal(decodeFrame(encodeFrame(latin)).surface!.carCategory, "é");
});
