/**
 * A MoTeC .ld and .ldx reader for tests, written from the public description
 * of the format (the field table at the top of docs/formats.md's MoTeC log
 * section and gotzl/ldparser's notes), not from the project's encoder: it
 * shares no code or constants with src/core/motec, so a mistake in the
 * encoder's offsets shows up as a wrong read here.
 *
 * @module
 */

/** The header fields the reader decodes. */
export interface LdHeader {
  metaPtr: number;
  dataPtr: number;
  eventPtr: number;
  deviceType: string;
  deviceSerial: number;
  deviceVersion: number;
  channelCount: number;
  date: string;
  time: string;
  driver: string;
  vehicle: string;
  venue: string;
  shortComment: string;
  event: { name: string; session: string; comment: string; venuePtr: number };
  venueBlock: { name: string; vehiclePtr: number };
  vehicleBlock: { id: string; weight: number; type: string; comment: string };
}

/** One channel as read: its metadata and its values, scaled. */
export interface LdChannel {
  name: string;
  short: string;
  unit: string;
  freq: number;
  count: number;
  shift: number;
  mul: number;
  scale: number;
  dec: number;
  typeCode: number;
  typeSize: number;
  values: number[];
}

/** A whole .ld file as read. */
export interface LdFile {
  header: LdHeader;
  channels: LdChannel[];
}

function str(bytes: Uint8Array, at: number, size: number): string {
  let end = at;
  while (end < at + size && bytes[end] !== 0) end++;
  return new TextDecoder("latin1").decode(bytes.subarray(at, end)).trim();
}

/** Reads a .ld file: header, event/venue/vehicle blocks, and the channel list. */
export function readLd(bytes: Uint8Array): LdFile {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => v.getUint32(at, true);
  const u16 = (at: number) => v.getUint16(at, true);
  const i16 = (at: number) => v.getInt16(at, true);
  const eventPtr = u32(0x24);
  const venuePtr = u16(eventPtr + 64 + 64 + 1024);
  const vehiclePtr = u16(venuePtr + 64 + 1034);
  const header: LdHeader = {
    metaPtr: u32(0x08),
    dataPtr: u32(0x0c),
    eventPtr,
    deviceSerial: u32(0x46),
    deviceType: str(bytes, 0x4a, 8),
    deviceVersion: u16(0x52),
    channelCount: u32(0x56),
    date: str(bytes, 0x5e, 16),
    time: str(bytes, 0x7e, 16),
    driver: str(bytes, 0x9e, 64),
    vehicle: str(bytes, 0xde, 64),
    venue: str(bytes, 0x15e, 64),
    shortComment: str(bytes, 0x624, 64),
    event: {
      name: str(bytes, eventPtr, 64),
      session: str(bytes, eventPtr + 64, 64),
      comment: str(bytes, eventPtr + 128, 1024),
      venuePtr,
    },
    venueBlock: { name: str(bytes, venuePtr, 64), vehiclePtr },
    vehicleBlock: {
      id: str(bytes, vehiclePtr, 64),
      weight: u32(vehiclePtr + 64 + 128),
      type: str(bytes, vehiclePtr + 196, 32),
      comment: str(bytes, vehiclePtr + 228, 32),
    },
  };
  const channels: LdChannel[] = [];
  let prev = 0;
  for (let at = header.metaPtr; at !== 0;) {
    if (u32(at) !== prev) throw new Error(`channel at ${at}: back link ${u32(at)} != ${prev}`);
    const next = u32(at + 4);
    const dataPtr = u32(at + 8);
    const count = u32(at + 12);
    const typeCode = u16(at + 18);
    const typeSize = u16(at + 20);
    const c = {
      freq: u16(at + 22),
      shift: i16(at + 24),
      mul: i16(at + 26),
      scale: i16(at + 28),
      dec: i16(at + 30),
      name: str(bytes, at + 32, 32),
      short: str(bytes, at + 64, 8),
      unit: str(bytes, at + 72, 12),
    };
    const values: number[] = [];
    for (let i = 0; i < count; i++) {
      const p = dataPtr + i * typeSize;
      let raw: number;
      if (typeCode === 7) raw = typeSize === 4 ? v.getFloat32(p, true) : NaN;
      else if (typeSize === 2) raw = v.getInt16(p, true);
      else if (typeSize === 4) raw = v.getInt32(p, true);
      else throw new Error(`${c.name}: unknown type ${typeCode}/${typeSize}`);
      values.push((raw / c.scale * 10 ** -c.dec + c.shift) * c.mul);
    }
    channels.push({ ...c, count, typeCode, typeSize, values });
    prev = at;
    at = next;
  }
  return { header, channels };
}

/** The .ldx facts the tests check: beacon times (µs) and the details. */
export interface LdxFile {
  beaconsUs: number[];
  details: Record<string, string>;
}

/** Reads the beacons and details of an .ldx file (XML). */
export function readLdx(text: string): LdxFile {
  if (!/^<\?xml [^>]*\?>\s*<LDXFile[\s>]/.test(text)) throw new Error("not an LDXFile");
  const beaconsUs: number[] = [];
  const group = /<MarkerGroup Name="Beacons"[^>]*>([\s\S]*?)<\/MarkerGroup>/.exec(text);
  for (const m of (group?.[1] ?? "").matchAll(/<Marker\b([^>]*)\/>/g)) {
    if (!/ClassName="BCN"/.test(m[1])) continue;
    beaconsUs.push(Number(/Time="([^"]*)"/.exec(m[1])![1]));
  }
  const details: Record<string, string> = {};
  for (const m of text.matchAll(/<String Id="([^"]*)" Value="([^"]*)"\/>/g)) details[m[1]] = m[2];
  return { beaconsUs, details };
}
