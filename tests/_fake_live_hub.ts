/**
 * A fake of the team hub's live socket (issue #40) for the logger side's
 * tests: a real Deno.serve on an ephemeral port answering
 * `GET /api/live/socket` (bearer token) as the contract says: it records
 * the hello and every frame, sends the driver's messages newer than the
 * hello's `last_message_id` and every message posted after, and can go
 * down (every socket cut) and come back on the same port. A stalled hub
 * (one that never reads) is {@linkcode startStalledHub}.
 *
 * @module
 */

/** A message the fake hub holds for the driver. */
export interface FakeMessage {
  id: number;
  text: string;
  from: string;
  sent_at: string;
}

/** A running fake live hub. */
export interface FakeLiveHub {
  url: string;
  token: string;
  /** Every hello, in arrival order. */
  hellos: { last_message_id: number | null }[];
  /** Every frame sent, with the hub's arrival time (performance.now, ms). */
  frames: { frame: Record<string, unknown>; at: number }[];
  /** Sockets refused for their token. */
  refused: number;
  /** Posts `text` to the driver: sent now on every open socket, and on later hellos. */
  post(text: string, from?: string): FakeMessage;
  /** Resolves once `ok()` holds (checked at every hello, frame and close). */
  until(ok: () => boolean): Promise<void>;
  /** Open sockets now. */
  open(): number;
  /** Cuts every socket and stops listening until {@linkcode up}. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): void;
  close(): Promise<void>;
}

/** A fake live hub accepting `token`, on an ephemeral port. */
export function startFakeLiveHub(token = "driver-token"): FakeLiveHub {
  let server: Deno.HttpServer | null = null;
  let port = 0;
  const messages: FakeMessage[] = [];
  const sockets = new Set<WebSocket>();
  let waiters: { ok: () => boolean; resolve: () => void }[] = [];
  const poke = () => {
    waiters = waiters.filter((w) => {
      if (!w.ok()) return true;
      w.resolve();
      return false;
    });
  };
  const send = (ws: WebSocket, m: FakeMessage) =>
    ws.send(JSON.stringify({ type: "message", ...m }));

  const hub: FakeLiveHub = {
    url: "",
    token,
    hellos: [],
    frames: [],
    refused: 0,
    post(text, from = "alice") {
      const m = { id: messages.length + 1, text, from, sent_at: new Date().toISOString() };
      messages.push(m);
      for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) send(ws, m);
      return m;
    },
    until(ok) {
      const { promise, resolve } = Promise.withResolvers<void>();
      waiters.push({ ok, resolve });
      poke();
      return promise;
    },
    open: () => sockets.size,
    async down() {
      const closing = [...sockets].map((ws) =>
        new Promise<void>((r) => {
          ws.addEventListener("close", () => r());
          ws.close();
        })
      );
      await Promise.all(closing);
      await server?.shutdown();
      server = null;
    },
    up() {
      server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handle);
      port = (server.addr as Deno.NetAddr).port;
      hub.url = `http://127.0.0.1:${port}`;
    },
    close: () => hub.down(),
  };

  function handle(req: Request): Response {
    if (new URL(req.url).pathname !== "/api/live/socket") {
      return new Response(null, { status: 404 });
    }
    if (req.headers.get("authorization") !== `Bearer ${hub.token}`) {
      hub.refused++;
      return Response.json({ title: "Unauthorized" }, { status: 401 });
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    sockets.add(socket);
    socket.onmessage = (e) => {
      const msg = JSON.parse(e.data as string);
      if (msg.type === "hello") {
        hub.hellos.push({ last_message_id: msg.last_message_id });
        for (const m of messages) if (m.id > (msg.last_message_id ?? 0)) send(socket, m);
      } else if (msg.type === "frame") {
        hub.frames.push({ frame: msg.frame, at: performance.now() });
      }
      poke();
    };
    socket.onclose = () => {
      sockets.delete(socket);
      poke();
    };
    return response;
  }

  hub.up();
  return hub;
}

/** A hub that completes the WebSocket handshake and then never reads a byte. */
export interface StalledHub {
  url: string;
  /** Resolves once a logger's socket is accepted. */
  accepted: Promise<void>;
  close(): void;
}

/** Listens on an ephemeral port; every connection gets a 101 and is then left unread. */
export function startStalledHub(): StalledHub {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const { promise: accepted, resolve } = Promise.withResolvers<void>();
  (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      const head = await readHead(conn);
      const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? "";
      const digest = await crypto.subtle.digest(
        "SHA-1",
        new TextEncoder().encode(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
      );
      await conn.write(new TextEncoder().encode(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          `Sec-WebSocket-Accept: ${btoa(String.fromCharCode(...new Uint8Array(digest)))}\r\n\r\n`,
      ));
      resolve();
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    accepted,
    close() {
      listener.close();
      for (const c of conns) c.close();
    },
  };
}

async function readHead(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(4096);
  let head = "";
  while (!head.includes("\r\n\r\n")) {
    const n = await conn.read(buf);
    if (n === null) break;
    head += new TextDecoder().decode(buf.subarray(0, n));
  }
  return head;
}
