// Draws a presented view (see hiddenrole/server/web/present.py): seats, phase, your role, actions, chat, log, reveal.
// Used by the table page (interactive) and the replay viewer (read only).
import { el } from "./common.js";

function seatCard(p) {
  const bits = [p.alive ? "alive" : "dead"];
  if (p.role) bits.push(p.role);
  if (p.teammate) bits.push("teammate");
  if (p.turn) bits.push("their turn");
  if (p.spoke) bits.push("has spoken");
  const cls = [p.alive ? "alive" : "dead", p.me ? "me" : "", p.turn ? "turn" : ""].filter(Boolean).join(" ");
  return el("li", { class: cls, "data-seat": p.seat, "aria-current": p.turn ? "true" : false },
    el("span", { class: "name" }, p.seat + (p.me ? " (you)" : "")), el("br"), el("span", { class: "muted" }, bits.join(" · ")));
}

/** The picker of one action: radio buttons for one target, checkboxes for several; the button names the skill. */
function actionForm(a, onMove, disabled) {
  const name = `act-${a.skill}`;
  const form = el("form", { class: "action-form", "data-skill": a.skill });
  const fs = el("fieldset", { class: "action" }, el("legend", {}, a.name));
  const multi = a.max > 1;
  const inputs = [];
  if (a.max > 0) {
    if (!multi && a.min === 0) {
      const id = `${name}-none`;
      const none = el("input", { type: "radio", name, id, value: "", checked: true });
      inputs.push(none);
      fs.append(el("label", { for: id }, none, "nobody"));
    }
    for (const t of a.targets) {
      const id = `${name}-${t.id}`;
      const input = el("input", { type: multi ? "checkbox" : "radio", name, id, value: t.id, "data-target": t.id });
      inputs.push(input);
      fs.append(el("label", { for: id }, input, t.label));
    }
  }
  const hint = a.max === 0 ? "" : a.min === a.max ? `Choose ${a.min}.` : `Choose ${a.min} to ${a.max}.`;
  const button = el("button", { type: "submit", "data-act": a.skill }, a.name);
  const chosen = () => inputs.filter((i) => i.checked && i.value).map((i) => i.value);
  const check = () => {
    const n = chosen().length;
    button.disabled = disabled || n < a.min || n > a.max;
  };
  fs.addEventListener("change", check);
  fs.append(el("div", { class: "row" }, hint ? el("span", { class: "muted" }, hint) : null, button));
  form.append(fs);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!button.disabled) onMove({ kind: "act", skill: a.skill, targets: chosen() });
  });
  check();
  return form;
}

const MOVE_LABELS = { "end-turn": "End my turn", "delay-turn": "Let others go first", undo: "Take back my last choice" };

/**
 * Fill `root` (with children #phase, #seats, #me, #prompt, #actions, #chat, #log, #reveal, #facts) from `p`.
 * `opts.onMove(move)` makes a move (omit it for a read-only page); `opts.deadline` is shown by the caller.
 */
export function render(root, p, opts = {}) {
  const q = (id) => root.querySelector(`#${id}`);
  const interactive = typeof opts.onMove === "function";
  q("phase").textContent = p.over ? "The game is over" : `${p.phase} · round ${p.round}`;
  q("seats").replaceChildren(...p.players.map(seatCard));
  const me = q("me");
  if (p.me) {
    me.hidden = false;
    me.querySelector(".identity").textContent = p.me.identity;
    me.querySelector(".role").textContent = p.me.role;
    me.querySelector(".camp").textContent = p.me.camp || "—";
    me.querySelector(".teammates").textContent = p.me.teammates.length ? p.me.teammates.join(", ") : "none known";
  } else {
    me.hidden = true;
  }
  q("prompt").textContent = p.seat === null ? "You are watching as a spectator: you see only what is public." : p.prompt;
  const acts = q("actions");
  const blocked = Boolean(p.paused) || p.status === "open";
  const forms = interactive ? p.actions.map((a) => actionForm(a, opts.onMove, blocked)) : [];
  const buttons = interactive
    ? p.moves.filter((k) => k !== "say").map((k) => el("button", { type: "button", class: "secondary", "data-move": k, disabled: blocked,
        on: { click: () => opts.onMove({ kind: k }) } }, MOVE_LABELS[k] || k))
    : [];
  acts.replaceChildren(...forms, buttons.length ? el("div", { class: "row" }, buttons) : "");
  acts.hidden = !forms.length && !buttons.length;
  const sayForm = q("say");
  if (sayForm) sayForm.hidden = !(interactive && p.moves.includes("say"));
  q("chatlog").replaceChildren(...p.chat.map((c) => el("li", { "data-n": c.n },
    el("strong", {}, c.sender), ` (${c.phase}, round ${c.round}): `, c.text)));
  if (!p.chat.length) q("chatlog").append(el("li", { class: "muted" }, "Nothing said yet."));
  q("log").replaceChildren(...p.events.map((e) => el("li", { class: e.canceled ? "canceled" : "", "data-n": e.n }, e.text)));
  const facts = q("facts");
  facts.replaceChildren(...p.data.map((d) => el("li", {}, `${d.name}: ${d.value}`)));
  facts.closest("section").hidden = !p.data.length;
  const reveal = q("reveal");
  if (p.outcome) {
    reveal.hidden = false;
    const o = p.outcome;
    const statNames = [...new Set(o.seats.flatMap((s) => s.stats.map((x) => x.name)))];
    reveal.replaceChildren(
      el("h2", {}, "The reveal"),
      el("p", {}, `Ending: ${o.ending}. Winners: ${o.winners.join(", ") || "nobody"}.`),
      el("table", { class: "reveal" },
        el("caption", { class: "sr-only" }, "Every seat's role and statistics"),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Seat"), el("th", { scope: "col" }, "Role"),
          el("th", { scope: "col" }, "Result"), statNames.map((n) => el("th", { scope: "col" }, n)))),
        el("tbody", {}, o.seats.map((s) => el("tr", { "data-seat": s.seat },
          el("th", { scope: "row" }, s.seat), el("td", {}, s.role || "?"),
          el("td", { class: s.won ? "won" : "" }, s.won ? "won" : "lost"),
          statNames.map((n) => el("td", {}, String((s.stats.find((x) => x.name === n) || {}).value ?? ""))))))),
      o.table.length ? el("p", {}, "Table: " + o.table.map((t) => `${t.name} ${t.value}`).join(", ") + ".") : "");
  } else {
    reveal.hidden = true;
  }
}
