/**
 * The worker side of the hand-over comparison in bench/udp_receive_bench.ts:
 * on each request it hands `count` packets to the main thread either as
 * decoded frames (structured clone) or as decrypted bytes in one transferred
 * ArrayBuffer (decoded on the main thread), as the receive worker could.
 *
 * @module
 */
import { decodeFrame } from "../src/core/gt7/decode.ts";
import { openReplaySource } from "../src/cli/replay_source.ts";

/** One request. */
export interface BatchRequest {
  mode: "clone" | "transfer";
  count: number;
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<BatchRequest>) => void) | null;
  postMessage(m: unknown, transfer?: Transferable[]): void;
};

const source = await openReplaySource("synthetic:7", { laps: 1 });
const plain = [...source.packets()].slice(0, 1024);
const size = plain[0].length;
let next = 0;

scope.onmessage = (e) => {
  const { mode, count } = e.data;
  if (mode === "clone") {
    const frames = [];
    for (let i = 0; i < count; i++) frames.push(decodeFrame(plain[next++ % plain.length]));
    scope.postMessage(frames);
  } else {
    const bytes = new Uint8Array(count * size);
    for (let i = 0; i < count; i++) bytes.set(plain[next++ % plain.length], i * size);
    scope.postMessage({ bytes: bytes.buffer, size }, [bytes.buffer]);
  }
};
scope.postMessage("ready");
