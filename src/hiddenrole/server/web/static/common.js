// Shared helpers of the three pages: DOM building, the lobby API, seat tokens kept in the browser.

/** An element: el("li", {class: "x", "data-seat": "p1"}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** JSON over HTTP; a refusal becomes an Error carrying the server's code and message. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.message) || `${r.status} ${r.statusText}`);
    err.code = data && data.code;
    err.status = r.status;
    throw err;
  }
  return data;
}

const SEAT_KEY = (table) => `hiddenrole:seat:${table}`;
const HOST_KEY = (table) => `hiddenrole:host:${table}`;

/** The seat (and its token) this browser holds at a table, kept so that a reload rejoins it. */
export function savedSeat(table) {
  try { return JSON.parse(localStorage.getItem(SEAT_KEY(table)) || "null"); } catch { return null; }
}
export function saveSeat(table, seat, token) {
  localStorage.setItem(SEAT_KEY(table), JSON.stringify({ seat, token }));
}
export function forgetSeat(table) { localStorage.removeItem(SEAT_KEY(table)); }
export function saveHost(table, token) { localStorage.setItem(HOST_KEY(table), token); }
export function hostToken(table) { return localStorage.getItem(HOST_KEY(table)); }

/** "1:05" for 65 seconds; "" without a deadline. */
export function countdown(deadlineMs, nowMs = Date.now()) {
  if (deadlineMs === null || deadlineMs === undefined) return "";
  const s = Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** Show a message in the page's status line (announced to screen readers). */
export function announce(text, kind = "info") {
  const box = document.getElementById("status");
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
}
