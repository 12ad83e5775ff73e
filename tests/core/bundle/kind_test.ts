import { strict as assert } from "node:assert";
import { kindTotal, resolveKind } from "../../../src/core/bundle/kind.ts";
import { castVote } from "../../../src/core/bundle/votes.ts";
import type { Votes } from "../../../src/core/bundle/types.ts";

const ME = "a1b2c3d4e5f6";
const YOU = "f0e1d2c3b4a5";

Deno.test("auto on run 1 then runoff on run 2 resolves to runoff; then two edge votes win", () => {
  let votes: Votes = castVote({}, "auto", ME, 1);
  assert.equal(resolveKind(votes), "auto");
  votes = castVote(votes, "runoff", ME, 2);
  assert.equal(resolveKind(votes), "runoff");
  votes = castVote(votes, "edge", ME, 3);
  assert.equal(resolveKind(votes), "runoff", "a tie goes to the earlier kind");
  votes = castVote(votes, "edge", ME, 4);
  assert.deepEqual(votes.edge, { [ME]: [2, 4] });
  assert.equal(resolveKind(votes), "edge");
});

Deno.test("manual evidence beats inferred evidence outright, not by majority", () => {
  const votes: Votes = {
    auto: { [ME]: [50, 60], [YOU]: [40, 45] },
    straddle: { [ME]: [30, 60] },
    wall: { [YOU]: [1, 3] },
  };
  assert.equal(resolveKind(votes), "wall");
});

Deno.test("within a tier the highest total over every source wins", () => {
  assert.equal(
    resolveKind({ auto: { [ME]: [2, 2] }, straddle: { [ME]: [1, 1], [YOU]: [2, 2] } }),
    "straddle",
  );
  assert.equal(
    resolveKind({ runoff: { [ME]: [2, 2] }, edge: { [ME]: [1, 1], [YOU]: [2, 2] } }),
    "edge",
  );
  assert.equal(kindTotal({ straddle: { [ME]: [1, 1], [YOU]: [2, 2] } }, "straddle"), 3);
  assert.equal(kindTotal({}, "wall"), 0);
});

Deno.test("ties go by the order wall, runoff, edge, auto, straddle", () => {
  assert.equal(
    resolveKind({ edge: { [ME]: [2, 2] }, runoff: { [ME]: [2, 2] }, wall: { [ME]: [2, 2] } }),
    "wall",
  );
  assert.equal(resolveKind({ edge: { [ME]: [1, 1] }, runoff: { [YOU]: [1, 1] } }), "runoff");
  assert.equal(resolveKind({ straddle: { [ME]: [3, 3] }, auto: { [YOU]: [3, 3] } }), "auto");
});

Deno.test("no votes resolves to auto", () => {
  assert.equal(resolveKind({}), "auto");
  assert.equal(resolveKind({ wall: {} }), "auto");
});

Deno.test("two sources voting on run 1 give a total of 2", () => {
  const votes = castVote(castVote({}, "runoff", ME, 1), "runoff", YOU, 1);
  assert.equal(kindTotal(votes, "runoff"), 2);
  assert.deepEqual(votes, { runoff: { [ME]: [1, 1], [YOU]: [1, 1] } });
});
