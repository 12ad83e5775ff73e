// @ts-check
/**
 * The hub token of the engineer's pages: `?token=` of the page's address
 * (kept in this browser's storage and removed from the address bar, so it
 * is not shared by a copied link), else the one kept, else asked once.
 *
 * @module
 */

const KEY = "sim-datalogger-hub-token";

/** The token, or "" when none was given. */
export function hubToken() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  if (given) {
    localStorage.setItem(KEY, given);
    url.searchParams.delete("token");
    history.replaceState(null, "", url);
    return given;
  }
  const kept = localStorage.getItem(KEY);
  if (kept) return kept;
  const asked = prompt("hub token (your driver token or the admin's)") ?? "";
  if (asked) localStorage.setItem(KEY, asked);
  return asked;
}

/**
 * `path` of the hub asked with the token; the JSON answer, or an error
 * naming the status and the problem's detail.
 * @param {string} path
 * @param {RequestInit} [init]
 */
export async function hubFetch(path, init = {}) {
  const headers = { ...(init.headers ?? {}), authorization: `Bearer ${hubToken()}` };
  const res = await fetch(path, { ...init, headers });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${res.status}: ${body.detail ?? res.statusText}`);
  return body;
}
