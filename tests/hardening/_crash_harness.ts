/**
 * The parent side of the crash tests: start a child process on a store on
 * disk, follow the progress lines it prints (see `_crash_probe.ts`), kill it
 * with SIGKILL at a planned moment of the write under test, and tell what
 * the restarted store must then hold.
 *
 * Two kinds of trial. Gated trials are exact: the child kills itself just
 * before or just after one of the write's own commits (see `Gate` in
 * `_crash_probe.ts`), at every such point of every write, so the states a
 * write passes through between its commits are each tried, and where the
 * store must then stand is known, on any machine. Timed trials are aimed
 * by the clock at any moment, within a commit too: they are spread evenly
 * over the write's measured duration (stratified), each shifted by a
 * seeded jitter, and every tenth aims at the moments before the write's
 * first commit instead. Where a timed kill lands depends on the scheduler,
 * so it is tallied, never required. The seed is fixed per test file and
 * can be overridden with the CRASH_SEED environment variable. Durations
 * come from an uninterrupted calibration run, refined by every trial
 * (WriteClock).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { DB_FILE } from "../../src/storage/kv.ts";
import { seededRandom } from "../_random.ts";
import { formatGate, type Gate } from "./_crash_probe.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** One progress line of a child: `event n ms`. */
export interface ProbeLine {
  event: string;
  /** Ordinal of the write it belongs to; 0 for none. */
  n: number;
  /** Child's milliseconds since it started. */
  ms: number;
}

/** How a child ended. */
export interface ChildExit {
  /** True when the SIGKILL ended it; false when it had exited by itself. */
  killed: boolean;
  /** Exit code (137 after the SIGKILL). */
  code: number;
  /** Every progress line it printed. */
  lines: ProbeLine[];
  stderr: string;
}

function parseLine(text: string): ProbeLine | null {
  const m = /^(\S+) (\d+) (\d+(?:\.\d+)?)$/.exec(text);
  return m ? { event: m[1], n: Number(m[2]), ms: Number(m[3]) } : null;
}

/** A running child process that prints progress lines. */
export class CrashChild {
  readonly #process: Deno.ChildProcess;
  readonly #lines: ProbeLine[] = [];
  readonly #waiters: (() => void)[] = [];
  readonly #closed: Promise<void>;
  readonly #stderr: Promise<string>;
  #ended = false;

  /** Starts `deno run -A script ...args` with the project's configuration. */
  constructor(script: string, args: string[]) {
    this.#process = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", CONFIG, script, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#stderr = new Response(this.#process.stderr).text();
    this.#closed = this.#read();
  }

