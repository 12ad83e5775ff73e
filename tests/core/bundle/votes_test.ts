import { strict as assert } from "node:assert";
import {
  castVote,
  mergeVote,
  reconcileSourceRuns,
  sumRuns,
} from "../../../src/core/bundle/votes.ts";
import { referenceVotes } from "./_reference_merge.ts";
import type { Edge, Votes } from "../../../src/core/bundle/types.ts";

const ME = "a1b2c3d4e5f6";
const YOU = "f0e1d2c3b4a5";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

Deno.test("live vote: first [1, run]; a later run adds one; the same run changes nothing", () => {
  let votes: Votes = {};
  for (let save = 0; save < 5; save++) votes = castVote(votes, "auto", ME, 1); // five autosaves
  assert.deepEqual(votes, { auto: { [ME]: [1, 1] } });
  votes = castVote(votes, "auto", ME, 2);
  assert.deepEqual(votes, { auto: { [ME]: [2, 2] } });
  votes = castVote(votes, "auto", ME, 1);
  assert.deepEqual(votes, { auto: { [ME]: [2, 2] } });
});

Deno.test("castVote leaves its argument untouched", () => {
  const votes = deepFreeze<Votes>({ auto: { [ME]: [1, 1] } });
  const next = castVote(votes, "auto", ME, 2);
  assert.deepEqual(votes, { auto: { [ME]: [1, 1] } });
  assert.deepEqual(next, { auto: { [ME]: [2, 2] } });
});

Deno.test("merge vote: new entry copied; later run advances to max(prior+1, incoming); else unchanged", () => {
  assert.deepEqual(mergeVote(undefined, [3, 3]), [3, 3]);
  assert.deepEqual(mergeVote([1, 1], [3, 3]), [3, 3]);
  assert.deepEqual(mergeVote([3, 5], [1, 6]), [4, 6]);
  assert.deepEqual(mergeVote([3, 5], [9, 5]), [3, 5]);
  assert.deepEqual(mergeVote([3, 5], [1, 2]), [3, 5]);
});

Deno.test("a run-0 vote followed by run 1 stays within count <= max(last_run, 1)", () => {
  // The reference rule would give [2, 1], which no validator would then accept.
  assert.deepEqual(mergeVote([1, 0], [1, 1]), [1, 1]);
  assert.deepEqual(castVote({ wall: { [ME]: [1, 0] } }, "wall", ME, 1), { wall: { [ME]: [1, 1] } });
  assert.deepEqual(castVote({ wall: { [ME]: [1, 0] } }, "wall", ME, 3), { wall: { [ME]: [2, 3] } });
});

Deno.test("the merge rule is a join only for agreeing histories", () => {
  // [1,1] then [1,2] from one source cannot both be true histories; order then matters.
  assert.deepEqual(mergeVote([1, 1], [1, 2]), [2, 2]);
  assert.deepEqual(mergeVote([1, 2], [1, 1]), [1, 2]);
  // Agreeing snapshots ([1,1] then [2,2]) merge to the newer in either order.
  assert.deepEqual(mergeVote([1, 1], [2, 2]), [2, 2]);
  assert.deepEqual(mergeVote([2, 2], [1, 1]), [2, 2]);
});

Deno.test("the reference vote merge: per kind and source, inputs unchanged", () => {
  const local = deepFreeze<Votes>({ auto: { [ME]: [1, 1] }, wall: { [ME]: [2, 2] } });
  const incoming = deepFreeze<Votes>({
    auto: { [YOU]: [3, 3], [ME]: [1, 1] },
    runoff: { [YOU]: [1, 1] },
  });
  assert.deepEqual(referenceVotes(local, incoming), {
    auto: { [ME]: [1, 1], [YOU]: [3, 3] },
    wall: { [ME]: [2, 2] },
    runoff: { [YOU]: [1, 1] },
  });
});

Deno.test("source runs are raised to the vote watermarks, keys sorted, and summed", () => {
  const edge = (votes: Votes): Edge => ({
    x: 0,
    z: 0,
    y: null,
    hx: 0,
    hz: 0,
    side: "L",
    kind: "auto",
    votes,
    run: 0,
    tw: null,
  });
  const edges = [
    edge({ auto: { [YOU]: [2, 7], [ME]: [1, 1] } }),
    edge({ wall: { abcdef: [1, 3] } }),
  ];
  const runs = reconcileSourceRuns({ [ME]: 5, [YOU]: 2 }, edges);
  assert.deepEqual(runs, { [ME]: 5, abcdef: 3, [YOU]: 7 });
  assert.deepEqual(Object.keys(runs), [ME, "abcdef", YOU]);
  assert.equal(sumRuns(runs), 15);
  assert.equal(sumRuns({}), 0);
});
