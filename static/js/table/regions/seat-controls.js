/* "Your seat": where I sit and with what, and what I may do with my seat between hands. */

import { $, el, once } from "../dom.js";
import { askFirst, controlButton, keepFocus, openQuestion } from "../controls.js";
import { CONFIG, S, chips, fmt, money, number } from "../words.js";
import { handLive, mustAsk, myRequest, mySeat, ownPlayer, rules, state } from "../store.js";

export function renderSeatControls(sendSeat) {
  const seat = mySeat();
  const player = ownPlayer();
  const live = handLive();
  const asking = mustAsk();
  const request = myRequest();
  const settings = (state.table && state.table.settings) || {};
  once("seat-controls", [seat, live && player && player.stack, !!player, live, state.table && state.table.status, state.connected, rules().rebuys_allowed, asking, request, state.denied, settings.buy_in_chips, settings.buy_in_price, settings.buy_backs, (settings.dealers_choice || []).join(), openQuestion()], () => {
    const box = $("#between-hands");
    keepFocus(box, () => drawSeatControls(box, sendSeat, { seat, player, live, asking, request, settings }));
  });
}

function drawSeatControls(box, sendSeat, { seat, player, live, asking, request, settings }) {
  box.textContent = "";
  if (!seat || (state.table && state.table.status === "ended")) return;
  const inHand = !!player && live;
  const seated = seat.number !== null && seat.number !== undefined;
  const stack = player && live ? player.stack : seat.stack;
  box.appendChild(el("p", { class: "aside", text: seated ? fmt(S.your_seat, { number: seat.number, stack: chips(stack) }) : S.watching }));
  // Where the host approves seats and buy-backs, a player asks and sees that they wait.
  if (request) {
    box.appendChild(el("p", { class: "request-waiting", role: "status", text: request.what === "seat" ? S.waiting_seat : S.waiting_buy_back }));
    box.appendChild(controlButton(() => sendSeat("cancel"), "cancel", S.cancel_request));
  } else if (state.denied) {
    box.appendChild(el("p", { class: "request-denied", role: "status", text: state.denied === "seat" ? S.denied_seat : S.denied_buy_back }));
  }
  if (!seated && !request) {
    box.appendChild(asking ? controlButton(() => sendSeat("ask", { what: "seat" }), "ask_seat", S.ask_seat) : controlButton(() => sendSeat("take"), "take", S.take_seat));
  }
  if (rules().rebuys_allowed && seated && !request && asking) {
    // The host approves buy-backs here: their answer is the check (docs/ui.md).
    box.appendChild(controlButton(() => sendSeat("ask", { what: "buy_back" }), "ask_buy_back", S.ask_buy_back));
  } else if (rules().rebuys_allowed && seated && !request && !inHand && buyBackOffered(seat, stack, settings)) {
    // A question before money changes hands: how many chips, for what price.
    const question = fmt(S.buy_again_confirm, { chips: number(settings.buy_in_chips), price: buyInPrice(settings) });
    box.appendChild(askFirst({
      key: "buy-back", command: "buy_back", label: S.buy_again, question, yes: S.buy_again_yes,
      onYes: () => sendSeat("buy_back")
    }));
  }
  const dealersChoice = settings.dealers_choice || [];
  if (seat.status === "playing" && seated && dealersChoice.length) {
    // Dealer's choice: whoever deals the next hand calls its variant (the server refuses anyone else).
    const select = el("select", { id: "variant-choice", "aria-label": S.dealers_choice_label });
    for (const variant of dealersChoice) select.appendChild(el("option", { value: variant, text: S["variant_" + variant] || variant }));
    box.appendChild(el("p", { class: "aside", text: S.dealers_choice_label }));
    box.appendChild(select);
    box.appendChild(controlButton(() => sendSeat("call_variant", { variant: select.value }), "call_variant", S.dealers_choice_call));
  }
  if (seat.status === "playing" && seated) box.appendChild(controlButton(() => sendSeat("sit_out"), "sit_out", S.sit_out));
  if (seat.status === "sitting_out") box.appendChild(controlButton(() => sendSeat("come_back"), "come_back", S.come_back));
  // Hold'em shared by places: sitting out is no shelter from the blinds (docs/rules.md).
  if (seat.status === "sitting_out" && settings.prizes === "places") {
    box.appendChild(el("p", { class: "aside sitting-out-dealt-in", text: S.sitting_out_dealt_in }));
  }
  if (seated && !inHand) box.appendChild(controlButton(() => sendSeat("leave"), "leave", S.leave_seat));
}

/** The price of one buy-in as the page writes it, with the host's currency when there is one. */
export function buyInPrice(settings) {
  const amount = money(settings.buy_in_price);
  return CONFIG.currency ? fmt(S.price_in_currency, { currency: CONFIG.currency, amount }) : amount;
}

/**
 * When "Buy in again" is offered (docs/ui.md): between hands, to a seated player whose
 * stack is below one buy-in, with a buy-back left. The server's rule (seat_buy_back, book
 * 000: a new buy-in between hands, within the host's buy-backs) is unchanged and decides.
 */
export function buyBackOffered(seat, stack, settings) {
  const limit = settings.buy_backs;
  const left = limit === null || limit === undefined || (seat.buy_backs_used || 0) < limit;
  return left && settings.buy_in_chips !== undefined && Number(stack || 0) < Number(settings.buy_in_chips);
}
