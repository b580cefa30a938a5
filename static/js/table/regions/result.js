/* A finished hand's result, as the server sent it: who won what, why, each pot, the stacks. */

import { $, el, once } from "../dom.js";
import { S, fmt, number } from "../words.js";
import { nameOf, state } from "../store.js";

export function renderResult() {
  const result = state.hand && state.hand.result;
  once("result", [result, state.seats], () => {
    const box = $("#result");
    box.hidden = !result;
    if (!result) return;
    const lines = $("#result-lines");
    lines.textContent = "";
    const payouts = result.payouts || {};
    for (const name of Object.keys(payouts)) {
      if (payouts[name] > 0) {
        lines.appendChild(el("p", { class: "pot-line", "data-winner": name, text: fmt(S.result_won, { player: nameOf(name), amount: number(payouts[name]) }) }));
      }
    }
    const reason = S["reason_" + result.reason];
    if (reason) lines.appendChild(el("p", { class: "pot-line", text: reason }));
    (result.pots || []).forEach((pot, i) => {
      const label = i === 0 ? S.main_pot : fmt(S.side_pot, { number: i });
      lines.appendChild(el("p", { class: "pot-line", "data-pot": i, text: fmt(S.pot_line, { pot: label, amount: number(pot.amount), winners: (pot.winners || []).map(nameOf).join(", ") }) }));
    });
    const stacks = result.stacks || {};
    const stackText = Object.keys(stacks).map((name) => nameOf(name) + " " + number(stacks[name])).join(" · ");
    lines.appendChild(el("p", { class: "pot-line result-stacks", text: fmt(S.stacks_now, { stacks: stackText }) }));
  });
}
