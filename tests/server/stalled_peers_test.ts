/**
 * Stalled peers: the /proc parsing reads ports, addresses (IPv4, IPv6 and
 * IPv4-mapped) and the timer column; only timer 04 (zero-window probe) on
 * the peer's own connection counts, and only once it has run without a
 * break for the confirm time. Then over a real server: a raw client that
 * asks for GET /api/live?hz=60 and never reads is dropped and counted, while
 * a reading client beside it gets every frame, in order.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { startHttp } from "../../src/server/http.ts";
import {
  judgePeer,
  type Peer,
  plainAddress,
  probing,
  STALL_CONFIRM_MS,
} from "../../src/server/stalled_peers.ts";
import { parseTcpTable, readTcpRows } from "../../src/capture/proc_sockets.ts";
import { SseReader } from "./_sse.ts";

const TCP_HEADER =
  "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";
const TCP6_HEADER =
  "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";

// Server 127.0.0.1:8765 (0x223D) to client 127.0.0.1:40000 (0x9C40).
const V4 = [
  TCP_HEADER,
  "   0: 0100007F:223D 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0 100 0 0 10 0",
  "   1: 0100007F:223D 0100007F:9C40 01 00020000:00000000 04:000000C8 00000000  1000        0 222 4 0 20 4 30 10 -1",
  "   2: 0100007F:223D 0100007F:9C41 01 00000000:00000000 01:00000014 00000000  1000        0 333 4 0 20 4 30 10 -1",
  "   3: 0100007F:223D 0100007F:9C42 01 00000000:00000000 02:00000014 00000000  1000        0 444 4 0 20 4 30 10 -1",
  "   4: 0100007F:223D 0100007F:9C43 06 00000000:00000000 04:00000014 00000000     0        0 0 3 0",
].join("\n");
// Server [::1]:8765 to client [::1]:40000, and to [::ffff:192.168.1.20]:40001 (0x9C41).
const V6 = [
  TCP6_HEADER,
  "   0: 00000000000000000000000001000000:223D 00000000000000000000000001000000:9C40 01 00020000:00000000 04:000000C8 00000000  1000        0 555 4 0 20 4 30 10 -1",
  "   1: 0000000000000000FFFF00000100007F:223D 0000000000000000FFFF00001401A8C0:9C41 01 00000000:00000000 00:00000000 00000000  1000        0 666 4 0 20 4 30 10 -1",
].join("\n");

Deno.test("parseTcpTable reads ports in hex, addresses, state, timer and inode", () => {
  const v4 = parseTcpTable(V4);
  // The row without an inode (TIME_WAIT, no process holds it) is left out.
  assert.deepEqual(v4.map((r) => r.inode), ["111", "222", "333", "444"]);
  assert.deepEqual(v4[1], {
    localPort: 8765,
    remoteAddress: "127.0.0.1",
    remotePort: 40000,
    state: "01",
    timer: "04",
    inode: "222",
  });
  assert.deepEqual(v4.map((r) => r.timer), ["00", "04", "01", "02"]);
  const v6 = parseTcpTable(V6);
  assert.deepEqual(v6.map((r) => [r.localPort, r.remoteAddress, r.remotePort, r.timer]), [
    [8765, "0:0:0:0:0:0:0:1", 40000, "04"],
    [8765, "192.168.1.20", 40001, "00"],
  ]);
});

Deno.test("plainAddress puts Deno's hostnames in the form /proc rows are read to", () => {
  assert.equal(plainAddress("127.0.0.1"), "127.0.0.1");
  assert.equal(plainAddress("::1"), "0:0:0:0:0:0:0:1");
  assert.equal(plainAddress("::ffff:192.168.1.20"), "192.168.1.20");
  assert.equal(plainAddress("FE80::0A:1"), "fe80:0:0:0:0:0:a:1");
  assert.equal(plainAddress("2001:db8:0:0:0:0:0:2"), "2001:db8:0:0:0:0:0:2");
});

Deno.test("only the zero-window probe timer on the peer's own connection counts", () => {
  const rows = [...parseTcpTable(V4), ...parseTcpTable(V6)];
  const peer = (hostname: string, port: number, localPort = 8765): Peer => ({
    localPort,
    hostname,
    port,
  });
  assert.equal(probing(rows, peer("127.0.0.1", 40000)), true);
  assert.equal(probing(rows, peer("127.0.0.1", 40001)), false, "timer 01: retransmit");
  assert.equal(probing(rows, peer("127.0.0.1", 40002)), false, "timer 02: keepalive");
  assert.equal(probing(rows, peer("127.0.0.1", 40003)), false, "no inode");
  assert.equal(probing(rows, peer("::1", 40000)), true);
  assert.equal(probing(rows, peer("::ffff:192.168.1.20", 40001)), false, "timer 00: none");
  assert.equal(probing(rows, peer("127.0.0.2", 40000)), false, "another address");
  assert.equal(probing(rows, peer("127.0.0.1", 40000, 8766)), false, "another server port");
});

Deno.test("judgePeer calls a peer stalled once probed without a break for the confirm time", () => {
  const rows = parseTcpTable(V4);
  const on: Peer = { localPort: 8765, hostname: "127.0.0.1", port: 40000 };
  const off: Peer = { localPort: 8765, hostname: "127.0.0.1", port: 40001 };
  let look = judgePeer(rows, on, null, 1000);
  assert.deepEqual(look, { since: 1000, stalled: false });
  look = judgePeer(rows, on, look.since, 1000 + STALL_CONFIRM_MS - 1);
  assert.deepEqual(look, { since: 1000, stalled: false });
  // A break starts it over.
  assert.deepEqual(judgePeer(rows, off, look.since, 1500), { since: null, stalled: false });
  assert.deepEqual(judgePeer(rows, on, null, 1500), { since: 1500, stalled: false });
  assert.deepEqual(judgePeer(rows, on, 1000, 1000 + STALL_CONFIRM_MS), {
    since: 1000,
    stalled: true,
  });
});

Deno.test({
  name: "a live client that stops reading is dropped and counted; a reading one gets every frame",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const kv = await Deno.openKv(":memory:");
    const app = await createApp({ kv });
    const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    let reader: SseReader | null = null;
    try {
      reader = new SseReader(await fetch(`${server.url}/api/live?hz=60`));
      await conn.write(
        new TextEncoder().encode("GET /api/live?hz=60 HTTP/1.1\r\nhost: test\r\n\r\n"),
      );
      while (server.live.stats().clients < 2) await new Promise((r) => setTimeout(r, 5));
      const stalled: Peer = {
        localPort: server.port,
        hostname: "127.0.0.1",
        port: (conn.localAddr as Deno.NetAddr).port,
      };
      const sent: number[] = [];
      const frames = syntheticFrames({ seed: 7, laps: 3 });
      // Frames flow until the kernel starts probing the stalled client's shut window
      // (its buffers are full), then stop: from there only the probe can drop it, as the
      // queue it has is not growing.
      let probed = false;
      for (const f of frames) {
        app.live.ingest(f);
        sent.push(f.packetId);
        await new Promise((r) => setTimeout(r, 10));
        if (!probed) probed = probing(readTcpRows() ?? [], stalled);
        if (probed || server.live.stats().dropped > 0) break;
      }
      assert.ok(probed, "the stalled client's connection was never zero-window probed");
      assert.equal(server.live.stats().dropped, 0, "dropped by its queue, not by the probe");
      const deadline = Date.now() + 60_000; // a hang guard only
      while (server.live.stats().dropped === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(server.live.stats(), { clients: 1, dropped: 1 });
      const last = sent.at(-1)!;
      await reader.waitFor((m) => m.event === "frame" && pid(m.data) === last);
      const got = reader.messages.filter((m) => m.event === "frame").map((m) => pid(m.data));
      assert.deepEqual(got, sent);
    } finally {
      await reader?.cancel();
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      await server.close();
      await app.shutdown();
      kv.close();
    }
  },
});

function pid(data: string): number {
  return (JSON.parse(data) as LiveFrame).packet_id;
}
