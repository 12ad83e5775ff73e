/**
 * Strict JSON over bytes: a cursor over UTF-8 JSON text that steps over
 * whitespace, numbers, literals, strings and whole values, and checks each
 * as `JSON.parse` (after a fatal UTF-8 decode) would, without making a
 * string or an object. Readers of one document shape extend
 * {@linkcode JsonScanner} and read the members they care about themselves,
 * skipping the rest.
 *
 * A scanner never judges what it does not model: where it is unsure, or
 * where the text is not JSON, it throws {@linkcode Decline.it}, and the
 * reader's caller falls back to `JSON.parse`, which reports the failure
 * precisely.
 *
 * @module
 */

// Byte values.
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const UPPER_A = 0x41;
const UPPER_E = 0x45;
const UPPER_F = 0x46;
const BACKSLASH = 0x5c;
const LOWER_A = 0x61;
const LOWER_B = 0x62;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_L = 0x6c;
const LOWER_N = 0x6e;
const LOWER_R = 0x72;
const LOWER_S = 0x73;
const LOWER_T = 0x74;
const LOWER_U = 0x75;

const TRUE = [LOWER_T, LOWER_R, LOWER_U, LOWER_E];
const FALSE = [LOWER_F, LOWER_A, LOWER_L, LOWER_S, LOWER_E];
const NULL = [LOWER_N, LOWER_U, LOWER_L, LOWER_L];

/** Container marks on the skip stack. */
const IN_ARRAY = 1;
const IN_OBJECT = 2;

/**
 * The deepest nesting of non-empty containers {@linkcode JsonScanner.skipValue}
 * follows; a deeper value is declined, not judged (`JSON.parse` may well
 * take it).
 */
export const MAX_SKIP_DEPTH = 1024;

/**
 * The longest number literal (past the exact fast path) or member name a
 * reader turns into a string, in bytes; a longer one is declined. Built a
 * character at a time, a literal of tens of megabytes would cost seconds
 * and gigabytes, where `JSON.parse` reads it in milliseconds.
 */
export const MAX_LITERAL_BYTES = 1024;

/** 10^0 .. 10^22: every power of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** A UTF-8 continuation byte, 10xxxxxx. */
function isContinuation(c: number): boolean {
  return c >= 0x80 && c <= 0xbf;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= LOWER_A && c <= LOWER_F) ||
    (c >= UPPER_A && c <= UPPER_F);
}

/**
 * The signal a scanner (or a reader built on one) throws to give up on a
 * document: it is not JSON, or it is a shape the reader does not model.
 * Throw and compare only the one instance, {@linkcode Decline.it}: it
 * carries no stack, so declining costs no more than a jump. Readers catch
 * it at their entry and must never let it escape.
 */
export class Decline {
  /** The only instance; `err === Decline.it` tells a decline from a bug. */
  static readonly it: Decline = new Decline();
  private constructor() {}
}

/**
 * A cursor over UTF-8 JSON bytes. Every method either steps the cursor
 * over what it reads and returns, or throws {@linkcode Decline.it}; after a
 * decline the cursor is unspecified. Whatever a method accepts, `JSON.parse`
 * accepts in the same place (and reads the same number from): a scanner may
 * decline valid JSON, never take invalid JSON.
 *
 * Readers extend it so their hot loops call these methods on one class of
 * receiver (monomorphic calls, inlined by the JIT).
 */
export class JsonScanner {
  /** The text being read. */
  readonly bytes: Uint8Array;
  /** `bytes.length`. */
  readonly end: number;
  /** The cursor: the index of the next byte to read. */
  pos = 0;
  /** The value of the number {@linkcode number} read last. */
  num = 0;
  /** Containers open in {@linkcode skipValue}, grown on demand. */
  private depthStack = new Uint8Array(64);

