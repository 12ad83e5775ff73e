/**
 * The dashboard end to end in a real terminal: `demo` runs in a tmux pane,
 * the first lap brings up the name prompt, a name is typed at it, and the
 * name shows in the Sessions view and in GET /api/sessions; after three laps
 * the Analysis view shows the delta chart and the corner table, and the Bests
 * view the named circuit's best. Every capture of
 * the pane is printed into the test log. Skipped where tmux is not installed
 * (CI machines may have only Node and npm).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

const TMUX = hasTmux();
if (!TMUX) {
  console.log("tui_tmux_test: tmux is not on PATH; the terminal end-to-end test is skipped");
}

async function tmux(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/**
 * How long any one wait may last: long enough that only a hang runs into it,
 * however busy the machine. Nothing here is a latency bound.
 */
const HANG_MS = 180_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The pane's screen; with `saved`, the screen a full-screen program covered
 * (tmux -a). Throws with it once the demo has exited, unless `exitOk`, so a
 * demo that failed is reported at once rather than after a wait.
 */
async function capture(target: string, saved = false, exitOk = false): Promise<string> {
  const text = await tmux("capture-pane", "-p", ...(saved ? ["-a", "-q"] : []), "-t", target);
  if (!exitOk && /demo exited with status/.test(text)) {
    throw new Error(`the demo exited; pane:\n${text}`);
  }
  return text;
}

/** Captures the pane until `ok` holds; prints and returns the capture, or throws with it. */
async function paneUntil(
  target: string,
  what: string,
  ok: (text: string) => boolean,
  exitOk = false,
): Promise<string> {
  const deadline = performance.now() + HANG_MS;
  for (;;) {
    const text = await capture(target, false, exitOk);
    if (ok(text)) {
      console.log(`--- pane: ${what} ---\n${text.trimEnd()}\n--- end of pane ---`);
      return text;
    }
    if (performance.now() > deadline) throw new Error(`never saw ${what}; pane:\n${text}`);
    await sleep(200);
  }
}

/**
 * Sends `keys` (tmux key names) until the pane shows `ok`, each time after
 * `patience` ms without it: for keys that are harmless to repeat, sent while
 * the program may not be listening yet. Returns the capture and the rounds.
 */
async function sendUntil(
  target: string,
  keys: string[],
  what: string,
  ok: (text: string) => boolean,
  patience = 1_000,
): Promise<{ text: string; rounds: number }> {
  const deadline = performance.now() + HANG_MS;
  for (let rounds = 1;; rounds++) {
    await tmux("send-keys", "-t", target, ...keys);
    const until = Math.min(deadline, performance.now() + patience);
    for (;;) {
      const text = await capture(target);
      if (ok(text)) {
        console.log(
          `--- pane: ${what} (round ${rounds}) ---\n${text.trimEnd()}\n--- end of pane ---`,
        );
        return { text, rounds };
      }
      if (performance.now() > deadline) throw new Error(`never saw ${what}; pane:\n${text}`);
      if (performance.now() > until) break;
      await sleep(100);
    }
  }
}

/** Waits until `fn` resolves to a value `ok` accepts; the bound only catches a hang. */
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = performance.now() + HANG_MS;
  for (;;) {
    const value = await fn();
    if (ok(value)) return value;
    if (performance.now() > deadline) {
      throw new Error(`never saw ${what}: ${JSON.stringify(value)}`);
    }
    await sleep(200);
  }
}

const NAME = "Demo Ring 7";

