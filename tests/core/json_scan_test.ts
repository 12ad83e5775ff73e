import { strict as assert } from "node:assert";
import fc from "fast-check";
import {
  Decline,
  JsonScanner,
  MAX_LITERAL_BYTES,
  MAX_SKIP_DEPTH,
} from "../../src/core/json_scan.ts";

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Runs `read` on a scanner over `bytes`; its result, or "declined". */
function scan<T>(bytes: Uint8Array, read: (s: JsonScanner) => T): T | "declined" {
  try {
    return read(new JsonScanner(bytes));
  } catch (err) {
    if (err === Decline.it) return "declined";
    throw err;
  }
}

/** The number the whole of `text` is, as the scanner reads it, or "declined". */
function scanNumber(text: string): number | "declined" {
  return scan(utf8(text), (s) => {
    const n = s.numberValue();
    s.expectEnd();
    return n;
  });
}

/** True when the whole of `bytes` is one value the scanner steps over. */
function skipsWhole(bytes: Uint8Array): boolean {
  return scan(bytes, (s) => {
    s.skipValue();
    s.expectEnd();
    return true;
  }) === true;
}

/** True when a fatal UTF-8 decode and `JSON.parse` both take `bytes`. */
function parses(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** Asserts the scanner reads `text` as exactly the number `JSON.parse` makes of it (-0 counts). */
function assertSameNumber(text: string): void {
  const scanned = scanNumber(text);
  const parsed = JSON.parse(text);
  assert.ok(Object.is(scanned, parsed), `${text}: scanned ${scanned}, JSON.parse ${parsed}`);
}

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((d) => d.join(""));

/** Any JSON number literal, weighted toward the short ones the exact path takes. */
const numberLiteral = fc.tuple(
  fc.boolean(),
  fc.oneof(
    fc.constant("0"),
    fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 8)).map(([h, t]) => `${h}${t}`),
    fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 25)).map(([h, t]) => `${h}${t}`),
  ),
  fc.option(fc.oneof(digits(1, 6), digits(1, 30)), { nil: undefined }),
  fc.option(
    fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 3)),
    { nil: undefined },
  ),
).map(([negative, int, fraction, exponent]) =>
  `${negative ? "-" : ""}${int}${fraction === undefined ? "" : `.${fraction}`}${
    exponent === undefined ? "" : exponent.join("")
  }`
);

Deno.test("number literals convert exactly as JSON.parse converts them", () => {
  fc.assert(fc.property(numberLiteral, assertSameNumber), { numRuns: 5000, seed: 7 });
});

Deno.test("number literals at the edges convert exactly as JSON.parse converts them", () => {
  for (
    const text of [
      "0",
      "-0",
      "-0.0",
      "0.1",
      "0.3",
      "-2.5",
      "1e2",
      "1E-3",
      "1e+2",
      "123456789012345",
      "999999999999999",
      "9007199254740993",
      "123456789012345678",
      "0.0000000000000000000001",
      "0.00000000000000000000001",
      "1.7976931348623157e308",
      "1.8e308",
      "-1.8e308",
      "5e-324",
      "2e-324",
      "4.9406564584124654e-324",
      "2.2250738585072014e-308",
    ]
  ) assertSameNumber(text);
  assert.ok(Object.is(scanNumber("-0"), -0));
  assert.equal(scanNumber("1.8e308"), Infinity);
});

Deno.test("invalid number literals are declined", () => {
  for (
    const text of [
      "01",
      "-01",
      "1.",
      ".5",
      "-",
      "+1",
      "1e",
      "1e+",
      "1E-",
      "NaN",
      "-NaN",
      "Infinity",
    ]
  ) {
    assert.equal(scanNumber(text), "declined", text);
    assert.equal(skipsWhole(utf8(text)), false, text);
    assert.throws(() => JSON.parse(text), SyntaxError, text);
  }
});

Deno.test("a number leaves the cursor on the byte after it", () => {
  const s = new JsonScanner(utf8("-12.5e1,"));
  assert.equal(s.numberValue(), -125);
  assert.equal(s.pos, 7);
  // `01`: the grammar stops after `0`; the caller's next expectation declines.
  const t = new JsonScanner(utf8("01"));
  assert.equal(t.numberValue(), 0);
  assert.equal(t.pos, 1);
  assert.throws(() => t.expectEnd(), (err) => err === Decline.it);
});

