/**
 * The race engineer's test clients (#40): a fake logger's WebSocket (what
 * it is sent, awaited by content) and an SSE reader of a driver's frames,
 * each waiting for an observable event, never a fixed time.
 *
 * @module
 */

/** A live frame as a logger sends it (the fields the hub reads, and a few an engineer shows). */
export function fakeFrame(packetId: number, lap = 2): Record<string, unknown> {
  return {
    packet_id: packetId,
    at: new Date().toISOString(),
    lap,
    speed_kmh: 200,
    fuel: 50,
    delta: {
      delta_ms: -120,
      predicted_lap_ms: 121_000,
      reference_lap_id: 1,
      reference_lap_ms: 121_120,
    },
  };
}

/** Waits until `ok()` holds, checking every 10 ms; throws naming `what` after `ms`. */
export async function until(ok: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A fake logger's socket: every JSON message it was sent, in order. */
export interface FakeLogger {
  socket: WebSocket;
  received: Record<string, unknown>[];
  send(message: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** Opens a fake logger's socket to `hub` (http://...) with `token` in the header, once open. */
export async function fakeLogger(hub: string, token: string): Promise<FakeLogger> {
  const url = hub.replace(/^http/, "ws") + "/api/live/socket";
  // Deno's WebSocket takes headers; the DOM's type (which a browser test's lib reference brings
  // into the same check) does not know them, so the options are passed past it.
  const options = { headers: { authorization: `Bearer ${token}` } } as unknown as string[];
  const socket = new WebSocket(url, options);
  const received: Record<string, unknown>[] = [];
  socket.onmessage = (e) => received.push(JSON.parse(String(e.data)));
  const closed = new Promise<void>((resolve) => socket.addEventListener("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`socket to ${url} failed`));
  });
  return {
    socket,
    received,
    send: (m) => socket.send(JSON.stringify(m)),
    async close() {
      socket.close();
      await closed;
    },
  };
}

/** An SSE client of a driver's frames: each `frame` event's data, with when it arrived (ms). */
export interface FrameReader {
  frames: { data: Record<string, unknown>; arrived: number }[];
  status: number;
  close(): Promise<void>;
}

/** Reads `url` as Server-Sent Events until closed; with `token`, sent as the header. */
export async function readFrames(url: string, token?: string): Promise<FrameReader> {
  const ac = new AbortController();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = await fetch(url, { headers, signal: ac.signal });
  const frames: FrameReader["frames"] = [];
  if (!res.ok || res.body === null) {
    await res.body?.cancel();
    return { frames, status: res.status, close: () => Promise.resolve() };
  }
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of res.body!) {
        buf += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: frame$/m.test(block) && data !== undefined) {
            frames.push({ data: JSON.parse(data), arrived: Date.now() });
          }
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    frames,
    status: res.status,
    async close() {
      ac.abort();
      await reading;
    },
  };
}

/** A `hub` process of the tests: its URL, and how to end it. */
export interface HubProcess {
  url: string;
  process: Deno.ChildProcess;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: Deno.Signal): Promise<void>;
}

/**
 * Starts `main.ts hub` on `database` (a PostgreSQL URL) with `adminToken`,
 * on `port` (0: a free one), resolved once it prints where it listens.
 */
export async function startHubProcess(
  database: string,
  adminToken: string,
  port = 0,
): Promise<HubProcess> {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      main,
      "hub",
      "--database",
      database,
      "--admin-token",
      adminToken,
      "--port",
      String(port),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let url: string | null = null;
  while (url === null) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`hub exited before listening: ${text}`);
    text += value;
    url = /listening on (http:\/\/\S+)/.exec(text)?.[1] ?? null;
  }
  // Keep draining its output so the pipe never fills.
  (async () => {
    while (!(await lines.read().catch(() => ({ done: true }))).done) { /* drained */ }
  })();
  return {
    url,
    process: child,
    async stop(signal: Deno.Signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      await child.status;
    },
  };
}

/** Adds driver `name` through `hub` as the admin and answers its token. */
export async function addDriver(hub: string, adminToken: string, name: string): Promise<string> {
  const res = await fetch(`${hub}/api/drivers`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`adding ${name}: ${JSON.stringify(body)}`);
  return body.token;
}