  /** A scanner with its cursor on the first byte of `bytes`. */
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.end = bytes.length;
  }

  /**
   * Skips JSON whitespace (space, tab, LF, CR) and returns the byte at the
   * cursor after it, undefined past the end. Never declines.
   */
  ws(): number {
    const b = this.bytes;
    let p = this.pos;
    let c = b[p];
    while (c === SPACE || c === LF || c === CR || c === TAB) c = b[++p];
    this.pos = p;
    return c;
  }

  /** Expects byte `c` at the cursor (after whitespace) and steps over it; else declines. */
  expect(c: number): void {
    if (this.ws() !== c) throw Decline.it;
    this.pos++;
  }

  /** Declines unless only whitespace is left after the cursor. */
  expectEnd(): void {
    this.ws();
    if (this.pos !== this.end) throw Decline.it;
  }

  /**
   * Reads a number by the JSON grammar (cursor on its first byte) into
   * {@linkcode num}, converted exactly as `JSON.parse` converts it, and
   * leaves the cursor on the byte after it; declines on a broken literal
   * (`-`, `1.`, `1e`, `.5`, `+1`). It stops where the grammar stops, so
   * `01` reads as `0` with the cursor on `1`: the caller's next expectation
   * declines it.
   *
   * A mantissa of at most 15 significant digits and at most 22 fraction
   * digits, without exponent, is exact, and one division by an exact power
   * of ten rounds it correctly; anything else goes through `Number`, which
   * rounds correctly too.
   */
  number(): void {
    const b = this.bytes;
    let p = this.pos;
    const start = p;
    let c = b[p];
    const negative = c === MINUS;
    if (negative) c = b[++p];
    let mantissa = 0;
    let significant = 0;
    let fraction = 0;
    let exponent = false;
    if (c === ZERO) {
      c = b[++p];
    } else if (c > ZERO && c <= NINE) {
      do {
        mantissa = mantissa * 10 + (c - ZERO);
        significant++;
        c = b[++p];
      } while (c >= ZERO && c <= NINE);
    } else {
      throw Decline.it;
    }
    if (c === DOT) {
      c = b[++p];
      if (!(c >= ZERO && c <= NINE)) throw Decline.it;
      do {
        if (mantissa !== 0 || c !== ZERO) significant++;
        mantissa = mantissa * 10 + (c - ZERO);
        fraction++;
        c = b[++p];
      } while (c >= ZERO && c <= NINE);
    }
    if (c === LOWER_E || c === UPPER_E) {
      exponent = true;
      c = b[++p];
      if (c === PLUS || c === MINUS) c = b[++p];
      if (!(c >= ZERO && c <= NINE)) throw Decline.it;
      do c = b[++p]; while (c >= ZERO && c <= NINE);
    }
    this.pos = p;
    if (!exponent && significant <= 15 && fraction <= 22) {
      const value = mantissa / POW10[fraction];
      this.num = negative ? -value : value;
    } else {
      // Built a character at a time, a 60 MB literal would take seconds and gigabytes;
      // one that long is left to JSON.parse, which reads it in a blink.
      if (p - start > MAX_LITERAL_BYTES) throw Decline.it;
      let text = "";
      for (let i = start; i < p; i++) text += String.fromCharCode(b[i]);
      this.num = Number(text);
    }
  }

  /**
   * Reads the number that must be at the cursor (no whitespace skipped) and
   * returns it, as {@linkcode number}; declines when the value there is not
   * a number.
   */
  numberValue(): number {
    const c = this.bytes[this.pos];
    if (!(c === MINUS || (c >= ZERO && c <= NINE))) throw Decline.it;
    this.number();
    return this.num;
  }

  /**
   * True, stepping over it, when the literal `null` is at the cursor; false,
   * not moving, when the byte there is not `n`; declines on a broken `n...`.
   */
  isNull(): boolean {
    const b = this.bytes;
    const p = this.pos;
    if (b[p] !== LOWER_N) return false;
    if (b[p + 1] !== LOWER_U || b[p + 2] !== LOWER_L || b[p + 3] !== LOWER_L) throw Decline.it;
    this.pos = p + 4;
    return true;
  }

  /**
   * Steps over a string (cursor on its opening quote) to just past its
   * closing quote, checking it as `JSON.parse` and a fatal UTF-8 decoder
   * would: valid escapes, no raw control characters, well-formed UTF-8 (no
   * overlongs, surrogates or code points past U+10FFFF); else declines.
   */
  skipString(): void {
    const b = this.bytes;
    let p = this.pos + 1;
    for (;;) {
      const c = b[p];
      if (c === QUOTE) break;
      if (c === undefined || c < SPACE) throw Decline.it;
      if (c === BACKSLASH) {
        const e = b[p + 1];
        if (e === LOWER_U) {
          if (!isHex(b[p + 2]) || !isHex(b[p + 3]) || !isHex(b[p + 4]) || !isHex(b[p + 5])) {
            throw Decline.it;
          }
          p += 6;
        } else if (
          e === QUOTE || e === BACKSLASH || e === SLASH || e === LOWER_B || e === LOWER_F ||
          e === LOWER_N || e === LOWER_R || e === LOWER_T
        ) {
          p += 2;
        } else {
          throw Decline.it;
        }
      } else if (c < 0x80) {
        p++;
      } else {
        p = this.utf8(p);
      }
    }
    this.pos = p + 1;
  }

  /** The index after the well-formed UTF-8 sequence starting at `p`; else declines. */
  private utf8(p: number): number {
    const b = this.bytes;
    const c = b[p];
    if (c >= 0xc2 && c <= 0xdf) {
      if (!isContinuation(b[p + 1])) throw Decline.it;
      return p + 2;
    }
    if (c >= 0xe0 && c <= 0xef) {
      const d = b[p + 1];
      const low = c === 0xe0 ? 0xa0 : 0x80;
      const high = c === 0xed ? 0x9f : 0xbf;
      if (!(d >= low && d <= high) || !isContinuation(b[p + 2])) throw Decline.it;
      return p + 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
      const d = b[p + 1];
      const low = c === 0xf0 ? 0x90 : 0x80;
      const high = c === 0xf4 ? 0x8f : 0xbf;
      if (!(d >= low && d <= high) || !isContinuation(b[p + 2]) || !isContinuation(b[p + 3])) {
        throw Decline.it;
      }
      return p + 4;
    }
    throw Decline.it;
  }

  /** Steps over the literal `word` (given as bytes) at the cursor; else declines. */
  private literal(word: readonly number[]): void {
    const b = this.bytes;
    const p = this.pos;
    for (let i = 0; i < word.length; i++) if (b[p + i] !== word[i]) throw Decline.it;
    this.pos = p + word.length;
  }

  /**
   * Steps over any JSON value at the cursor (whitespace before it skipped,
   * none after), checking it strictly: what this accepts `JSON.parse`
   * accepts. Iterative, so nesting costs no stack; a value nested deeper
   * than {@linkcode MAX_SKIP_DEPTH} non-empty containers is declined.
   */
  skipValue(): void {
    let depth = 0;
    for (;;) {
      // A value is at the cursor.
      const c = this.ws();
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.pos++;
        const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
        if (this.ws() === close) {
          this.pos++;
        } else {
          if (depth === MAX_SKIP_DEPTH) throw Decline.it;
          if (depth === this.depthStack.length) {
            const grownStack = new Uint8Array(depth * 2);
            grownStack.set(this.depthStack);
            this.depthStack = grownStack;
          }
          this.depthStack[depth++] = c === OPEN_BRACE ? IN_OBJECT : IN_ARRAY;
          if (c === OPEN_BRACE) this.memberKey();
          continue;
        }
      } else if (c === QUOTE) {
        this.skipString();
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        this.number();
      } else if (c === LOWER_T) {
        this.literal(TRUE);
      } else if (c === LOWER_F) {
        this.literal(FALSE);
      } else if (c === LOWER_N) {
        this.literal(NULL);
      } else {
        throw Decline.it;
      }
      // After a value: close containers until one goes on.
      for (;;) {
        if (depth === 0) return;
        const inside = this.depthStack[depth - 1];
        const d = this.ws();
        if (d === COMMA) {
          this.pos++;
          if (inside === IN_OBJECT) this.memberKey();
          break;
        }
        if (d !== (inside === IN_OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) throw Decline.it;
        this.pos++;
        depth--;
      }
    }
  }

  /** Steps over `"key" :` inside an object being skipped. */
  private memberKey(): void {
    if (this.ws() !== QUOTE) throw Decline.it;
    this.skipString();
    this.expect(COLON);
  }

  /**
   * Reads a key (cursor on its opening quote) that must be plain printable
   * ASCII without escapes, and returns the index of its closing quote (where
   * its text ends); the cursor is left after that quote. Other keys are
   * declined: they cannot be compared byte for byte.
   */
  plainKey(): number {
    const b = this.bytes;
    let p = this.pos + 1;
    let c = b[p];
    while (c !== QUOTE) {
      if (!(c >= SPACE && c < 0x7f) || c === BACKSLASH) throw Decline.it;
      c = b[++p];
    }
    this.pos = p + 1;
    return p;
  }
}