Deno.test("null is read, a missing null is left alone, a broken one declined", () => {
  const s = new JsonScanner(utf8("null,"));
  assert.equal(s.isNull(), true);
  assert.equal(s.pos, 4);
  const t = new JsonScanner(utf8("1"));
  assert.equal(t.isNull(), false);
  assert.equal(t.pos, 0);
  assert.equal(scan(utf8("nul"), (x) => x.isNull()), "declined");
  assert.equal(scan(utf8("nulL"), (x) => x.isNull()), "declined");
});

Deno.test("strings with escapes and non-ASCII text are skipped exactly to their end", () => {
  for (
    const body of [
      "",
      "plain",
      String.raw`a\"b`,
      String.raw`\\`,
      String.raw`\/\b\f\n\r\t`,
      String.raw`\u00e9\uD83D\uDE00\uABCD\uabcd`,
      "é€😀\u007f",
      String.raw`ends in \\`,
    ]
  ) {
    const bytes = utf8(`"${body}" ,"next"`);
    const s = new JsonScanner(bytes);
    s.skipString();
    assert.equal(s.pos, utf8(`"${body}"`).length, body);
  }
});

Deno.test("bad escapes, raw control characters and bad UTF-8 in strings are declined", () => {
  const bad: Uint8Array[] = [
    ...[
      String.raw`"\x"`,
      String.raw`"\'"`,
      String.raw`"\u12G4"`,
      String.raw`"\u123"`,
      String.raw`"\U0041"`,
      String.raw`"\"`,
      '"a\tb"',
      '"a\nb"',
      '"\u0000"',
      '"\u001f"',
      '"unterminated',
    ].map(utf8),
    Uint8Array.of(0x22, 0x80, 0x22), // a lone continuation byte
    Uint8Array.of(0x22, 0xc0, 0x80, 0x22), // an overlong NUL
    Uint8Array.of(0x22, 0xc1, 0xbf, 0x22), // an overlong DEL
    Uint8Array.of(0x22, 0xe0, 0x80, 0x80, 0x22), // an overlong three-byte sequence
    Uint8Array.of(0x22, 0xed, 0xa0, 0x80, 0x22), // a UTF-16 surrogate, U+D800
    Uint8Array.of(0x22, 0xf0, 0x80, 0x80, 0x80, 0x22), // an overlong four-byte sequence
    Uint8Array.of(0x22, 0xf4, 0x90, 0x80, 0x80, 0x22), // past U+10FFFF
    Uint8Array.of(0x22, 0xf5, 0x80, 0x80, 0x80, 0x22), // no such lead byte
    Uint8Array.of(0x22, 0xff, 0x22),
    Uint8Array.of(0x22, 0xe2, 0x82, 0x22), // a truncated euro sign
    Uint8Array.of(0x22, 0xc3), // truncated at the end of the bytes
  ];
  for (const bytes of bad) {
    assert.equal(scan(bytes, (s) => s.skipString()), "declined", String(bytes));
    assert.equal(parses(bytes), false, String(bytes));
  }
});

/** Bytes that make interesting strings: escapes, quotes, controls, UTF-8 leads and tails. */
const stringByte = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.constantFrom(0x5c, 0x5c, 0x22, 0x75, 0x6e, 0x41, 0x66, 0x30, 0x00, 0x09, 0x0a, 0x1f),
  fc.integer({ min: 0x80, max: 0xff }),
  fc.constantFrom(0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf),
);

Deno.test("a quoted run of bytes is skipped to its end exactly when JSON.parse takes it", () => {
  fc.assert(
    fc.property(fc.array(stringByte, { maxLength: 24 }), (inner) => {
      const bytes = Uint8Array.of(0x22, ...inner, 0x22);
      const skipped = scan(bytes, (s) => {
        s.skipString();
        return s.pos === bytes.length;
      });
      assert.equal(skipped === true, parses(bytes));
    }),
    { numRuns: 20_000, seed: 11 },
  );
});

Deno.test("any JSON string JSON.stringify writes is skipped exactly to its end", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
      const quoted = utf8(JSON.stringify(text));
      const s = new JsonScanner(Uint8Array.of(...quoted, 0x2c));
      s.skipString();
      assert.equal(s.pos, quoted.length);
    }),
    { numRuns: 2000, seed: 5 },
  );
});

Deno.test("plain keys are read to their quote; escaped, non-ASCII or control keys declined", () => {
  const s = new JsonScanner(utf8(`"a key":1`));
  assert.equal(s.plainKey(), 6);
  assert.equal(s.pos, 7);
  for (const key of [String.raw`"a\"b"`, String.raw`"\u0061"`, '"é"', '"a\tb"', '"open']) {
    assert.equal(scan(utf8(key), (x) => x.plainKey()), "declined", key);
  }
});

