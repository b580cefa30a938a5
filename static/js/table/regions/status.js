/* The table's status line, the connection badge, the turn reminder, the notice line, the game's end. */

import { $ } from "../dom.js";
import { CONFIG, S, fmt, number } from "../words.js";
import { isToAct, me, myPlayer, nameOf, state } from "../store.js";

export function renderConnection(which) {
  const badge = $("#connection");
  badge.setAttribute("data-state", which);
  badge.textContent = S["connection_" + which];
  $("#table-root").setAttribute("data-connection", which);
}

export function renderHeader() {
  const status = state.table && state.table.status;
  $("#table-status").textContent = status ? (S["status_" + status] || status) : "";
  const hand = state.hand;
  $("#hand-number").textContent = hand && hand.number ? fmt(S.hand_number, { number: hand.number }) : "";
  $("#table-root").setAttribute("data-seq", String(state.lastSeq));
}

export function renderReminder() {
  const myTurn = isToAct(myPlayer());
  const box = $("#turn-reminder");
  const reminded = state.reminder && (!state.reminder.player || String(state.reminder.player) === me());
  if (!myTurn) box.hidden = true;
  else {
    box.hidden = false;
    box.textContent = reminded ? S.your_turn_reminder : S.your_turn;
  }
  document.title = (myTurn ? "\u25CF " : "") + CONFIG.title;
}

export function renderGameOver() {
  const box = $("#game-over");
  const ended = !!(state.table && state.table.status === "ended");
  box.hidden = !ended;
  if (!ended) return;
  const placings = state.placings || [];
  if (placings.length) {
    // Book 001: every player placed, by chips, then the order out; level players share a place.
    const text = placings.map((p) => fmt(S.placing, { place: p.place, name: nameOf(String(p.seat)), chips: number(p.chips) })).join(" · ");
    $("#game-over-stacks").textContent = fmt(S.placings, { placings: text });
    return;
  }
  const finals = state.finalStacks || {};
  const text = Object.keys(finals).filter((id) => finals[id] > 0).map((id) => nameOf(id) + " " + number(finals[id])).join(" · ");
  $("#game-over-stacks").textContent = text ? fmt(S.final_stacks, { stacks: text }) : "";
}

let noticeTimer = null;
export function showNotice(text) {
  const box = $("#notice");
  box.textContent = text || "";
  window.clearTimeout(noticeTimer);
  if (text) noticeTimer = window.setTimeout(() => { box.textContent = ""; }, 8000);
}
