import { strict as assert } from "node:assert";
import fc from "fast-check";
import {
  circuitOf,
  isBundleSlug,
  isCanonicalSlug,
  MAX_SLUG_CHARS,
  slugify,
} from "../../../src/core/bundle/slug.ts";

Deno.test("circuitOf: a named track's slug; an unnamed session names no circuit, not `unnamed`", () => {
  assert.equal(circuitOf("Lago Maggiore - East End"), "lago-maggiore-east-end");
  assert.equal(circuitOf("  --  "), "unnamed");
  assert.equal(circuitOf(""), null);
});

Deno.test("slugify: the reference examples", () => {
  assert.equal(slugify("Lago Maggiore - East End"), "lago-maggiore-east-end");
  assert.equal(slugify("Nürburgring"), "n-rburgring");
  assert.equal(slugify(""), "unnamed");
  assert.equal(slugify("  --  "), "unnamed");
  assert.equal(slugify("東京"), "unnamed");
  assert.equal(slugify("Circuit de Spa-Francorchamps"), "circuit-de-spa-francorchamps");
  assert.equal(slugify("  Tsukuba  Circuit 2000!"), "tsukuba-circuit-2000");
  assert.equal(slugify("lago-east"), "lago-east");
});

Deno.test("canonical slugs: only slugify's own output passes", () => {
  assert.ok(isCanonicalSlug("lago-maggiore-east-end"));
  assert.ok(isCanonicalSlug("unnamed"));
  assert.equal(isCanonicalSlug("Lago"), false);
  assert.equal(isCanonicalSlug("lago--east"), false);
  assert.equal(isCanonicalSlug("-lago"), false);
  assert.equal(isCanonicalSlug(""), false);
});

Deno.test("a slug is always canonical and safe as a storage key", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), (name) => {
      const slug = slugify(name);
      assert.match(slug, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(isCanonicalSlug(slug));
    }),
  );
});

Deno.test("no circuit name of at most 80 code points slugifies past MAX_SLUG_CHARS", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(fc.constantFrom("İ", "ß", "ﬃ", "Σ", " ", "-"), fc.string({ unit: "grapheme" })),
        {
          maxLength: 80,
        },
      ),
      (parts) => {
        const name = [...parts.join("")].slice(0, 80).join("");
        const slug = slugify(name);
        assert.ok(slug.length <= MAX_SLUG_CHARS, `${slug.length}: ${JSON.stringify(name)}`);
        assert.ok(isBundleSlug(slug));
      },
    ),
  );
});

Deno.test("isBundleSlug refuses a canonical slug longer than MAX_SLUG_CHARS", () => {
  assert.ok(isBundleSlug("a".repeat(MAX_SLUG_CHARS)));
  assert.ok(!isBundleSlug("a".repeat(MAX_SLUG_CHARS + 1)));
  assert.ok(!isBundleSlug("Spa"));
});
