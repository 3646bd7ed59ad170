// The page's one way to reach the server: the documented JSON API, with the bearer token in
// the Authorization header and, on mutations, the CSRF proof (the value of the userlore_csrf
// cookie repeated in the X-Userlore-CSRF header; see userlore/server/web_page.py).

const TOKEN_KEY = "userlore.token";
const CSRF_COOKIE = "userlore_csrf";
const SIGNIN_COOKIE = "userlore_signin";
const CSRF_HEADER = "X-Userlore-CSRF";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  sessionStorage.setItem(TOKEN_KEY, value.trim());
}

export function clearToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/**
 * Accept a sign-in link once. The server answers ``/?token=...`` with a redirect to the page
 * without the token, which it hands over in the one-shot ``userlore_signin`` cookie: move it into
 * this tab's sessionStorage and delete the cookie. A ``?token=`` still in the URL (the page
 * served some other way) is taken the same way and dropped from the address bar.
 */
export function takeTokenFromUrl() {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== SIGNIN_COOKIE) continue;
    document.cookie = `${SIGNIN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
    let given = "";
    try {
      given = decodeURIComponent(rest.join("="));
    } catch {
      given = "";
    }
    if (given.trim()) setToken(given);
  }
  const url = new URL(window.location.href);
  const given = url.searchParams.get("token");
  if (given === null) return;
  url.searchParams.delete("token");
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  if (given.trim()) setToken(given);
}

function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === CSRF_COOKIE) return rest.join("=");
  }
  return "";
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const bearer = token();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (method !== "GET") headers[CSRF_HEADER] = csrfToken();
  const init = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    throw new ApiError(response.status, error.code || "http_error", error.message || response.statusText);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body);
export const patch = (path, body) => api("PATCH", path, body);
export const del = (path) => api("DELETE", path);

/** ``/api/...`` path with each id segment escaped. */
export function path(strings, ...values) {
  return strings.reduce((out, part, i) => out + part + (i < values.length ? encodeURIComponent(values[i]) : ""), "");
}
