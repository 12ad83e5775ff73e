/**
 * An in-place Salsa20/20 keystream (256-bit key, 64-bit nonce, 64-bit block
 * counter), as D. J. Bernstein specifies it. GT7 uses Salsa20 with a published
 * key as obfuscation, not security, so what matters here is speed on the
 * packet path: the key is expanded once, the keystream is XOR-ed straight into
 * the caller's buffer, and no call allocates. A library cipher does the same
 * work but allocates and validates on every call, several times the cost of a
 * 300-byte packet.
 *
 * @module
 */

/** "expand 32-byte k", the Salsa20 constant for 256-bit keys, as 4 LE words. */
const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;

/** Bytes of a key: this core takes 256-bit keys only (GT7's is one). */
export const SALSA20_KEY_BYTES = 32;
/** Bytes of a Salsa20 nonce. */
export const SALSA20_NONCE_BYTES = 8;

function word(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/**
 * A Salsa20/20 cipher bound to one 256-bit key. Its state is two 16-word
 * arrays made once; {@linkcode Salsa20.xor} and {@linkcode Salsa20.xorWords}
 * reuse them, so one instance serves any number of messages without
 * allocating. Calls are synchronous and each starts from the nonce and
 * counter it is given, so nothing carries over from one call to the next.
 * An instance is not shared across threads (each worker builds its own).
 */
export class Salsa20 {
  /** The input block: constants, key, nonce and counter, per the spec's layout. */
  private readonly state = new Uint32Array(16);
  /** One block of keystream, rewritten for every 64 bytes. */
  private readonly stream = new Uint32Array(16);

  /** Expands `key`. Throws RangeError unless it holds exactly 32 bytes. */
  constructor(key: Uint8Array) {
    if (key.length !== SALSA20_KEY_BYTES) {
      throw new RangeError(`Salsa20 key must hold ${SALSA20_KEY_BYTES} bytes, got ${key.length}`);
    }
    const s = this.state;
    s[0] = SIGMA[0];
    s[5] = SIGMA[1];
    s[10] = SIGMA[2];
    s[15] = SIGMA[3];
    for (let i = 0; i < 4; i++) {
      s[1 + i] = word(key, 4 * i);
      s[11 + i] = word(key, 16 + 4 * i);
    }
  }

  /**
   * XORs the keystream for `nonce` (8 bytes), starting at block `counter`,
   * into `input` and writes the result to `output` (default: `input` itself,
   * i.e. in place). Returns `output`. Encrypting and decrypting are the same
   * operation. Throws RangeError on a nonce that is not 8 bytes, an `output`
   * of another length or partly overlapping `input`, or a counter that is
   * not a uint32.
   */
  xor(
    nonce: Uint8Array,
    input: Uint8Array,
    output: Uint8Array = input,
    counter = 0,
  ): Uint8Array {
    if (nonce.length !== SALSA20_NONCE_BYTES) {
      throw new RangeError(
        `Salsa20 nonce must hold ${SALSA20_NONCE_BYTES} bytes, got ${nonce.length}`,
      );
    }
    return this.xorWords(word(nonce, 0), word(nonce, 4), input, output, counter);
  }

  /**
   * As {@linkcode Salsa20.xor}, with the nonce given as its two little-endian
   * words (`nonce0` from bytes 0..3, `nonce1` from bytes 4..7; only the low
   * 32 bits of each are used). This is the packet path: no nonce bytes to
   * build. The block counter is 64-bit: past 2^32 blocks it carries into the
   * high word.
   */
  xorWords(
    nonce0: number,
    nonce1: number,
    input: Uint8Array,
    output: Uint8Array = input,
    counter = 0,
  ): Uint8Array {
    const length = input.length;
    if (output.length !== length) {
      throw new RangeError(`output must hold ${length} bytes, got ${output.length}`);
    }
    if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff) {
      throw new RangeError(`Salsa20 counter must be a uint32, got ${counter}`);
    }
    if (
      output !== input && output.buffer === input.buffer &&
      output.byteOffset !== input.byteOffset &&
      output.byteOffset < input.byteOffset + length &&
      input.byteOffset < output.byteOffset + length
    ) {
      throw new RangeError("output partly overlaps input: pass the same bytes or separate ones");
    }
    const s = this.state;
    const ks = this.stream;
    s[6] = nonce0;
    s[7] = nonce1;
    s[8] = counter;
    s[9] = 0;
    let at = 0;
    while (at < length) {
      block(s, ks);
      // The 64-bit block counter: the store wraps the low word, which then reads 0.
      s[8] = s[8] + 1;
      if (s[8] === 0) s[9] = s[9] + 1;
      const end = at + 64 <= length ? at + 64 : length;
      if (end - at === 64) {
        for (let w = 0; w < 16; w++, at += 4) {
          const k = ks[w];
          output[at] = input[at] ^ k;
          output[at + 1] = input[at + 1] ^ (k >>> 8);
          output[at + 2] = input[at + 2] ^ (k >>> 16);
          output[at + 3] = input[at + 3] ^ (k >>> 24);
        }
      } else {
        for (let i = 0; at < end; at++, i++) {
          output[at] = input[at] ^ (ks[i >>> 2] >>> ((i & 3) << 3));
        }
      }
    }
    return output;
  }
}

