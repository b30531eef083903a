// The replay viewer: a finished table (?table=<id>) or an uploaded log file, step by step, as any seat saw it
// at that moment or as the god view. The server rebuilds each step from the log; the page only draws it.
import { api, el, announce } from "./common.js";
import { render } from "./render.js";

const params = new URLSearchParams(location.search);
const root = document.getElementById("table");
const table = params.get("table");
let log = null;
let total = 0;
let at = null;  // null: the end of the log
let seat = "god";

async function step() {
  try {
    const r = log
      ? await api("/web/api/replay", { method: "POST", body: { log, at, seat } })
      : await api(`/web/api/tables/${encodeURIComponent(table)}/replay?at=${at ?? ""}&seat=${encodeURIComponent(seat)}`);
    total = r.moves;
    at = r.at;
    const seatSel = document.getElementById("seat");
    if (seatSel.options.length === 0) {
      seatSel.replaceChildren(el("option", { value: "god" }, "Everything (god view)"),
        el("option", { value: "spectator" }, "A spectator"), ...r.seats.map((s) => el("option", { value: s }, s)));
    }
    const range = document.getElementById("at");
    range.max = String(total);
    range.value = String(at);
    range.setAttribute("aria-valuetext", `move ${at} of ${total}`);
    document.getElementById("position").textContent = `Move ${at} of ${total}`;
    document.getElementById("move").textContent = r.move;
    document.getElementById("which").textContent = `${r.game} · ${r.table}`;
    document.getElementById("controls").hidden = false;
    render(root, r.view);
    if (r.view.seat === "god") document.getElementById("prompt").textContent = "The god view: every role, every event.";
    document.body.dataset.at = String(at);
    document.body.dataset.ready = "1";
    announce("");
  } catch (err) {
    announce(`The replay is unavailable: ${err.message}`, "error");
    document.body.dataset.ready = "1";
  }
}

function go(n) {
  at = Math.max(0, Math.min(total, n));
  step();
}

document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(at - 1));
document.getElementById("forward").addEventListener("click", () => go(at + 1));
document.getElementById("last").addEventListener("click", () => go(total));
document.getElementById("at").addEventListener("change", (ev) => go(Number(ev.target.value)));
document.getElementById("seat").addEventListener("change", (ev) => { seat = ev.target.value; step(); });
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  if (ev.key === "ArrowRight") go(at + 1);
  if (ev.key === "ArrowLeft") go(at - 1);
});
document.getElementById("file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  try {
    log = JSON.parse(await file.text());
    if (log && log.log && log.log.header) log = log.log;  // the lobby's /log answer wraps the log
  } catch {
    announce("That file is not a JSON log.", "error");
    return;
  }
  document.getElementById("seat").replaceChildren();
  at = null;
  step();
});

if (table) {
  const a = document.getElementById("download");
  a.href = `/web/api/tables/${encodeURIComponent(table)}/log.json`;
  a.hidden = false;
  step();
} else {
  document.body.dataset.ready = "1";
}
