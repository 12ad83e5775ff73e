/**
 * The console of bench/udp_receive_bench.ts, on a thread of its own so that
 * whatever blocks the logger's main thread never slows it: streams the
 * synthetic drive's packets, encrypted as the console would, with packet ids
 * counting up from `firstId`, at `rate` packets a second for `seconds`
 * (bursts every millisecond or so, as a busy sender would), then posts how
 * many it sent and over how long. "stop" ends the stream early.
 *
 * @module
 */
import { encryptPacket } from "../src/core/gt7/cipher.ts";
import { openReplaySource } from "../src/cli/replay_source.ts";
import { locateUdpSocket } from "../src/capture/socket_buffer.ts";

/** What to send. */
export interface SendJob {
  port: number;
  rate: number;
  seconds: number;
  firstId: number;
}

/** What was sent. */
export interface SendResult {
  sent: number;
  seconds: number;
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<SendJob | "stop">) => void) | null;
  postMessage(m: SendResult | "ready"): void;
  close(): void;
};

const source = await openReplaySource("synthetic:7", { laps: 3 });
const plain = [...source.packets()];
const PACKET_ID = 0x70;

let stop = false;

/**
 * A synchronous sendto(2) through FFI where Linux allows: one Deno send op a
 * packet costs this thread about 20 µs here, so the sender, not the logger,
 * would set the ceiling. Null elsewhere (then Deno's send is used).
 */
function fastSend(sock: Deno.DatagramConn, port: number): ((b: Uint8Array) => void) | null {
  const local = sock.addr as Deno.NetAddr;
  const socket = Deno.build.os === "linux" ? locateUdpSocket(local.hostname, local.port) : null;
  if (socket === null) return null;
  const libc = Deno.dlopen("libc.so.6", {
    sendto: { parameters: ["i32", "buffer", "usize", "i32", "buffer", "u32"], result: "isize" },
  });
  const addr = new Uint8Array(16);
  const view = new DataView(addr.buffer);
  view.setUint16(0, 2, true); // AF_INET
  view.setUint16(2, port, false);
  addr.set([127, 0, 0, 1], 4);
  return (bytes) => {
    if (libc.symbols.sendto(socket.fd, bytes, BigInt(bytes.length), 0, addr, 16) < 0) {
      throw new Error("sendto failed");
    }
  };
}

scope.onmessage = async (e) => {
  if (e.data === "stop") {
    stop = true;
    return;
  }
  const { port, rate, seconds, firstId } = e.data;
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port };
  const fast = fastSend(sock, port);
  const total = Math.round(rate * seconds);
  const scratch = new Uint8Array(plain[0].length);
  const view = new DataView(scratch.buffer);
  const out = new Uint8Array(scratch.length);
  const start = performance.now();
  let sent = 0;
  while (sent < total && !stop) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (sent < due) {
      scratch.set(plain[sent % plain.length]);
      view.setInt32(PACKET_ID, firstId + sent, true);
      const packet = encryptPacket(scratch, (sent * 2654435761) >>> 0, out);
      if (fast) fast(packet);
      else await sock.send(packet, to);
      sent++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  sock.close();
  scope.postMessage({ sent, seconds: (performance.now() - start) / 1000 });
};
scope.postMessage("ready");
