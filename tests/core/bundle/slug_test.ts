import { strict as assert } from "node:assert";
import fc from "fast-check";
import { isCanonicalSlug, slugify } from "../../../src/core/bundle/slug.ts";

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
