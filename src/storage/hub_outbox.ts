/**
 * The team hub's outbox (issue #38): what this logger still owes the hub,
 * in its own store, so a lap recorded while the hub is down or the machine
 * offline is sent once it is back, after a restart too. An entry names what
 * to send (a lap by id, a bundle's votes by slug), never a copy of it: the
 * lap stays where it is stored and is read when its turn comes.
 *
 * A recorded complete lap enters the outbox in the very commit that stores
 * it (storage/laps.ts stages {@linkcode stageOutboxLap}) once the store is
 * marked with {@linkcode feedOutbox}, so no lap is stored without its entry
 * nor an entry written without its lap. What the hub refused for good is
 * parked beside the outbox with the hub's reason; asking again moves it
 * back.
 *
 * @module
 */
import { withLockRetry } from "./blob.ts";

/** What an entry sends: a lap by id, or a bundle's votes by slug. */
export type OutboxRef = { kind: "lap"; id: number } | { kind: "bundle"; slug: string };

/** One entry waiting for the hub. */
export interface OutboxEntry {
  ref: OutboxRef;
  /** When it was queued, ISO 8601. */
  queued_at: string;
}

/** One entry the hub refused for good, with its reason. */
export interface ParkedEntry extends OutboxEntry {
  /** What the hub said (`413: ...`). */
  reason: string;
  parked_at: string;
}

const OUTBOX = "hub_outbox";
const PARKED = "hub_parked";

// Kinds are keyed by number so laps (the driver's own work, oldest first) go before bundles.
const LAP = 0;
const BUNDLE = 1;

/** The key of `ref` under `prefix`: laps sort before bundles, laps by id. */
function keyOf(prefix: string, ref: OutboxRef): Deno.KvKey {
  return ref.kind === "lap" ? [prefix, LAP, ref.id] : [prefix, BUNDLE, ref.slug];
}

function refOf(key: Deno.KvKey): OutboxRef {
  return key[1] === LAP
    ? { kind: "lap", id: key[2] as number }
    : { kind: "bundle", slug: key[2] as string };
}

// Stores whose recorded laps go to the outbox: a property of the open handle, set by the process
// that has a hub, so a logger without one never collects entries nobody sends.
const FED = new WeakSet<Deno.Kv>();

/** From now on every complete recorded lap saved through `kv` enters the outbox with it. */
export function feedOutbox(kv: Deno.Kv): void {
  FED.add(kv);
}

/** Whether a lap saved through `kv` with these fields enters the outbox (see {@linkcode feedOutbox}). */
export function outboxTakes(kv: Deno.Kv, lap: { imported: boolean; complete: boolean }): boolean {
  return FED.has(kv) && !lap.imported && lap.complete;
}

/** Stages lap `id`'s entry in `op`, the commit that stores the lap. */
export function stageOutboxLap(op: Deno.AtomicOperation, id: number, at: string): void {
  const ref: OutboxRef = { kind: "lap", id };
  op.set(keyOf(OUTBOX, ref), { ref, queued_at: at } satisfies OutboxEntry);
}

/**
 * Queues `refs` in one commit (a parked one is taken out of the park): all
 * or none. Returns how many.
 */
export async function queueOutbox(
  kv: Deno.Kv,
  refs: readonly OutboxRef[],
  at: string,
): Promise<number> {
  const op = kv.atomic();
  for (const ref of refs) {
    op.set(keyOf(OUTBOX, ref), { ref, queued_at: at } satisfies OutboxEntry);
    op.delete(keyOf(PARKED, ref));
  }
  const res = await withLockRetry(() => op.commit());
  if (!res.ok) throw new Error("the hub outbox could not be written");
  return refs.length;
}

/** Every entry waiting, laps (oldest id first) then bundles. */
export async function listOutbox(kv: Deno.Kv): Promise<OutboxEntry[]> {
  const out: OutboxEntry[] = [];
  for await (const e of kv.list<OutboxEntry>({ prefix: [OUTBOX] })) {
    out.push({ ref: refOf(e.key), queued_at: e.value.queued_at });
  }
  return out;
}

/** Every parked entry, laps first. */
export async function listParked(kv: Deno.Kv): Promise<ParkedEntry[]> {
  const out: ParkedEntry[] = [];
  for await (const e of kv.list<ParkedEntry>({ prefix: [PARKED] })) {
    out.push({ ...e.value, ref: refOf(e.key) });
  }
  return out;
}

/** Takes `ref` out of the outbox: the hub has it (or there is nothing left to send). */
export async function removeOutbox(kv: Deno.Kv, ref: OutboxRef): Promise<void> {
  await withLockRetry(() => kv.delete(keyOf(OUTBOX, ref)));
}

/** Moves `entry` from the outbox to the park with `reason`, in one commit. */
export async function parkOutbox(
  kv: Deno.Kv,
  entry: OutboxEntry,
  reason: string,
  at: string,
): Promise<void> {
  const parked: ParkedEntry = { ...entry, reason, parked_at: at };
  const op = kv.atomic().delete(keyOf(OUTBOX, entry.ref)).set(keyOf(PARKED, entry.ref), parked);
  await withLockRetry(() => op.commit());
}
