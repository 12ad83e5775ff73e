import { strict as assert } from "node:assert";
import {
  createSignature,
  deleteSignature,
  getSignature,
  hasSignatures,
  listSignatures,
  type NewSignature,
} from "../../src/storage/signatures.ts";

function sig(name: string): NewSignature {
  return {
    name,
    length_m: 4000,
    min_x: -400,
    max_x: 400,
    min_z: -100,
    max_z: 300,
    created_at: "2026-11-21T12:00:00.000Z",
    provenance: "user",
    lap_id: 3,
    session_id: 2,
  };
}

Deno.test("signatures get increasing ids, list oldest first, and delete one by one", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    assert.equal(await hasSignatures(kv), false);
    const a = await createSignature(kv, sig("Zandvoort"));
    const b = await createSignature(kv, sig("Autopolis"));
    assert.equal(a.id, 1);
    assert.equal(b.id, 2);
    assert.equal(await hasSignatures(kv), true);
    assert.deepEqual(await getSignature(kv, 2), { id: 2, ...sig("Autopolis") });
    assert.deepEqual((await listSignatures(kv)).map((s) => s.name), ["Zandvoort", "Autopolis"]);
    assert.equal(await deleteSignature(kv, 1), true);
    assert.equal(await deleteSignature(kv, 1), false);
    assert.equal(await deleteSignature(kv, 99), false);
    assert.equal(await getSignature(kv, 1), null);
    assert.deepEqual((await listSignatures(kv)).map((s) => s.id), [2]);
    // A new signature never reuses a deleted id.
    assert.equal((await createSignature(kv, sig("Spa"))).id, 3);
  } finally {
    kv.close();
  }
});