Deno.test("expect steps over whitespace and the byte, and declines any other byte", () => {
  const s = new JsonScanner(utf8(" \t\r\n: ,"));
  s.expect(0x3a);
  assert.equal(s.pos, 5);
  assert.equal(s.ws(), 0x2c);
  assert.equal(s.pos, 6);
  assert.throws(() => s.expect(0x3a), (err) => err === Decline.it);
  const t = new JsonScanner(utf8("  "));
  assert.equal(t.ws(), undefined);
  t.expectEnd();
});

Deno.test("values are skipped whole, whatever they nest", () => {
  const text = `{"a": [1, -2.5e3, "s\\"", true, false, null, {}, [], {"b": {"c": [[]]}}]} ,`;
  const s = new JsonScanner(utf8(text));
  s.skipValue();
  assert.equal(s.pos, text.length - 2);
  fc.assert(
    fc.property(fc.json(), (json) => {
      assert.ok(skipsWhole(utf8(json)), json);
      assert.ok(skipsWhole(utf8(` \n${JSON.stringify(JSON.parse(json), null, 2)}\t`)));
    }),
    { numRuns: 1000, seed: 3 },
  );
});

/** Characters whose insertion or replacement breaks or re-shapes JSON. */
const JSON_CHARS = [...'{}[]",:.-+eE01 \t\\tnulfase/x\u0001'];

Deno.test("a mutated value is skipped exactly when JSON.parse takes it", () => {
  fc.assert(
    fc.property(
      fc.json({ maxDepth: 4 }),
      fc.nat(),
      fc.constantFrom("delete", "insert", "replace"),
      fc.constantFrom(...JSON_CHARS),
      (json, at, op, char) => {
        const i = at % (json.length + 1);
        const mutated = op === "delete"
          ? json.slice(0, i) + json.slice(i + 1)
          : op === "insert"
          ? json.slice(0, i) + char + json.slice(i)
          : json.slice(0, i) + char + json.slice(i + 1);
        const bytes = utf8(mutated);
        assert.equal(skipsWhole(bytes), parses(bytes), mutated);
      },
    ),
    { numRuns: 5000, seed: 23 },
  );
});

Deno.test("values nested past the depth limit are declined, up to it skipped", () => {
  const arrays = (n: number) => utf8(`${"[".repeat(n)}0${"]".repeat(n)}`);
  const objects = (n: number) => utf8(`${'{"k":'.repeat(n)}0${"}".repeat(n)}`);
  const mixed = (n: number) =>
    utf8(
      `${Array.from({ length: n }, (_, i) => i % 2 ? "[" : '{"k":').join("")}0${
        Array.from({ length: n }, (_, i) => i % 2 ? "]" : "}").reverse().join("")
      }`,
    );
  for (const make of [arrays, objects, mixed]) {
    assert.ok(skipsWhole(make(MAX_SKIP_DEPTH)));
    assert.ok(!skipsWhole(make(MAX_SKIP_DEPTH + 1)));
    assert.ok(!skipsWhole(make(10 * MAX_SKIP_DEPTH)));
    // A decline, not a judgement: JSON.parse takes it.
    assert.ok(parses(make(MAX_SKIP_DEPTH + 1)));
  }
  // Empty containers open nothing: only non-empty ones count.
  assert.ok(skipsWhole(utf8(`${"[".repeat(MAX_SKIP_DEPTH + 1)}${"]".repeat(MAX_SKIP_DEPTH + 1)}`)));
});

Deno.test("a decline is the one Decline instance, never an Error", () => {
  const s = new JsonScanner(utf8("x"));
  let thrown: unknown;
  try {
    s.skipValue();
  } catch (err) {
    thrown = err;
  }
  assert.equal(thrown, Decline.it);
  assert.ok(!(thrown instanceof Error));
});

Deno.test("a number literal longer than MAX_LITERAL_BYTES is declined, not built", () => {
  const long = "1" + "0".repeat(MAX_LITERAL_BYTES);
  const scanner = new JsonScanner(new TextEncoder().encode(long));
  assert.throws(() => scanner.number(), (e: unknown) => e === Decline.it);
  const fits = "1" + "0".repeat(MAX_LITERAL_BYTES - 3) + ".5";
  const ok = new JsonScanner(new TextEncoder().encode(fits));
  ok.number();
  assert.equal(ok.num, JSON.parse(fits));
});
