/*
 * The action bar: the game's verbs in the game's order (game-parts.js, from the game's
 * properties), showing only those the server offers this viewer now, each with what it
 * costs (the server's figure).
 *
 * The bar is rebuilt only when the offer changes, so others acting does not touch it: the
 * raise box keeps its focus and the amount being typed. Its cost line follows the amount
 * with the server's own terms: the cost at ``min`` plus ``per_chip`` for each chip above it.
 */

import { $, el, once } from "../dom.js";
import { S, fmt, number } from "../words.js";
import { barVerbs } from "../game-parts.js";
import { handLive, isToAct, myPlayer, rules, state } from "../store.js";

const box = { key: null, amount: null };   // the raise box's amount, kept across redraws of one turn

export function renderActions(sendAction, showNotice) {
  const offer = handLive() ? state.hand.legal || [] : [];
  once("actions", [state.hand && state.hand.number, offer, state.connected, rules().action_verbs, state.seats], () =>
    drawBar(offer, sendAction, showNotice));
  // Book 000: after the blind turns a player must see before betting again; the server says
  // when (the view's must_see), and the page says why only See and Pack are left.
  const hint = $("#action-hint");
  const blindSpent = handLive() && !!state.hand.must_see && isToAct(myPlayer());
  hint.textContent = blindSpent ? S.blind_turns_used : "";
  hint.hidden = !blindSpent;
}

function drawBar(offer, sendAction, showNotice) {
  const bar = $("#action-bar");
  const focused = document.activeElement && document.activeElement.id === "raise-amount";
  bar.textContent = "";
  const byVerb = Object.fromEntries(offer.map((entry) => [entry.verb, entry]));
  for (const [verb, label, key, amountBox] of barVerbs(rules())) {
    const entry = byVerb[verb];
    if (!entry) continue;
    if (amountBox) bar.appendChild(amountGroup(entry, label(entry), sendAction, showNotice));
    else bar.appendChild(button(entry, label(entry), key, () => sendAction(verb)));
  }
  const input = $("#raise-amount");
  if (focused && input) input.focus();
}

function costText(amount) {
  return amount ? fmt(S.costs, { amount: number(amount) }) : "";
}

function button(entry, label, key, onClick) {
  const node = el("button", { type: "button", "data-verb": entry.verb, "aria-keyshortcuts": key || null }, [
    el("span", { text: label }),
    key ? el("kbd", { text: key, "aria-hidden": "true" }) : null,
    entry.cost ? el("span", { class: "cost", text: costText(entry.cost) }) : null
  ]);
  node.addEventListener("click", onClick);
  node.disabled = !state.connected;
  return node;
}

function amountGroup(entry, label, sendAction, showNotice) {
  // A new turn (or new bounds) starts the box afresh; redrawing the same turn keeps my choice.
  const key = [state.hand.number, entry.verb, entry.min, entry.max].join("/");
  if (key !== box.key) { box.key = key; box.amount = null; }
  if (box.amount === null || box.amount < entry.min || box.amount > entry.max) box.amount = entry.start !== undefined ? entry.start : entry.min;
  const step = entry.step || 1;
  const input = el("input", {
    type: "number", id: "raise-amount", min: entry.min, max: entry.max, step,
    value: box.amount, "aria-label": label, inputmode: "numeric"
  });
  const cost = el("span", { class: "cost", id: "raise-cost" });
  const update = () => {
    const amount = Number(input.value);
    cost.textContent = costText((entry.cost || 0) + (amount - entry.min) * (entry.per_chip || 1));
  };
  const stepBy = (direction) => {
    const next = Math.max(entry.min, Math.min(entry.max, Number(input.value) + direction * step));
    input.value = next;
    box.amount = next;
    update();
  };
  input.addEventListener("input", () => { box.amount = Number(input.value); update(); });
  update();
  const down = el("button", { type: "button", class: "step step-down", "aria-label": S.step_down, text: "\u2212", onclick: () => stepBy(-1) });
  const up = el("button", { type: "button", class: "step step-up", "aria-label": S.step_up, text: "+", onclick: () => stepBy(1) });
  const go = el("button", { type: "button", "data-verb": entry.verb, "aria-keyshortcuts": "R" }, [
    el("span", { text: label }), el("kbd", { text: "R", "aria-hidden": "true" })
  ]);
  go.disabled = down.disabled = up.disabled = !state.connected;
  go.addEventListener("click", () => {
    const amount = Number(input.value);
    if (!(amount >= entry.min && amount <= entry.max)) {
      showNotice(fmt(S.amount_range, { min: number(entry.min), max: number(entry.max) }));
      return;
    }
    sendAction(entry.verb, amount);
  });
  return el("div", { class: "raise-group", role: "group", "aria-label": label }, [down, input, up, go, cost]);
}
