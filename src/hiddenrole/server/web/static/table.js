// The table page: one seat (its token kept in localStorage) or a spectator, over the server's WebSocket.
// The WebSocket carries the seat's pushes and its moves; after every push the page reads the seat's view
// presented in words (/web/api/tables/<id>/seat) and draws it, so a reconnect or a reload loses nothing.
import { api, el, announce, countdown, savedSeat, saveSeat, forgetSeat, hostToken } from "./common.js";
import { render } from "./render.js";

const table = decodeURIComponent(location.pathname.split("/").pop());
const params = new URLSearchParams(location.search);
const root = document.getElementById("table");
let mine = savedSeat(table);
let spectating = !mine && params.has("spectate");
let ws = null;
let version = null;
let shown = null;
let retry = 0;
let moveCount = 0;
let fetching = false;
let again = false;

async function refresh() {
  if (fetching) { again = true; return; }
  fetching = true;
  try {
    do {
      again = false;
      const p = await api(`/web/api/tables/${encodeURIComponent(table)}/seat`, { token: mine && mine.token });
      shown = p;
      document.title = `hiddenrole — ${p.game}${p.seat ? " — " + p.seat : ""}`;
      document.getElementById("title").textContent = p.game;
      document.getElementById("who").textContent = p.seat ? `You are ${p.seat}` : "Spectator";
      render(root, p, p.seat ? { onMove: move } : {});
      tick();
      document.body.dataset.version = String(p.version);
      document.body.dataset.over = p.over ? "1" : "0";
      document.body.dataset.phase = p.phase;
      document.body.dataset.ready = "1";
      if (p.over) document.getElementById("host").hidden = true;
    } while (again);
  } catch (err) {
    announce(`The table could not be read: ${err.message}`, "error");
    if (err.status === 401 && mine) { forgetSeat(table); mine = null; showJoin(); }
  } finally {
    fetching = false;
  }
}

function tick() {
  const clock = document.getElementById("clock");
  if (!shown) return;
  if (shown.over) clock.textContent = "";
  else if (shown.status === "open") clock.textContent = "waiting for every seat to be taken";
  else if (shown.paused) clock.textContent = "paused by the host";
  else clock.textContent = shown.deadline ? `${countdown(shown.deadline)} left` : "";
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    announce("Not connected: the move was not sent. Reconnecting…", "error");
    return false;
  }
  ws.send(JSON.stringify(msg));
  return true;
}

function move(m) {
  moveCount += 1;
  const id = `w${Date.now().toString(36)}-${moveCount}`;
  if (send({ type: "move", id, against: shown ? shown.version : null, skill: "", targets: [], text: "", ...m })) {
    announce("Sent…");
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/ws`);
  ws = sock;
  sock.addEventListener("open", () => {
    const hello = { type: "hello", table };
    if (mine) hello.token = mine.token; else hello.spectate = true;
    if (version !== null) hello.since = version;
    sock.send(JSON.stringify(hello));
  });
  sock.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    switch (msg.type) {
      case "welcome":
        retry = 0;
        version = msg.version;
        announce("");
        refresh();
        break;
      case "update":
        version = msg.version;
        refresh();
        break;
      case "table":
        refresh();
        break;
      case "ack":
        announce("Done.");
        refresh();
        break;
      case "refused":
        announce(`Refused: ${msg.message}`, "error");
        refresh();
        break;
      case "error":
        announce(msg.message, "error");
        if (msg.code === "UNAUTHORIZED" && mine) { forgetSeat(table); mine = null; sock.close(); showJoin(); }
        else if (version !== null && msg.code === "STALE_MOVE") { version = null; sock.close(); }
        break;
      default:
        break;
    }
  });
  sock.addEventListener("close", () => {
    if (ws !== sock) return;
    ws = null;
    if (!mine && !spectating) return;
    if (shown && shown.over) return;
    retry += 1;
    announce("Connection lost; reconnecting…", "error");
    setTimeout(connect, Math.min(5000, 200 * 2 ** retry));
  });
}

async function showJoin() {
  const box = document.getElementById("join");
  box.hidden = false;
  const list = document.getElementById("join-list");
  try {
    const info = await api(`/api/tables/${encodeURIComponent(table)}`);
    const free = info.seats.filter((s) => !s.taken && !s.bot);
    list.replaceChildren(
      ...free.map((s) => el("button", { type: "button", "data-join": s.seat, on: { click: () => take(s.seat) } }, `Take seat ${s.seat}`)),
      info.spectators ? el("a", { href: `/table/${encodeURIComponent(table)}?spectate=1` }, "Watch as a spectator") : "",
      free.length || info.spectators ? "" : el("span", { class: "muted" }, "No free seat, and this table has no spectators."));
  } catch (err) {
    announce(`No such table: ${err.message}`, "error");
  }
  document.body.dataset.ready = "1";
}

async function take(seat) {
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(table)}/join`, { method: "POST", body: { seat } });
    saveSeat(table, joined.seat, joined.token);
    location.search = "";
    location.reload();
  } catch (err) {
    announce(`You could not take the seat: ${err.message}`, "error");
    showJoin();
  }
}

document.getElementById("say").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = document.getElementById("say-text");
  const text = input.value.trim();
  if (text && send({ type: "move", id: `w${Date.now().toString(36)}-${++moveCount}`, kind: "say", text })) {
    input.value = "";
  }
});
const host = hostToken(table);
if (host) {
  document.getElementById("host").hidden = false;
  for (const b of document.querySelectorAll("[data-host]")) {
    b.addEventListener("click", async () => {
      try {
        await api(`/api/tables/${encodeURIComponent(table)}/host/${b.dataset.host}`, { method: "POST", token: host });
        announce(`${b.textContent}: done.`);
      } catch (err) {
        announce(`${b.textContent}: ${err.message}`, "error");
      }
    });
  }
}
setInterval(tick, 250);
if (mine || spectating) connect();
else showJoin();
