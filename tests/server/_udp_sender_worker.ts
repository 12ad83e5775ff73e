/**
 * A console stand-in on its own thread, for tests that block the main
 * thread: sends encrypted packets with the given ids to a loopback port at a
 * fixed rate, posting "started" before the first and "done" after the last.
 *
 * @module
 */
import { cipherPacket } from "./_udp_packets.ts";

/** What to send. */
export interface SendJob {
  port: number;
  ids: number[];
  hz: number;
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<SendJob>) => void) | null;
  postMessage(m: string): void;
  close(): void;
};

scope.onmessage = async (e) => {
  const { port, ids, hz } = e.data;
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port };
  scope.postMessage("started");
  const start = performance.now();
  for (let i = 0; i < ids.length; i++) {
    const wait = start + (i * 1000) / hz - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    await sock.send(cipherPacket(ids[i]), to);
  }
  sock.close();
  scope.postMessage("done");
  scope.close();
};
