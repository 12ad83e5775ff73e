/**
 * A real HTTP server on an ephemeral loopback port over a fresh in-memory
 * application, for the route tests.
 *
 * @module
 */
import { type App, type AppOptions, createApp } from "../../src/app/create_app.ts";
import { consoleLog } from "../../src/server/console_log.ts";
import { type HttpOptions, startHttp } from "../../src/server/http.ts";

/** Options of {@linkcode withServer}. */
export interface TestServerOptions {
  /** The application's fixed clock; the real clock when absent. */
  now?: Date;
  /** HTTP options such as `cors` or `token`. */
  http?: HttpOptions;
  /** Runs after the server closed and before the store closes. */
  afterClose?: (app: App) => Promise<void>;
  /** The team hub the application pushes to; none when absent. */
  hub?: AppOptions["hub"];
}

/** Runs `fn` with the server's base URL and its application, then closes both. */
export async function withServer(
  fn: (url: string, app: App) => Promise<void>,
  opts: TestServerOptions = {},
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const now = opts.now;
  const app = await createApp({
    kv,
    now: now ? () => now : undefined,
    log: consoleLog,
    hub: opts.hub,
  });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0, ...opts.http });
  try {
    await fn(server.url, app);
  } finally {
    await server.close();
    await app.hub?.close();
    await opts.afterClose?.(app);
    kv.close();
  }
}