/**
 * One Salsa20/20 block: 10 double rounds over `s` in local variables, then
 * the feed-forward addition, written to `out` as 16 words. Unrolled because
 * this loop is the whole cost of decrypting a packet.
 */
function block(s: Uint32Array, out: Uint32Array): void {
  const j0 = s[0] | 0, j1 = s[1] | 0, j2 = s[2] | 0, j3 = s[3] | 0;
  const j4 = s[4] | 0, j5 = s[5] | 0, j6 = s[6] | 0, j7 = s[7] | 0;
  const j8 = s[8] | 0, j9 = s[9] | 0, j10 = s[10] | 0, j11 = s[11] | 0;
  const j12 = s[12] | 0, j13 = s[13] | 0, j14 = s[14] | 0, j15 = s[15] | 0;
  let x0 = j0, x1 = j1, x2 = j2, x3 = j3, x4 = j4, x5 = j5, x6 = j6, x7 = j7;
  let x8 = j8, x9 = j9, x10 = j10, x11 = j11, x12 = j12, x13 = j13, x14 = j14, x15 = j15;
  let t = 0;
  for (let r = 0; r < 10; r++) {
    // Column round.
    t = (x0 + x12) | 0;
    x4 ^= (t << 7) | (t >>> 25);
    t = (x4 + x0) | 0;
    x8 ^= (t << 9) | (t >>> 23);
    t = (x8 + x4) | 0;
    x12 ^= (t << 13) | (t >>> 19);
    t = (x12 + x8) | 0;
    x0 ^= (t << 18) | (t >>> 14);

    t = (x5 + x1) | 0;
    x9 ^= (t << 7) | (t >>> 25);
    t = (x9 + x5) | 0;
    x13 ^= (t << 9) | (t >>> 23);
    t = (x13 + x9) | 0;
    x1 ^= (t << 13) | (t >>> 19);
    t = (x1 + x13) | 0;
    x5 ^= (t << 18) | (t >>> 14);

    t = (x10 + x6) | 0;
    x14 ^= (t << 7) | (t >>> 25);
    t = (x14 + x10) | 0;
    x2 ^= (t << 9) | (t >>> 23);
    t = (x2 + x14) | 0;
    x6 ^= (t << 13) | (t >>> 19);
    t = (x6 + x2) | 0;
    x10 ^= (t << 18) | (t >>> 14);

    t = (x15 + x11) | 0;
    x3 ^= (t << 7) | (t >>> 25);
    t = (x3 + x15) | 0;
    x7 ^= (t << 9) | (t >>> 23);
    t = (x7 + x3) | 0;
    x11 ^= (t << 13) | (t >>> 19);
    t = (x11 + x7) | 0;
    x15 ^= (t << 18) | (t >>> 14);

    // Row round.
    t = (x0 + x3) | 0;
    x1 ^= (t << 7) | (t >>> 25);
    t = (x1 + x0) | 0;
    x2 ^= (t << 9) | (t >>> 23);
    t = (x2 + x1) | 0;
    x3 ^= (t << 13) | (t >>> 19);
    t = (x3 + x2) | 0;
    x0 ^= (t << 18) | (t >>> 14);

    t = (x5 + x4) | 0;
    x6 ^= (t << 7) | (t >>> 25);
    t = (x6 + x5) | 0;
    x7 ^= (t << 9) | (t >>> 23);
    t = (x7 + x6) | 0;
    x4 ^= (t << 13) | (t >>> 19);
    t = (x4 + x7) | 0;
    x5 ^= (t << 18) | (t >>> 14);

    t = (x10 + x9) | 0;
    x11 ^= (t << 7) | (t >>> 25);
    t = (x11 + x10) | 0;
    x8 ^= (t << 9) | (t >>> 23);
    t = (x8 + x11) | 0;
    x9 ^= (t << 13) | (t >>> 19);
    t = (x9 + x8) | 0;
    x10 ^= (t << 18) | (t >>> 14);

    t = (x15 + x14) | 0;
    x12 ^= (t << 7) | (t >>> 25);
    t = (x12 + x15) | 0;
    x13 ^= (t << 9) | (t >>> 23);
    t = (x13 + x12) | 0;
    x14 ^= (t << 13) | (t >>> 19);
    t = (x14 + x13) | 0;
    x15 ^= (t << 18) | (t >>> 14);
  }
  out[0] = x0 + j0;
  out[1] = x1 + j1;
  out[2] = x2 + j2;
  out[3] = x3 + j3;
  out[4] = x4 + j4;
  out[5] = x5 + j5;
  out[6] = x6 + j6;
  out[7] = x7 + j7;
  out[8] = x8 + j8;
  out[9] = x9 + j9;
  out[10] = x10 + j10;
  out[11] = x11 + j11;
  out[12] = x12 + j12;
  out[13] = x13 + j13;
  out[14] = x14 + j14;
  out[15] = x15 + j15;
}
