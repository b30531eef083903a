// The lobby: the game's options as a form generated from its JSON Schema, create a table, list and join tables.
import { api, el, announce, saveSeat, saveHost, savedSeat } from "./common.js";

let games = [];

function seatNames(n) {
  const width = String(n).length;
  return Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(width, "0")}`);
}

/** "witch-can-save-self" -> "Witch can save self". */
function words(name) {
  const text = name.replace(/[-_]+/g, " ").trim().toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One control per option: checkbox for booleans, bounded number for integers, choice list for strings. */
function optionControl(optionName, prop) {
  const id = `opt-${optionName}`;
  const name = words(optionName);
  const title = prop.description || "";
  if (prop.type === "boolean") {
    return el("label", { for: id, title }, el("input", { id, type: "checkbox", checked: prop.default === true, "data-option": optionName }), name);
  }
  if (prop.type === "integer") {
    return el("label", { for: id, title }, name,
      el("input", { id, type: "number", step: 1, min: prop.minimum, max: prop.maximum, value: prop.default, required: true, "data-option": optionName }));
  }
  const select = el("select", { id, "data-option": optionName },
    (prop.enum || []).map((v) => el("option", { value: v, selected: v === prop.default }, v)));
  return el("label", { for: id, title }, name, select);
}

function showGame() {
  const game = games.find((g) => g.name === document.getElementById("game").value);
  if (!game) return;
  document.getElementById("summary").textContent = game.summary;
  const seats = document.getElementById("seats");
  seats.min = game.seats.min;
  seats.max = game.seats.max;
  seats.value = Math.max(game.seats.min, Math.min(game.seats.max, game.name === "werewolf" ? 6 : game.seats.min));
  const box = document.getElementById("options");
  box.replaceChildren(...Object.entries(game.options.properties).map(([n, p]) => optionControl(n, p)));
  showBots();
}

function showBots() {
  const n = Number(document.getElementById("seats").value) || 0;
  const box = document.getElementById("bots");
  const names = seatNames(Math.max(0, Math.min(64, n)));
  box.replaceChildren(el("span", { class: "muted" }, "Bots play: "),
    ...names.map((s, i) => el("label", { for: `bot-${s}` }, el("input", { id: `bot-${s}`, type: "checkbox", value: s, checked: i > 0, "data-bot": s }), s)));
}

function readOptions(game) {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const prop = game.options.properties[input.dataset.option];
    const value = prop.type === "boolean" ? input.checked : prop.type === "integer" ? Number(input.value) : input.value;
    if (value !== prop.default) out[input.dataset.option] = value;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  const game = games.find((g) => g.name === document.getElementById("game").value);
  const seats = Number(document.getElementById("seats").value);
  const bots = [...document.querySelectorAll("[data-bot]")].filter((b) => b.checked).map((b) => b.value);
  const body = { game: game.name, seats, options: readOptions(game), bots, spectators: document.getElementById("spectators").checked };
  const timeout = document.getElementById("timeout").value;
  if (timeout) body.timeout = Number(timeout);
  const delay = Number(document.getElementById("bot-delay").value || 0);
  body.bot_delay = [delay / 2, delay];
  try {
    const made = await api("/api/tables", { method: "POST", body });
    saveHost(made.table, made.host_token);
    if (bots.length < seats) {
      const joined = await api(`/api/tables/${made.table}/join`, { method: "POST", body: {} });
      saveSeat(made.table, joined.seat, joined.token);
    }
    location.href = `/table/${made.table}`;
  } catch (err) {
    announce(`The table was not created: ${err.message}`, "error");
  }
}

async function join(table, seat) {
  try {
    const joined = await api(`/api/tables/${table}/join`, { method: "POST", body: seat ? { seat } : {} });
    saveSeat(table, joined.seat, joined.token);
    location.href = `/table/${table}`;
  } catch (err) {
    announce(`You could not join: ${err.message}`, "error");
    listTables();
  }
}

async function listTables() {
  const list = document.getElementById("tables");
  try {
    const { tables } = await api("/api/tables");
    const rows = tables.slice().reverse().map((t) => {
      const free = t.seats.filter((s) => !s.taken && !s.bot);
      const mine = savedSeat(t.table);
      const label = `${t.game} · ${t.status} · ${t.seats.length} seats, ${free.length} free`;
      return el("li", { "data-table": t.table }, el("span", {}, label, " "),
        mine ? el("a", { href: `/table/${t.table}` }, `Back to your seat ${mine.seat}`) : null,
        !mine && free.length && t.status === "open"
          ? el("button", { type: "button", on: { click: () => join(t.table) } }, "Join a seat") : null,
        t.spectators && t.status !== "finished" ? el("a", { href: `/table/${t.table}?spectate=1` }, " Spectate") : null,
        t.status === "finished" ? el("a", { href: `/replay?table=${t.table}` }, " Replay") : null);
    });
    list.replaceChildren(...(rows.length ? rows : [el("li", { class: "muted" }, "No table yet.")]));
  } catch (err) {
    announce(`The list of tables is unavailable: ${err.message}`, "error");
  }
}

async function start() {
  const { games: found } = await api("/api/games");
  games = found;
  const select = document.getElementById("game");
  select.replaceChildren(...games.map((g) => el("option", { value: g.name, selected: g.name === "werewolf" }, g.name)));
  select.addEventListener("change", showGame);
  document.getElementById("seats").addEventListener("input", showBots);
  document.getElementById("create").addEventListener("submit", create);
  document.getElementById("refresh").addEventListener("click", listTables);
  showGame();
  await listTables();
  document.body.dataset.ready = "1";
}

start().catch((err) => announce(`The lobby could not load: ${err.message}`, "error"));