  async #read(): Promise<void> {
    let pending = "";
    const reader = this.#process.stdout.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += value;
      const parts = pending.split("\n");
      pending = parts.pop()!;
      for (const part of parts) {
        const line = parseLine(part);
        if (line) this.#lines.push(line);
      }
      this.#waiters.splice(0).forEach((w) => w());
    }
    this.#ended = true;
    this.#waiters.splice(0).forEach((w) => w());
  }

  /** The progress lines so far. */
  get lines(): readonly ProbeLine[] {
    return this.#lines;
  }

  /** Resolves with the first line `event n`, or null when the child's output ended first. */
  async waitFor(event: string, n: number): Promise<ProbeLine | null> {
    for (;;) {
      const found = this.#lines.find((l) => l.event === event && l.n === n);
      if (found) return found;
      if (this.#ended) return null;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Sends SIGKILL (unless the child has exited already) and waits for it to end. */
  async kill(): Promise<ChildExit> {
    try {
      this.#process.kill("SIGKILL");
    } catch {
      // It had exited by itself: the whole run finished before the kill.
    }
    return await this.finish();
  }

  /** Waits for the child to end on its own. */
  async finish(): Promise<ChildExit> {
    const status = await this.#process.status;
    await this.#closed;
    return {
      killed: status.signal === "SIGKILL",
      code: status.code,
      lines: [...this.#lines],
      stderr: await this.#stderr,
    };
  }
}

/** Copies the store files of `from` into a new directory `to`. */
export async function copyStore(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/** The database file inside a data directory. */
export function storeFile(dir: string): string {
  return join(dir, DB_FILE);
}

/** The seed of a file's kill plan: CRASH_SEED when set, else `fallback`. */
export function crashSeed(fallback: number): number {
  const raw = Deno.env.get("CRASH_SEED");
  return raw === undefined || raw === "" ? fallback : Number.parseInt(raw, 10);
}

/** When one write of a calibration run began, made its first commit, and ended (child ms). */
export interface WriteTiming {
  begin: number;
  write: number;
  end: number;
}

/**
 * The timing of writes 1..`count` from an uninterrupted run's lines: each
 * needs `begin n`, `write n` and `end n` in that order.
 */
export function timings(lines: readonly ProbeLine[], count: number): WriteTiming[] {
  const at = (event: string, n: number): number => {
    const line = lines.find((l) => l.event === event && l.n === n);
    if (!line) throw new Error(`calibration run printed no "${event} ${n}"`);
    return line.ms;
  };
  return Array.from({ length: count }, (_, i) => {
    const t = { begin: at("begin", i + 1), write: at("write", i + 1), end: at("end", i + 1) };
    if (!(t.begin <= t.write && t.write <= t.end)) {
      throw new Error(`write ${i + 1} out of order: ${JSON.stringify(t)}`);
    }
    return t;
  });
}

/** Where one trial's kill is aimed. */
export interface KillAim {
  /** The write (1-based) the kill is aimed at. */
  n: number;
  /** "write": after the write's first commit was issued; "begin": before it. */
  anchor: "begin" | "write";
  /** How far into the span after the anchor: 0 at the anchor, 1 at its end (see WriteClock). */
  fraction: number;
}

/**
 * Plans `trials` kills over writes 1..`writes` (in turn): stratified over
 * each write's span from first commit to end with a seeded jitter within
 * each stratum; every tenth trial instead aims at a moment between the
 * write's start and its first commit.
 */
export function planKills(trials: number, writes: number, seed: number): KillAim[] {
  const random = seededRandom(seed);
  const perWrite = Math.ceil(trials / writes);
  const aims: KillAim[] = [];
  for (let i = 0; i < trials; i++) {
    const n = 1 + (i % writes);
    const jitter = random();
    if (i % 10 === 9) aims.push({ n, anchor: "begin", fraction: jitter });
    else aims.push({ n, anchor: "write", fraction: (Math.floor(i / writes) + jitter) / perWrite });
  }
  return aims;
}

/** Past the measured end, so the plan also covers moments just after a write. */
export const OVERSHOOT = 1.15;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * How long each write takes, as the median of what the calibration run and
 * every later child that saw it through measured. One calibration run on a
 * busy machine can be far off; later runs pull the estimate back, so the
 * kills keep landing inside the writes.
 */
export class WriteClock {
  readonly #lead: number[][];
  readonly #span: number[][];

  /** Starts from an uninterrupted run's timings. */
  constructor(calibration: readonly WriteTiming[]) {
    this.#lead = calibration.map((t) => [t.write - t.begin]);
    this.#span = calibration.map((t) => [t.end - t.write]);
  }

  /** Learns the durations of every write a child's lines show whole. */
  learn(lines: readonly ProbeLine[]): void {
    const at = (event: string, n: number) => lines.find((l) => l.event === event && l.n === n)?.ms;
    for (let n = 1; n <= this.#span.length; n++) {
      const [begin, write, end] = [at("begin", n), at("write", n), at("end", n)];
      if (begin !== undefined && write !== undefined) this.#lead[n - 1].push(write - begin);
      if (write !== undefined && end !== undefined) this.#span[n - 1].push(end - write);
    }
  }

  /** Median milliseconds of write `n` from its start to its first commit. */
  lead(n: number): number {
    return median(this.#lead[n - 1]);
  }

  /** Median milliseconds of write `n` from its first commit to its end. */
  span(n: number): number {
    return median(this.#span[n - 1]);
  }

  /** The delay after `aim`'s anchor line at which to kill. */
  delayOf(aim: KillAim): number {
    return aim.anchor === "begin"
      ? aim.fraction * this.lead(aim.n)
      : aim.fraction * OVERSHOOT * this.span(aim.n);
  }
}

/**
 * Waits for `aim`'s anchor line, then the delay `clock` gives it, then kills
 * the child, and lets `clock` learn from the child's lines. A child that
 * ends first (the plan overshot the whole run) is just waited for.
 */
export async function killAt(
  child: CrashChild,
  aim: KillAim,
  clock: WriteClock,
): Promise<ChildExit> {
  const seen = await child.waitFor(aim.anchor, aim.n);
  const delay = clock.delayOf(aim);
  if (seen !== null && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const exit = await child.kill();
  clock.learn(exit.lines);
  return exit;
}

/** How far the child's writes had got when it died. */
export interface Progress {
  /** Writes whose first commit had been issued. */
  started: number;
  /**
   * Writes whose readable commit (the one that makes them visible) the child
   * saw resolve: those must be in the store. Never fewer than `ended`.
   */
  visible: number;
  /** Writes that had ended. */
  ended: number;
  /** True when a write was in flight: started, not ended. */
  inside: boolean;
}

/** Reads {@linkcode Progress} off a dead child's lines. */
export function progressOf(lines: readonly ProbeLine[]): Progress {
  const count = (event: string) =>
    new Set(lines.filter((l) => l.event === event).map((l) => l.n)).size;
  const [started, visible, ended] = [count("write"), count("visible"), count("end")];
  return { started, visible, ended, inside: started > ended };
}

/** What a calibration run shows of each write's commits. */
export interface WriteCommits {
  /** The write's own commits. */
  commits: number;
  /** The commit (1-based) whose resolving made the write readable. */
  visibleAt: number;
}

/**
 * Each of writes 1..`count`'s commits, from an uninterrupted run's `done n`
 * lines and the `visible n` line that follows one of them.
 */
export function commitsOf(lines: readonly ProbeLine[], count: number): WriteCommits[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    let commits = 0;
    let visibleAt = 0;
    for (const l of lines) {
      if (l.n !== n) continue;
      if (l.event === "done") commits++;
      if (l.event === "visible") visibleAt = commits;
    }
    if (commits === 0 || visibleAt === 0) {
      throw new Error(
        `calibration run shows write ${n} with ${commits} commits, visible at ${visibleAt}`,
      );
    }
    return { commits, visibleAt };
  });
}

/**
 * The gates of writes described by `writes`: just before and just after
 * each of their commits, in order. With `take`, a seeded stratified sample
 * of that many (one from each of `take` equal runs of the list), for writes
 * with too many commits to try them all.
 */
export function planGates(writes: readonly WriteCommits[], take?: number, seed = 1): Gate[] {
  const all: Gate[] = writes.flatMap((w, i) =>
    Array.from(
      { length: w.commits },
      (_, c) => (["before", "after"] as const).map((when) => ({ n: i + 1, commit: c + 1, when })),
    ).flat()
  );
  if (take === undefined || take >= all.length) return all;
  const random = seededRandom(seed);
  return Array.from({ length: take }, (_, k) => {
    const from = Math.floor(k * all.length / take);
    const to = Math.floor((k + 1) * all.length / take);
    return all[from + Math.floor(random() * (to - from))];
  });
}

/** How many writes must be in the store when a child died at `gate`. */
export function visibleAtGate(gate: Gate, writes: readonly WriteCommits[]): number {
  const at = writes[gate.n - 1].visibleAt;
  const past = gate.commit > at || (gate.commit === at && gate.when === "after");
  return gate.n - (past ? 0 : 1);
}

/**
 * Runs `script` with `args` and the gate as its last argument and waits for
 * it to kill itself there. Throws, with its output, when it ended otherwise:
 * the write did not pass that point, which the calibration said it would.
 */
export async function killAtGate(script: string, args: string[], gate: Gate): Promise<ChildExit> {
  const exit = await new CrashChild(script, [...args, formatGate(gate)]).finish();
  if (!exit.killed) {
    throw new Error(
      `gate ${formatGate(gate)} was never reached (exit ${exit.code}): ` +
        `${exit.lines.map((l) => `${l.event} ${l.n}`).join(", ")}\n${exit.stderr}`,
    );
  }
  return exit;
}

/** What a restart found besides the documents: leftovers of interrupted writes. */
export interface Leftovers {
  /** Bundle generations (chunks or pending markers) that no head names. */
  bundleGenerations: number;
  /** Heads whose generation does not hold exactly the chunks the head records. */
  brokenHeads: number;
  /** Laps whose sample chunks exist without the lap's record. */
  lapSamples: number;
}

/**
 * Counts what interrupted writes left in the store, by the key layout of
 * src/storage/bundles.ts and src/storage/laps.ts.
 */
export async function leftoversOf(kv: Deno.Kv): Promise<Leftovers> {
  const named = new Map<string, number>();
  const heads = new Map<string, { generation: number; chunks: number }>();
  for await (
    const e of kv.list<{ generation: number; chunks: { chunks: number } }>({
      prefix: ["bundle"],
    })
  ) {
    if (e.key.length !== 2) continue;
    heads.set(String(e.key[1]), { generation: e.value.generation, chunks: e.value.chunks.chunks });
  }
  for await (const e of kv.list({ prefix: ["bundle_chunk"] })) {
    const g = `${String(e.key[1])}/${String(e.key[2])}`;
    named.set(g, (named.get(g) ?? 0) + 1);
  }
  const generations = new Set(named.keys());
  for await (const e of kv.list({ prefix: ["bundle_pending"] })) {
    generations.add(`${String(e.key[1])}/${String(e.key[2])}`);
  }
  let brokenHeads = 0;
  for (const [slug, head] of heads) {
    const g = `${slug}/${head.generation}`;
    if (named.get(g) !== head.chunks) brokenHeads++;
    generations.delete(g);
  }
  const lapIds = new Set<number>();
  for await (const e of kv.list({ prefix: ["lap_samples"] })) lapIds.add(e.key[1] as number);
  let lapSamples = 0;
  for (const id of lapIds) if ((await kv.get(["lap", id])).versionstamp === null) lapSamples++;
  return { bundleGenerations: generations.size, brokenHeads, lapSamples };
}

/** Where a kill landed relative to the write it was aimed at. */
export type Landing = "before" | "inside" | "after";

/** Where the kill aimed at write `n` landed, from how far the child had got. */
export function landingOf(progress: Progress, n: number): Landing {
  if (progress.inside) return "inside";
  return progress.ended < n ? "before" : "after";
}

/** Tallies of a file's trials, for the log line each test prints. */
export class CrashTally {
  readonly #outcomes = new Map<string, number>();
  readonly #landings: Record<Landing, number> = { before: 0, inside: 0, after: 0 };
  /** Trials counted. */
  trials = 0;
  /** Gated trials among them (each killed inside a write, at a commit of its own). */
  gated = 0;
  /** Trials whose restart found leftovers for the sweep to clear. */
  swept = 0;

  /** Counts one trial. */
  add(landing: Landing, outcome: string, swept: boolean, gated = false): void {
    this.trials++;
    if (gated) this.gated++;
    else this.#landings[landing]++;
    if (swept) this.swept++;
    this.#outcomes.set(outcome, (this.#outcomes.get(outcome) ?? 0) + 1);
  }

  /** Timed trials killed while a write was in flight. */
  get inside(): number {
    return this.#landings.inside;
  }

  /** One line: trials, where the kills landed, what the restarted store held. */
  summary(): string {
    const outcomes = [...this.#outcomes].sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v}`).join(", ");
    const l = this.#landings;
    return `${this.trials} trials: ${this.gated} gated at a commit of a write; ` +
      `${this.trials - this.gated} timed, killed inside a write ${l.inside}, before the aimed ` +
      `write ${l.before}, after it ${l.after}; the start-up sweep cleared leftovers after ` +
      `${this.swept}; the store held: ${outcomes}`;
  }
}

/** What a restarted store held. */
export interface Finding {
  /** How many of the writes (1, 2, ...) it holds: each one whole. */
  stored: number;
  /** The outcome as the tally names it. */
  held: string;
  /** True when the start-up sweep cleared leftovers of an interrupted write. */
  swept: boolean;
}

/** One file's crash trials: the child, its store, and the check of a restarted store. */
export interface Trials {
  /** The child script. */
  script: string;
  /** The child's arguments for a store in `dir` (the gate is appended). */
  args: (dir: string) => string[];
  /** Where the trials' stores are made (each removed after its trial). */
  root: string;
  /** Makes a trial's store ready in `dir` (e.g. copies a pristine store); none: empty. */
  prepare?: (dir: string) => Promise<void>;
  /** Reopens the store in `dir` as a restart does; throws on anything never allowed. */
  restart: (dir: string) => Promise<Finding>;
}

/**
 * Runs the gated trials, then the timed ones, each in a fresh store, and
 * checks each restart against how far the child got: a gated trial's
 * store holds exactly the writes the gate lies past (the child, killed
 * inside write n, must say so); a timed trial's holds at least every
 * write the child saw become readable and at most those it began.
 */
export async function runTrials(
  t: Trials,
  writes: readonly WriteCommits[],
  gates: readonly Gate[],
  timed: readonly KillAim[],
  clock: WriteClock,
): Promise<CrashTally> {
  const tally = new CrashTally();
  let i = 0;
  const trial = async (
    gated: boolean,
    kill: (dir: string) => Promise<ChildExit>,
    check: (progress: Progress, found: Finding, where: string) => Landing,
  ) => {
    const dir = join(t.root, `trial-${i}`);
    const where = `trial ${i++}`;
    if (t.prepare) await t.prepare(dir);
    const progress = progressOf((await kill(dir)).lines);
    const found = await t.restart(dir);
    tally.add(check(progress, found, where), found.held, found.swept, gated);
    await Deno.remove(dir, { recursive: true });
  };
  const gated = async (dir: string, gate: Gate) => {
    const exit = await killAtGate(t.script, t.args(dir), gate);
    clock.learn(exit.lines);
    return exit;
  };
  for (const gate of gates) {
    const expected = visibleAtGate(gate, writes);
    await trial(true, (dir) => gated(dir, gate), (progress, found, where) => {
      const at = `${where}, gate ${formatGate(gate)}`;
      assert.deepEqual(progress, {
        started: gate.n,
        visible: expected,
        ended: gate.n - 1,
        inside: true,
      }, `${at}: the child stopped elsewhere`);
      assert.equal(found.stored, expected, `${at}: the store holds ${found.held}`);
      return "inside";
    });
  }
  for (const aim of timed) {
    await trial(
      false,
      (dir) => killAt(new CrashChild(t.script, t.args(dir)), aim, clock),
      (p, found, where) => {
        // Stored once the child saw it readable; never before its write began.
        assert.ok(
          p.visible <= found.stored && found.stored <= p.started,
          `${where}: ${JSON.stringify({ progress: p, stored: found.stored })}`,
        );
        return landingOf(p, aim.n);
      },
    );
  }
  return tally;
}
