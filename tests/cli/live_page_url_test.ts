import { strict as assert } from "node:assert";
import qrcode from "qrcode-generator";
import { createProgram } from "../../src/cli/program.ts";
import type { ServerFlags } from "../../src/cli/options.ts";
import { apiUrl, livePageLines, livePageUrl, serverSettings } from "../../src/cli/start.ts";
import { qrLines } from "../../src/cli/qr_text.ts";
import { lanAddresses, pageUrl } from "../../src/cli/lan_address.ts";

const FLAGS: ServerFlags = {
  host: "127.0.0.1",
  port: 8765,
  data: ":memory:",
  recordMaxMb: 256,
  recordKeep: 4,
  forward: [],
};

Deno.test("--lan is a flag of start, serve and demo, off by default", () => {
  const program = createProgram();
  for (const name of ["start", "serve", "demo"]) {
    const cmd = program.commands.find((c) => c.name() === name)!;
    const lan = cmd.options.find((o) => o.long === "--lan");
    assert.ok(lan, name);
    assert.equal(lan.defaultValue, undefined, name);
  }
});

Deno.test("--lan binds every interface; without it loopback; with --host it is refused", () => {
  assert.equal(serverSettings(FLAGS).host, "127.0.0.1");
  assert.equal(serverSettings({ ...FLAGS, lan: true }).host, "0.0.0.0");
  assert.throws(
    () => serverSettings({ ...FLAGS, lan: true, host: "10.0.0.5" }),
    /--lan binds 0\.0\.0\.0; it cannot be given with --host 10\.0\.0\.5/,
  );
});

Deno.test("the page's URL: the bound address, the first LAN address when bound to all", () => {
  const lan = ["192.168.1.23", "10.0.0.2"];
  assert.equal(livePageUrl(FLAGS, 8765, lan), "http://127.0.0.1:8765/");
  assert.equal(livePageUrl({ ...FLAGS, host: "localhost" }, 8765, lan), "http://127.0.0.1:8765/");
  assert.equal(livePageUrl({ ...FLAGS, host: "10.0.0.2" }, 8765, lan), "http://10.0.0.2:8765/");
  assert.equal(livePageUrl({ ...FLAGS, lan: true }, 8765, lan), "http://192.168.1.23:8765/");
  assert.equal(livePageUrl({ ...FLAGS, host: "0.0.0.0" }, 8765, lan), "http://192.168.1.23:8765/");
  assert.equal(livePageUrl({ ...FLAGS, lan: true }, 8765, []), "http://127.0.0.1:8765/");
  assert.equal(pageUrl("fe80::1", 80), "http://[fe80::1]:80/");
  assert.deepEqual(livePageLines(FLAGS, 9000, lan), ["live page: http://127.0.0.1:9000/"]);
  assert.deepEqual(livePageLines({ ...FLAGS, lan: true }, 9000, []), [
    "live page: http://127.0.0.1:9000/",
  ]);
  const shown = livePageLines({ ...FLAGS, lan: true }, 9000, lan);
  assert.equal(
    shown[0],
    "live page on the network: http://192.168.1.23:9000/ (scan with a phone on the same Wi-Fi)",
  );
  assert.deepEqual(shown.slice(1), qrLines("http://192.168.1.23:9000/"));
});

Deno.test("the API's printed address: the LAN address when bound to all, never 0.0.0.0", () => {
  const lan = ["192.168.1.23", "10.0.0.2"];
  assert.equal(apiUrl(FLAGS, 8765, lan), "http://127.0.0.1:8765");
  assert.equal(apiUrl({ ...FLAGS, lan: true }, 8765, lan), "http://192.168.1.23:8765");
  assert.equal(apiUrl({ ...FLAGS, host: "0.0.0.0" }, 8765, lan), "http://192.168.1.23:8765");
  assert.equal(apiUrl({ ...FLAGS, lan: true }, 8765, []), "http://127.0.0.1:8765");
  assert.equal(apiUrl({ ...FLAGS, host: "10.0.0.2" }, 9000, lan), "http://10.0.0.2:9000");
});

Deno.test("LAN addresses: IPv4 only, never loopback or link-local, each once", () => {
  assert.deepEqual(
    lanAddresses([
      { family: "IPv4", address: "127.0.0.1" },
      { family: "IPv6", address: "fe80::1" },
      { family: "IPv4", address: "169.254.3.4" },
      { family: "IPv4", address: "192.168.1.23" },
      { family: "IPv4", address: "10.1.2.3" },
      { family: "IPv4", address: "192.168.1.23" },
    ]),
    ["192.168.1.23", "10.1.2.3"],
  );
});

Deno.test("the QR code's half blocks are exactly qrcode-generator's modules, in a quiet zone", () => {
  const url = "http://192.168.1.23:8765/";
  const lines = qrLines(url);
  const qr = qrcode(0, "L");
  qr.addData(url);
  qr.make();
  const n = qr.getModuleCount();
  assert.equal(n, 25); // version 2 holds this URL at level L
  assert.equal(lines.length, Math.ceil((n + 4) / 2));
  for (const line of lines) assert.equal([...line].length, n + 4);
  // Read the modules back: a blank half is dark.
  const dark = (r: number, c: number) => {
    const ch = [...lines[Math.floor((r + 2) / 2)]][c + 2];
    const top = (r + 2) % 2 === 0;
    return top ? ch === " " || ch === "▄" : ch === " " || ch === "▀";
  };
  for (let r = -2; r < n + 2; r++) {
    for (let c = -2; c < n + 2; c++) {
      const want: boolean = r >= 0 && c >= 0 && r < n && c < n && qr.isDark(r, c);
      assert.equal(dark(r, c), want, `module ${r},${c}`);
    }
  }
});
