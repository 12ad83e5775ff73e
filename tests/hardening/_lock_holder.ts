/**
 * Holds the SQLite file at `Deno.args[0]` under an exclusive lock until its
 * stdin closes: the second process the locked-store test needs.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

const db = new DatabaseSync(Deno.args[0]);
db.exec("BEGIN EXCLUSIVE");
db.exec("CREATE TABLE IF NOT EXISTS lock_holder (a)");
console.log("locked");
for await (const _ of Deno.stdin.readable) { /* wait for the parent to close us */ }
db.exec("ROLLBACK");
db.close();
