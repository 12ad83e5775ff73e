/**
 * Telling a write the store refused for want of room (or because it is open
 * read-only) from any other failure. A refused write is kept and retried
 * (src/app/store/lap_keeper.ts) or answered with 507/503; any other failure is a
 * bug and reported as one.
 *
 * @module
 */
import { messageOf, UserError } from "./errors.ts";

/** What SQLite, Deno KV and the OS say when there is no room or the file is read-only. */
const REFUSAL =
  /database or disk is full|disk I\/O error|No space left on device|os error 28|read-only database|readonly database|Quota exceeded/i;

/** True when `err` says the store refused a write for want of room or because it is read-only. */
export function isStoreRefusal(err: unknown): boolean {
  if (err instanceof StoreRefused) return true;
  return REFUSAL.test(messageOf(err));
}

/**
 * A change the store cannot take now: its disk is full (HTTP 507) or it was
 * opened read-only (503). Nothing was written; the caller still has its data.
 */
export class StoreRefused extends UserError {
  readonly title: string;
  /** 507 when the disk is full, 503 when the store is open read-only. */
  readonly status: 503 | 507;
  /** Creates the error; `status` 507 for a full disk, 503 for a read-only store. */
  constructor(message: string, status: 503 | 507, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.title = status === 507 ? "Insufficient storage" : "Service unavailable";
  }
}
