/**
 * The logger's hub settings (`--hub URL --hub-token TOKEN`, or
 * SIM_DATALOGGER_HUB / SIM_DATALOGGER_HUB_TOKEN), checked where they come in
 * so a typo is told at start with the field and the rule, not found later as
 * a push that never arrives.
 *
 * @module
 */

/** Where this logger's hub is and how it signs in. */
export interface HubSettings {
  /** The hub's base URL, http or https, without a trailing slash. */
  url: string;
  /** The driver's bearer token. */
  token: string;
  /** `--share-live`: the live frames go to the hub and its messages come back (issue #40). */
  shareLive?: boolean;
}

/**
 * The settings of `url` and `token` (either may be absent), or null when
 * neither is given (no hub). Throws an Error naming the flag and the rule:
 * a URL that is not an absolute http(s) URL, one with credentials, a query
 * or a fragment; a token missing, blank, or with characters a header cannot
 * carry; a token without a URL.
 */
export function hubSettings(
  url: string | undefined,
  token: string | undefined,
): HubSettings | null {
  const hasUrl = url !== undefined && url !== "";
  const hasToken = token !== undefined && token !== "";
  if (!hasUrl && !hasToken) return null;
  if (!hasUrl) {
    throw new Error("--hub-token was given without --hub: pass the hub's URL with --hub URL");
  }
  const base = hubUrl(url);
  if (!hasToken) {
    throw new Error(
      "--hub needs --hub-token TOKEN (or SIM_DATALOGGER_HUB_TOKEN): the driver token the hub's admin gave you",
    );
  }
  if (!/^[\x21-\x7e]{1,512}$/.test(token)) {
    throw new Error(
      "--hub-token must be 1..512 printable ASCII characters without spaces (as the hub printed it)",
    );
  }
  return { url: base, token };
}

/** `value` as a hub base URL; an Error saying which rule it breaks. */
function hubUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`--hub must be an absolute URL such as http://hub.local:8780, not "${value}"`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new Error(`--hub must be an http or https URL, not ${u.protocol.replace(/:$/, "")}`);
  }
  if (u.username !== "" || u.password !== "") {
    throw new Error("--hub must not carry a user or password: the token goes in --hub-token");
  }
  if (u.search !== "" || u.hash !== "") {
    throw new Error("--hub must not have a query or a fragment: give the hub's base URL");
  }
  return u.href.replace(/\/+$/, "");
}
