/**
 * The dashboard end to end in a real terminal: `demo` runs in a tmux pane,
 * the first lap brings up the name prompt, a name is typed at it, and the
 * name shows in the Sessions view and in GET /api/sessions. Every capture of
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

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Captures the pane until `ok` holds; prints and returns the capture, or throws with it. */
async function paneUntil(
  target: string,
  what: string,
  ok: (text: string) => boolean,
  ms: number,
): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = await tmux("capture-pane", "-p", "-t", target);
    if (ok(text)) {
      console.log(`--- pane: ${what} ---\n${text.trimEnd()}\n--- end of pane ---`);
      return text;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; pane:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test({
  name: "tmux: demo, first lap, a name typed at the prompt shows in Sessions and the API",
  ignore: !TMUX,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const port = freePort();
    const session = `sdl-tui-${Deno.pid}-${port}`;
    const command = [
      Deno.execPath(),
      "run",
      "-A",
      "main.ts",
      "demo",
      "--port",
      String(port),
      "--speed",
      "20",
      "--data",
      ":memory:",
    ].map((a) => `'${a}'`).join(" ") +
      // The shell outlives the demo, so its exit status stays on screen.
      '; echo "demo exited with status $?"; sleep 60';
    await tmux("new-session", "-d", "-s", session, "-x", "90", "-y", "26", "-c", ROOT, command);
    try {
      const prompt = await paneUntil(
        session,
        "the name prompt after the first lap",
        (t) => t.includes("Name this track: session 1, lap 1"),
        90_000,
      );
      assert.ok(prompt.includes("Track name:"), prompt);
      // Key handlers attach right after the prompt is drawn.
      await new Promise((r) => setTimeout(r, 300));
      await tmux("send-keys", "-t", session, "-l", "Demo Ring 7");
      await paneUntil(
        session,
        "the typed name",
        (t) => t.includes("Track name: Demo Ring 7"),
        5000,
      );
      await tmux("send-keys", "-t", session, "Enter");
      await paneUntil(
        session,
        "the notice after saving",
        (t) => t.includes('session 1 named "Demo Ring 7"'),
        10_000,
      );
      // The dashboard's keys attach a moment after the prompt closes; "2" is safe to repeat.
      let list = "";
      for (let attempt = 1; list === ""; attempt++) {
        await new Promise((r) => setTimeout(r, 300));
        await tmux("send-keys", "-t", session, "2");
        list = await paneUntil(
          session,
          "the Sessions view",
          (t) => /^>\s+1 live .*Demo Ring 7/m.test(t),
          attempt < 3 ? 3000 : 10_000,
        ).catch((err) => {
          if (attempt >= 3) throw err;
          return "";
        });
      }
      assert.match(list, /\[2 Sessions\]/);
      const res = await fetch(`http://127.0.0.1:${port}/api/sessions`);
      const all = await res.json() as { id: number; track_name: string; track_source: string }[];
      assert.equal(res.status, 200);
      const first = all.find((s) => s.id === 1);
      assert.deepEqual([first?.track_name, first?.track_source], ["Demo Ring 7", "user"]);
      await tmux("send-keys", "-t", session, "q");
      // q ends the dashboard, then the demo closes the server and exits with status 0.
      await paneUntil(session, "the exit", (t) => t.includes("demo exited with status 0"), 15_000);
      await fetch(`http://127.0.0.1:${port}/api/sessions`).then(
        () => assert.fail("the HTTP server is still up after q"),
        () => {},
      );
    } finally {
      await tmux("kill-session", "-t", session).catch(() => "");
    }
  },
});
