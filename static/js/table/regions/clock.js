/* The turn's clock, shown to everyone: the time left of the player to act when the table
 * has a timer ("Your turn: 0:25 left" on their own page); for the host, "Act for <name>"
 * once the server says the host may (turn.away_from: the deadline, or 60 s on turn without
 * a timer): one button per move of the player's that the host may make for them (their
 * legal moves from the turn, with what each costs, less the ones that would show or
 * compare their cards: CONFIG.player_only_verbs), each saying it keeps them in, and "Away
 * for the hand", saying it sits them out; and, on the page of a player the host acted
 * for, what was done for them. The server decides when and what; the page only shows it. */

import { $, el } from "../dom.js";
import { CONFIG, S, fmt, number } from "../words.js";
import { barVerbs } from "../game-parts.js";
import { me, nameOf, rules, state } from "../store.js";

let ticking = null;
let sendHostRef = null;

function left(iso) {
  return iso ? Date.parse(iso) - Date.now() : NaN;
}

export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes + ":" + String(seconds % 60).padStart(2, "0");
}

function draw() {
  const turn = state.turn;
  const playing = state.table && state.table.status !== "ended";
  const box = $("#turn-clock");
  const deadline = turn && playing ? left(turn.deadline) : NaN;
  if (box) {
    if (Number.isNaN(deadline)) box.hidden = true;
    else {
      box.hidden = false;
      const name = nameOf(turn.player);
      const mine = String(turn.player) === me();   // my own turn: "Your turn: 0:25 left"
      const text = deadline > 0
        ? fmt(mine ? S.your_turn_clock : S.turn_clock, { name, time: clockText(deadline) })
        : fmt(mine ? S.your_turn_time_up : S.turn_time_up, { name });
      if (box.textContent !== text) box.textContent = text;
    }
  }
  const actFor = $("#act-for");
  if (actFor) {
    const away = turn && playing ? left(turn.away_from) : NaN;
    // The host's own turn is theirs to play: no button to act for themselves.
    const player = away <= 0 && String(turn.player) !== me() ? String(turn.player) : "";
    const key = player ? JSON.stringify([player, turn.legal || []]) : "";
    if (actFor.getAttribute("data-player") !== key) {
      actFor.setAttribute("data-player", key);
      actFor.textContent = "";
      if (player && sendHostRef) drawActFor(actFor, turn, sendHostRef);
    }
  }
  const mine = $("#acted-for-you");
  if (mine) {
    const text = state.actedForMe || "";
    if (mine.textContent !== text) mine.textContent = text;
    mine.hidden = !text;
  }
  const needed = !!(turn && playing && (turn.deadline || turn.away_from));
  if (needed && ticking === null) ticking = window.setInterval(draw, 1000);
  if (!needed && ticking !== null) {
    window.clearInterval(ticking);
    ticking = null;
  }
}

/** "Act for <name>": the moves the host may make for the away player, and away for the hand. */
function drawActFor(box, turn, send) {
  const player = Number(turn.player);
  const name = nameOf(turn.player);
  const hidden = new Set(CONFIG.player_only_verbs || []);
  const offer = Object.fromEntries((turn.legal || []).filter((entry) => !hidden.has(entry.verb)).map((entry) => [entry.verb, entry]));
  const group = el("div", { role: "group", "aria-labelledby": "act-for-heading" }, [
    el("h3", { id: "act-for-heading", text: fmt(S.act_for, { player: name }) }),
    el("p", { class: "aside", text: fmt(S.act_for_explain, { player: name }) })
  ]);
  const moves = el("div", { class: "act-for-moves" });
  for (const [verb, label, , amountBox] of barVerbs(rules())) {
    const entry = offer[verb];
    if (!entry) continue;
    if (amountBox) {
      const input = el("input", {
        type: "number", id: "act-for-amount-" + verb, min: entry.min, max: entry.max, value: entry.min,
        inputmode: "numeric", "aria-label": fmt(S.act_for_amount, { player: name })
      });
      const go = el("button", { type: "button", "data-verb": "act_for", "data-move": verb, text: label(entry) });
      go.addEventListener("click", () => send("act_for", { seat: player, move: verb, amount: Number(input.value) }));
      moves.appendChild(el("span", { class: "raise-group" }, [input, go]));
    } else {
      // What the move costs, unless its label says it already ("Call 20").
      const text = label(entry);
      const cost = entry.cost && text.indexOf(number(entry.cost)) < 0 ? " · " + fmt(S.costs, { amount: number(entry.cost) }) : "";
      const button = el("button", { type: "button", "data-verb": "act_for", "data-move": verb, text: text + cost });
      button.addEventListener("click", () => send("act_for", { seat: player, move: verb }));
      moves.appendChild(button);
    }
  }
  // A sideshow asked of them: refusing shows nothing (accepting would compare their cards).
  if (offer.refuse) {
    const refuse = el("button", { type: "button", "data-verb": "act_for", "data-move": "refuse", text: S.act_for_refuse });
    refuse.addEventListener("click", () => send("act_for", { seat: player, move: "refuse" }));
    moves.appendChild(refuse);
  }
  // Book 000's blind player stays blind: the host never looks, shows or compares for anyone.
  if (rules().has_blind_and_seen) group.appendChild(el("p", { class: "aside", text: S.act_for_cards_hidden }));
  group.appendChild(el("p", { class: "aside", text: S.act_for_moves_keep_in }));
  group.appendChild(moves);
  const awayButton = el("button", { type: "button", "data-verb": "act_for", "data-move": "away", text: S.act_for_away });
  awayButton.addEventListener("click", () => send("act_for", { seat: player, move: "away" }));
  group.appendChild(el("p", { class: "aside", text: fmt(S.act_for_away_explain, { player: name }) }));
  group.appendChild(awayButton);
  box.appendChild(group);
}

export function renderClock(sendHost) {
  sendHostRef = sendHost;
  draw();
}
