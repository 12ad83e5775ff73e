/**
 * A small fake of the team hub for the logger side's tests: a real
 * Deno.serve on an ephemeral port with the contract's POST /api/laps
 * (deduplicated by a hash of the lap's content, 201 then 200), POST
 * /api/bundles/{slug}/votes and GET /api/bundles/{slug}. It can be taken
 * down and brought back on the same port, refuse with any status, store a
 * lap and then cut the answer, or hold answers until released.
 *
 * @module
 */

/** How the fake answers POSTs. */
export type FakeHubMode =
  | { kind: "up" }
  | { kind: "refuse"; status: number; detail: string }
  | { kind: "cut" }
  | { kind: "hold" };

/** One lap the fake holds. */
export interface FakeHubLap {
  id: number;
  hash: string;
  file: { lap: Record<string, unknown> };
}

/** A running fake hub. */
export interface FakeHub {
  url: string;
  token: string;
  mode: FakeHubMode;
  /** Laps stored, in arrival order, each once. */
  laps: FakeHubLap[];
  /** Every POST /api/laps that reached the handler (repeats, refusals and cut answers included). */
  lapPosts: number;
  /** The bundle files POSTed to /api/bundles/{slug}/votes, by slug. */
  votes: Map<string, unknown[]>;
  /** What GET /api/bundles/{slug} answers, by slug (404 when absent). */
  bundles: Map<string, unknown>;
  /** Resolves when the next POST reaches the handler. */
  nextPost(): Promise<void>;
  /** Answers every held request (mode `hold`). */
  release(): void;
  /** Stops listening (connections are refused) until {@linkcode up}. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): void;
  close(): Promise<void>;
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fake hub accepting `token`, on an ephemeral port. */
export function startFakeHub(token = "driver-token"): FakeHub {
  let server: Deno.HttpServer | null = null;
  let port = 0;
  let held: (() => void)[] = [];
  let postWaiters: (() => void)[] = [];
  const hub: FakeHub = {
    url: "",
    token,
    mode: { kind: "up" },
    laps: [],
    lapPosts: 0,
    votes: new Map(),
    bundles: new Map(),
    nextPost: () => new Promise((r) => postWaiters.push(r)),
    release() {
      const h = held;
      held = [];
      for (const f of h) f();
    },
    async down() {
      await server?.shutdown();
      server = null;
    },
    up() {
      server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handle);
      port = (server.addr as Deno.NetAddr).port;
      hub.url = `http://127.0.0.1:${port}`;
    },
    async close() {
      hub.release();
      await hub.down();
    },
  };

  const json = (status: number, body: unknown) => Response.json(body, { status });

  async function handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    if (req.headers.get("authorization") !== `Bearer ${hub.token}`) {
      return json(401, { title: "Unauthorized", detail: "unknown token" });
    }
    if (req.method === "GET") {
      const slug = /^\/api\/bundles\/([^/]+)$/.exec(path)?.[1];
      const b = slug ? hub.bundles.get(slug) : undefined;
      return b === undefined
        ? json(404, { title: "Not found", detail: "no bundle" })
        : json(200, b);
    }
    const body = await req.text();
    const waiters = postWaiters;
    postWaiters = [];
    for (const w of waiters) w();
    if (hub.mode.kind === "refuse") {
      if (path === "/api/laps") hub.lapPosts++;
      return json(hub.mode.status, { title: "Refused", detail: hub.mode.detail });
    }
    if (hub.mode.kind === "hold") await new Promise<void>((r) => held.push(r));
    const votes = /^\/api\/bundles\/([^/]+)\/votes$/.exec(path)?.[1];
    if (votes) {
      hub.votes.set(votes, [...hub.votes.get(votes) ?? [], JSON.parse(body)]);
      return json(200, { slug: votes, generation: hub.votes.get(votes)!.length });
    }
    hub.lapPosts++;
    const file = JSON.parse(body) as { lap: Record<string, unknown> };
    const l = file.lap;
    const hash = await sha256(
      JSON.stringify([l.samples, l.time_ms, l.car_id, l.track_name, l.finished_at]),
    );
    let lap = hub.laps.find((x) => x.hash === hash);
    const created = lap === undefined;
    if (!lap) {
      lap = { id: hub.laps.length + 1, hash, file };
      hub.laps.push(lap);
    }
    const answer = { id: lap.id, driver: "alice", created };
    if (hub.mode.kind === "cut") {
      // Stored, then the answer is lost: headers go out, the body breaks off.
      const stream = new ReadableStream({
        start(c) {
          c.error(new Error("connection cut"));
        },
      });
      return new Response(stream, { status: created ? 201 : 200 });
    }
    return json(created ? 201 : 200, answer);
  }

  hub.up();
  return hub;
}
