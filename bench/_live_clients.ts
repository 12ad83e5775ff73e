/**
 * The clients of bench/live_stream_bench.ts, in a process of their own so
 * their reading is not counted in the server's CPU time: `N` readers of
 * `URL` (GET /api/live), each counting its frames and checking their packet
 * ids rise. Prints "ready" once every stream is open; when stdin closes,
 * prints one JSON line of the counts and exits.
 *
 * Usage: deno run -A bench/_live_clients.ts URL N
 *
 * @module
 */
const [url, n] = [Deno.args[0], Number(Deno.args[1])];
const counts = new Array<number>(n).fill(0);
let outOfOrder = 0;

async function read(i: number, res: Response): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  let last = -Infinity;
  try {
    for await (const chunk of res.body!) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.startsWith("event: frame\n")) continue;
        const at = block.indexOf('"packet_id":') + 12;
        const pid = Number.parseInt(block.slice(at, at + 16), 10);
        if (!(pid > last)) outOfOrder++;
        last = pid;
        counts[i]++;
      }
    }
  } catch {
    // Cut by the server: the counts say so.
  }
}

const responses = await Promise.all(Array.from({ length: n }, () => fetch(url)));
const reading = responses.map((res, i) => read(i, res));
console.log("ready");
for await (const _ of Deno.stdin.readable) {
  // Waits for stdin to close.
}
console.log(JSON.stringify({ counts, outOfOrder }));
Deno.exit(0);
void reading;
