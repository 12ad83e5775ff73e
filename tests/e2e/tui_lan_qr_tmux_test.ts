/**
 * `demo --lan` in a real terminal: the QR code it prints is covered by the
 * dashboard, so the dashboard draws it again on start, `p` hides it and
 * shows it again. Checks the wiring from the command to the dashboard
 * (src/cli/dashboard_options.ts); the overlay itself is tested with
 * ink-testing-library (tests/tui/qr_and_notices_test.tsx). Skipped where
 * tmux is not installed or the machine has no LAN address (no code then).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";
import { lanAddresses } from "../../src/cli/lan_address.ts";

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
const LAN = lanAddresses().length > 0;
if (!TMUX || !LAN) {
  console.log("tui_lan_qr_tmux_test: needs tmux and a LAN address; skipped");
}

async function tmux(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** How long any one wait may last: only a hang runs into it. Not a latency bound. */
const HANG_MS = 180_000;

/** Captures the pane until `ok` holds (polling it, as a driver would look); returns it. */
async function paneUntil(target: string, what: string, ok: (t: string) => boolean) {
  const deadline = performance.now() + HANG_MS;
  for (;;) {
    const text = await tmux("capture-pane", "-p", "-t", target);
    if (/demo exited with status/.test(text)) throw new Error(`the demo exited; pane:\n${text}`);
    if (ok(text)) return text;
    if (performance.now() > deadline) throw new Error(`never saw ${what}; pane:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test({
  name: "tmux: demo --lan shows the QR code on the dashboard until p hides it; p shows it again",
  ignore: !TMUX || !LAN,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const session = `sdl-qr-${Deno.pid}-${Date.now()}`;
    const command = [Deno.execPath(), "run", "-A", "main.ts", "demo", "--lan", "--port", "0"]
      .map((a) => `'${a}'`).join(" ") + '; echo "demo exited with status $?"; sleep 600';
    await tmux("new-session", "-d", "-s", session, "-x", "90", "-y", "30", "-c", ROOT, command);
    try {
      // The dashboard's header and, over the view, the code it was handed.
      const up = await paneUntil(
        session,
        "the QR code on the dashboard",
        (t) => t.includes("[1 Live]") && /^Live page: http:\/\/[\d.]+:\d+\//m.test(t),
      );
      assert.match(up, /p QR {2}\? help/);
      assert.ok(up.includes("p or Esc hides it (p shows it again)"), up);
      assert.ok(!up.includes("No telemetry yet.") && !/^Speed /m.test(up), up);
      // The root listens from the first frame's effects on, long before a capture shows it.
      await tmux("send-keys", "-t", session, "p");
      const hidden = await paneUntil(session, "the code hidden", (t) => !t.includes("Live page:"));
      assert.ok(hidden.includes("[1 Live]"), hidden);
      await tmux("send-keys", "-t", session, "p");
      await paneUntil(session, "the code again", (t) => t.includes("Live page:"));
    } finally {
      await tmux("kill-session", "-t", session).catch(() => "");
    }
  },
});
