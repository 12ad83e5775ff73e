/**
 * GET /: a small page pointing at the API's documents, until the live page
 * takes this address.
 *
 * @module
 */
import { Hono } from "hono";
import { APP_VERSION } from "../../app/version.ts";

/** The page: plain HTML, no script, no style, so any later page replaces it whole. */
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>sim-datalogger</title></head>
<body>
<h1>sim-datalogger ${APP_VERSION}</h1>
<p>This is the logger's HTTP API. There is no page here yet.</p>
<ul>
<li><a href="/api/openapi.json">/api/openapi.json</a>: the OpenAPI 3.1 document of every route</li>
<li><a href="/api/status">/api/status</a>: telemetry, the live session and the store</li>
<li><a href="/api/sessions">/api/sessions</a>: the recorded sessions</li>
</ul>
<p>The readable guide is docs/api.md in the project, with docs/tui.md for the dashboard.</p>
</body>
</html>
`;

/** GET /: the pointer page (text/html). */
export function homeRoutes(): Hono {
  const r = new Hono();
  r.get("/", (c) => c.html(PAGE));
  return r;
}
