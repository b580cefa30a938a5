/* The turn's clock, shown to everyone: the time left of the player to act when the table
 * has a timer ("Your turn: 0:25 left" on their own page); and, for the host, "Act for <name>" once the server says the host may
 * (turn.away_from: the deadline, or 60 s on turn without a timer). The server decides
 * when; the page only shows its times. */

import { $, el } from "../dom.js";
import { S, fmt } from "../words.js";
import { me, nameOf, state } from "../store.js";

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
    const key = away <= 0 && String(turn.player) !== me() ? String(turn.player) : "";
    if (actFor.getAttribute("data-player") !== key) {
      actFor.setAttribute("data-player", key);
      actFor.textContent = "";
      if (key && sendHostRef) {
        const button = el("button", { type: "button", "data-verb": "act_for", text: fmt(S.act_for, { player: nameOf(turn.player) }) });
        const send = sendHostRef;
        button.addEventListener("click", () => send("act_for", { seat: Number(turn.player) }));
        actFor.appendChild(button);
      }
    }
  }
  const needed = !!(turn && playing && (turn.deadline || turn.away_from));
  if (needed && ticking === null) ticking = window.setInterval(draw, 1000);
  if (!needed && ticking !== null) {
    window.clearInterval(ticking);
    ticking = null;
  }
}

export function renderClock(sendHost) {
  sendHostRef = sendHost;
  draw();
}