Deno.test({
  name: "tmux: demo, first lap, a name typed at the prompt shows in Sessions and the API",
  ignore: !TMUX,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const session = `sdl-tui-${Deno.pid}-${Date.now()}`;
    const command = [
      Deno.execPath(),
      "run",
      "-A",
      "main.ts",
      "demo",
      // The port the system picks is read back from the demo's own first lines.
      "--port",
      "0",
      "--speed",
      "20",
      "--data",
      ":memory:",
    ].map((a) => `'${a}'`).join(" ") +
      // The shell outlives the demo, so its exit status stays on screen.
      '; echo "demo exited with status $?"; sleep 600';
    await tmux("new-session", "-d", "-s", session, "-x", "90", "-y", "26", "-c", ROOT, command);
    try {
      // Printed before the dashboard takes the screen: on it, or on the screen it covered.
      const api = /demo: API on (http:\/\/127\.0\.0\.1:\d+) /;
      const printed = await until(
        async () => `${await capture(session)}\n${await capture(session, true)}`,
        (t) => api.test(t),
        "the demo's API address",
      );
      const url = api.exec(printed)![1];
      const prompt = await paneUntil(
        session,
        "the name prompt after the first lap",
        (t) => t.includes("Name this track: session 1, lap 1"),
      );
      assert.ok(prompt.includes("Track name:"), prompt);
      // The prompt listens a moment after it is drawn. A key typed before goes to the Live view
      // and the root, where "D" is no key, and is lost, or waits and arrives later. Type its
      // first letter until one shows; once one has, every earlier one has been taken or lost.
      const field = /^Track name: (D+)\s*$/m;
      let shown = (await sendUntil(session, ["-l", NAME[0]], "the prompt taking keys", (t) =>
        field.test(t))).text;
      // Any extra copies go one at a time, each seen gone before the next key.
      for (let ds = field.exec(shown)![1].length; ds > 1; ds--) {
        await tmux("send-keys", "-t", session, "BSpace");
        shown = await paneUntil(session, `${ds - 1} D left`, (t) =>
          field.exec(t)?.[1].length === ds - 1);
      }
      await tmux("send-keys", "-t", session, "-l", NAME.slice(1));
      await paneUntil(session, "the typed name", (t) =>
        /^Track name: Demo Ring 7\s*$/m.test(t));
      await tmux("send-keys", "-t", session, "Enter");
      // The notice of the save passes after a few seconds (tests/tui/name_prompt_test.tsx
      // checks it); what stays is the stored name, and the prompt gone.
      type Row = { id: number; track_name: string; track_source: string };
      const all = await until(
        async () =>
          await (await fetch(`${url}/api/sessions`)).json() as Row[],
        (rows) =>
          rows.some((s) =>
            s.id === 1 && s.track_name === NAME
          ),
        "session 1 named over the API",
      );
      const first = all.find((s) => s.id === 1);
      assert.deepEqual([first?.track_name, first?.track_source], [NAME, "user"]);
      await paneUntil(session, "the prompt closed", (t) => !t.includes("Name this track"));
      // The dashboard's keys attach a moment after the prompt closes; "2" is safe to repeat.
      const list = await sendUntil(
        session,
        ["2"],
        "the Sessions view",
        (t) => /^>\s+1 live .*Demo Ring 7/m.test(t),
      );
      assert.match(list.text, /\[2 Sessions\]/);
      // Three laps stored, so Analysis has a lap and a reference at the named circuit.
      type Lap = { complete: boolean };
      await until(
        async () => await (await fetch(`${url}/api/sessions/1/laps`)).json() as Lap[],
        (laps) => laps.filter((l) => l.complete).length >= 3,
        "three complete laps in session 1",
      );
      const analysis = await sendUntil(
        session,
        ["5"],
        "the Analysis view with the delta chart and the corner table",
        (t) => /^delta s /m.test(t) && /Corner\s+Δ s/.test(t) && t.includes(NAME),
      );
      assert.match(analysis.text, /\[5 Analysis\]/);
      assert.match(analysis.text, /^Lap \d+ \(S1 #\d+\) \d:\d\d\.\d{3}\s+vs\s+ref \d+/m);
      // Keys in one send, as a quick hand or a held key gives them, each move the picker a row:
      // six Ups from the reference's row (the first or the second) reach the top, two Downs the
      // third row. Taken a key per send of keys, they would end on the second.
      const picker = await sendUntil(
        session,
        ["r"],
        "the reference picker",
        (t) => t.includes("Pick the reference"),
      );
      const rows = [...picker.text.matchAll(/^[> ] +(\d+) {2}session \d+ lap \d+/gm)].map((m) =>
        m[1]
      );
      assert.ok(rows.length >= 3, picker.text);
      await tmux("send-keys", "-t", session, "Up", "Up", "Up", "Up", "Up", "Up");
      await paneUntil(session, "the picker at its top", (t) =>
        new RegExp(`^> +${rows[0]} {2}session`, "m").test(t));
      await tmux("send-keys", "-t", session, "Down", "Down");
      await paneUntil(session, "the picker's third row", (t) =>
        new RegExp(`^> +${rows[2]} {2}session`, "m").test(t));
      await tmux("send-keys", "-t", session, "Escape");
      await paneUntil(session, "the picker closed", (t) =>
        !t.includes("Pick the reference"));
      const bests = await sendUntil(
        session,
        ["6"],
        "the Bests view",
        (t) =>
          /^Bests \(1 circuit, 1 best\)/m.test(t),
      );
      assert.match(bests.text, new RegExp(`^> ${NAME}\\s.*fastest`, "m"));
      await tmux("send-keys", "-t", session, "q");
      // q ends the dashboard, then the demo closes the server and exits with status 0.
      await paneUntil(session, "the exit", (t) =>
        t.includes("demo exited with status 0"), true);
      await fetch(`${url}/api/sessions`).then(
        () =>
          assert.fail("the HTTP server is still up after q"),
        () => {},
      );
    } finally {
      await tmux("kill-session", "-t", session).catch(() => "");
    }
  },
});
