/**
 * A small filesystem a test makes: a tmpfs mounted on a new temporary
 * folder, which needs root. Tests skip, saying why, where it cannot be made.
 *
 * @module
 */
import { join } from "node:path";

/** A mounted tmpfs; {@linkcode Tmpfs.unmount} removes it and its folder. */
export interface Tmpfs {
  /** Where it is mounted. */
  dir: string;
  /** Fills every free byte with a file `filler` (ENOSPC ends it); returns the bytes written. */
  fill(name?: string): number;
  /** Unmounts it and removes the folder. */
  unmount(): Promise<void>;
}

/** Mounts a tmpfs of `bytes`, or returns why it cannot (not root, no mount). */
export async function mountTmpfs(bytes: number): Promise<Tmpfs | string> {
  if (Deno.uid() !== 0) return "not root: cannot mount a small filesystem";
  const dir = await Deno.makeTempDir({ prefix: "tmpfs-" });
  const out = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    await Deno.remove(dir);
    return `mount failed: ${new TextDecoder().decode(out.stderr).trim()}`;
  }
  return {
    dir,
    fill(name = "filler") {
      const file = Deno.openSync(join(dir, name), { write: true, create: true, append: true });
      const chunk = new Uint8Array(4096);
      let written = 0;
      try {
        for (;;) written += file.writeSync(chunk);
      } catch (err) {
        if (!(err instanceof Error) || !/No space|os error 28/.test(err.message)) throw err;
      } finally {
        file.close();
      }
      return written;
    },
    async unmount() {
      await new Deno.Command("umount", { args: [dir], stdout: "null", stderr: "null" }).output();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * {@linkcode mountTmpfs}, or null after saying why the test is skipped
 * (`skipped: ...` on the console), for a test to return on.
 */
export async function tmpfsOrSkip(bytes: number): Promise<Tmpfs | null> {
  const fs = await mountTmpfs(bytes);
  if (typeof fs !== "string") return fs;
  console.log(`skipped: ${fs}`);
  return null;
}
