/**
 * The id of the last message from the team hub this logger took (issue
 * #40), kept in its store so a restart tells the hub where it stopped and
 * old messages are not shown again.
 *
 * @module
 */
import { withLockRetry } from "./blob.ts";

const KEY: Deno.KvKey = ["hub_last_message_id"];

/** The last message id taken, or null when none ever was. */
export async function lastMessageId(kv: Deno.Kv): Promise<number | null> {
  const e = await kv.get<number>(KEY);
  return typeof e.value === "number" ? e.value : null;
}

/**
 * Records `id` as taken when it is above the stored one (ids only grow:
 * a late or repeated message never moves it back); resolves once stored.
 */
export async function takeMessageId(kv: Deno.Kv, id: number): Promise<void> {
  await withLockRetry(async () => {
    for (;;) {
      const e = await kv.get<number>(KEY);
      if (typeof e.value === "number" && e.value >= id) return;
      const r = await kv.atomic().check(e).set(KEY, id).commit();
      if (r.ok) return;
    }
  });
}
