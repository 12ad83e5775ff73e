import { startTestConsole } from "./_fake_console.ts";
import { run } from "./_running.ts";
import { descendants } from "./_process_tree.ts";
Deno.test("x", async () => {
  const codes: string[] = [];
  for (let i = 0; i < 12; i++) {
    const fake = await startTestConsole(1);
    const dir = await Deno.makeTempDir();
    const r = run(Deno.execPath(), ["task", "start", "--console", "127.0.0.1", "--console-port", String(fake.port), "--port", "0", "--udp-port", "0"], { cwd: "/tmp/clonetest/repo", env: { XDG_DATA_HOME: dir, NO_COLOR: "1" } });
    const [, url] = await r.waitFor(/API on (http:\/\/127\.0\.0\.1:\d+)/);
    await r.waitFor(/^lap 1 /);
    await (await fetch(`${url}/api/sessions`)).json();
    descendants(r.child.pid);
    const end = await r.stop("SIGINT");
    codes.push(`${end.code}`);
    await fake.stop();
  }
  console.log(codes.join(" "));
});
