import { strict as assert } from "node:assert";
import { lapListQuery, listLapsAcross } from "../../src/app/laps/lap_listing.ts";
import { storeLaps, testSession } from "../_stored_laps.ts";

/** What a store was asked: every `list` call's prefix and every key read by `get` or `getMany`. */
interface Reads {
  lists: string[];
  keys: string[];
  /** Keys of each `getMany` call. */
  batches: number[];
}

/** `kv` counting its reads into the returned {@linkcode Reads}. */
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; reads: Reads } {
  const reads: Reads = { lists: [], keys: [], batches: [] };
  const counted = new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "list") {
        return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
          reads.lists.push(JSON.stringify("prefix" in selector ? selector.prefix : selector));
          return target.list(selector, options);
        };
      }
      if (prop === "get") {
        return (key: Deno.KvKey) => {
          reads.keys.push(JSON.stringify(key));
          return target.get(key);
        };
      }
      if (prop === "getMany") {
        return (keys: Deno.KvKey[]) => {
          reads.batches.push(keys.length);
          reads.keys.push(...keys.map((k) => JSON.stringify(k)));
          return target.getMany(keys);
        };
      }
      return value.bind(target);
    },
  });
  return { kv: counted, reads };
}

Deno.test("listing laps by ids reads those laps' records and their sessions once, nothing else", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Three sessions of eight laps: 24 laps, of which 12 are asked, from two sessions.
    const named = await testSession(kv, "Suzuka Circuit", 1);
    const unnamed = await testSession(kv, "", 1);
    const other = await testSession(kv, "Spa", 2);
    const times = Array.from({ length: 8 }, (_, i) => 90_000 + i * 100);
    const a = await storeLaps(kv, named, times);
    const b = await storeLaps(kv, unnamed, times, { complete: false });
    await storeLaps(kv, other, times);
    const asked = [...a.slice(0, 7), ...b.slice(3, 8)].map((s) => s.lap.id);
    const unknown = 99_999;
    const { kv: counted, reads } = countingKv(kv);

    const items = await listLapsAcross(
      counted,
      lapListQuery({ ids: [...asked, unknown], limit: 1000 }),
    );
    assert.deepEqual(reads.lists, []);
    assert.deepEqual(
      reads.keys.toSorted(),
      [
        ...[...asked, unknown].map((id) => JSON.stringify(["lap", id])),
        JSON.stringify(["session", named.id]),
        JSON.stringify(["session", unnamed.id]),
      ].toSorted(),
    );
    // 13 lap keys in reads of at most 10, then the two sessions in one.
    assert.deepEqual(reads.batches, [10, 3, 2]);

    // The rows are the whole list's rows of those laps, which the whole list reads everything for.
    const before = reads.lists.length;
    const all = await listLapsAcross(counted, lapListQuery({ limit: 1000 }));
    assert.ok(reads.lists.length > before, "the whole list lists the store");
    assert.equal(all.length, 24);
    assert.equal(items.length, 12);
    assert.deepEqual(items, all.filter((l) => asked.includes(l.id)));
  } finally {
    kv.close();
  }
});
