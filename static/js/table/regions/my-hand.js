/* My own cards (face down until I look, in games where one looks), my hand's name, the see button. */

import { $, once } from "../dom.js";
import { S, handLabel } from "../words.js";
import { handLive, legal, me, myPlayer, rules, state } from "../store.js";
import { drawCards } from "./cards.js";

export function renderMyHand() {
  once("my-hand", [state.hand && state.hand.number, myPlayer(), state.hand && state.hand.your_cards,
    state.hand && state.hand.result, handLive(), !!legal("see"), state.connected], drawMyHand);
}

function drawMyHand() {
  const player = myPlayer();
  $("#my-hand").hidden = !player;
  // No player here (a passed phone between holders): no card is left in the page, hidden or not.
  if (!player) { $("#my-cards").textContent = ""; return; }
  const box = $("#my-cards");
  const mine = (state.hand && state.hand.your_cards) || player.cards;
  const result = state.hand && state.hand.result;
  const label = player.hand || (result && result.hands && result.hands[me()]);
  if (mine && mine.length) {
    drawCards(box, mine, 0, player.best_cards || (result && result.best_cards && result.best_cards[me()]), handLive());
    $("#my-hand-label").textContent = label && label.category ? handLabel(label) : "";
  } else {
    box.textContent = "";
    const dealt = (state.hand && state.hand.cards_each) || rules().hole_cards || 0;  // Four-card deals four
    for (let i = 0; i < dealt; i++) box.appendChild(window.DashainCards.back({ label: S.my_card_hidden }));
    $("#my-hand-label").textContent = handLive() && !player.packed ? S.not_looked : "";
  }
  const canSee = !!legal("see");
  const see = $("#see-button");
  see.hidden = !canSee;
  see.disabled = !canSee || !state.connected;
}
