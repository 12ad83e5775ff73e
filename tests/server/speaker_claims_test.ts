import { strict as assert } from "node:assert";
import { SpeakerClaims } from "../../src/server/speaker_claims.ts";

Deno.test("one device speaks: the newest claim; its release hands the voice back", () => {
  const claims = new SpeakerClaims();
  const heard: string[] = [];
  const a = claims.claim((s) => heard.push(`a:${s}`));
  const b = claims.claim((s) => heard.push(`b:${s}`));
  const c = claims.claim((s) => heard.push(`c:${s}`));
  assert.deepEqual(heard, ["a:true", "a:false", "b:true", "b:false", "c:true"]);
  heard.length = 0;
  b(); // a silent claim goes quietly
  assert.deepEqual(heard, []);
  c(); // the speaker goes: the newest left speaks
  assert.deepEqual(heard, ["a:true"]);
  c();
  assert.equal(claims.size, 1);
  a();
  assert.equal(claims.size, 0);
  assert.deepEqual(heard, ["a:true"]);
});
