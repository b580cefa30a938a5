/* The middle of the felt: the pot, the stakes line, the board (games that have one). */

import { $, once } from "../dom.js";
import { S, fmt, number } from "../words.js";
import { stakesLine } from "../game-parts.js";
import { handLive, legal, rules, state } from "../store.js";
import { flatten } from "./cards.js";

export function renderCentre() {
  once("centre", [state.hand, state.table && state.table.rules, handLive() && legal("call")], drawCentre);
}

function drawCentre() {
  const hand = state.hand;
  const game = rules();
  // The server's count of every chip in the middle (hold'em: this round's bets too).
  $("#pot").textContent = hand ? fmt(S.pot, { amount: number(hand.pot) }) : "";
  $("#stake").textContent = hand ? stakesLine(game, hand, handLive(), legal("call")) : "";
  const board = $("#board");
  board.textContent = "";
  if (!board.dataset.label) board.dataset.label = board.getAttribute("aria-label") || "";
  board.setAttribute("aria-label", board.dataset.label);
  if (hand && game.has_board) {
    const result = hand.result;
    const lit = new Set(flatten(result && result.best_cards));
    for (const card of hand.board || []) board.appendChild(window.DashainCards.element(card, { lit: lit.has(card) }));
    board.setAttribute("aria-label", fmt(S.board_label, { cards: (hand.board || []).map(window.DashainCards.label).join(", ") }));
  } else if (hand && hand.joker) {
    // The Joker variant's card turned face up after the deal: shown to everyone, like a board.
    board.appendChild(window.DashainCards.element(hand.joker, {}));
    board.setAttribute("aria-label", fmt(S.joker_label, { card: window.DashainCards.label(hand.joker) }));
  }
  $("#empty-table").hidden = !!hand;
}
