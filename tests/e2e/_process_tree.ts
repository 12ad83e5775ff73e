/**
 * The processes a command started, read from /proc (Linux): to check that
 * stopping it left none behind.
 *
 * @module
 */

/** Whether this platform shows process trees in /proc. */
export const HAS_PROC = Deno.build.os === "linux";

/** The ids of every descendant of `pid` alive now (children first, depth first). */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: Deno.DirEntry[];
  try {
    tasks = [...Deno.readDirSync(`/proc/${pid}/task`)];
  } catch {
    return out;
  }
  for (const task of tasks) {
    let text = "";
    try {
      text = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/children`);
    } catch {
      continue;
    }
    for (const child of text.trim().split(/\s+/).filter((s) => s !== "")) {
      out.push(Number(child), ...descendants(Number(child)));
    }
  }
  return out;
}

/** Whether process `pid` still exists and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The state follows the parenthesised command name.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
