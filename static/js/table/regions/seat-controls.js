/* "Your seat": where I sit and with what, and what I may do with my seat between hands. */

import { $, el, once } from "../dom.js";
import { CONFIG, S, chips, fmt, money, number } from "../words.js";
import { handLive, mustAsk, myRequest, mySeat, ownPlayer, rules, state } from "../store.js";

export function controlButton(onClick, command, label) {
  const node = el("button", { type: "button", "data-command": command, text: label });
  node.disabled = !state.connected;
  node.addEventListener("click", onClick);
  return node;
}

// "Buy in again" asks before money changes hands, in the page (not the browser's confirm()):
// the question with "Yes, buy in again" and "Cancel" takes the button's place until answered.
const buyBack = { asking: false, focus: null };  // focus after the redraw: "yes" | "button" | null

export function renderSeatControls(sendSeat) {
  const seat = mySeat();
  const player = ownPlayer();
  const live = handLive();
  const asking = mustAsk();
  const request = myRequest();
  const settings = (state.table && state.table.settings) || {};
  once("seat-controls", [seat, live && player && player.stack, !!player, live, state.table && state.table.status, state.connected, rules().rebuys_allowed, asking, request, state.denied, settings.buy_in_chips, settings.buy_in_price, settings.buy_backs, buyBack.asking], () => {
    const box = $("#between-hands");
    // A redraw replaces the buttons: the keyboard goes back to the one it was on.
    const focused = box.contains(document.activeElement) ? document.activeElement.getAttribute("data-command") : null;
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
      const amount = money(settings.buy_in_price);
      const price = CONFIG.currency ? fmt(S.price_in_currency, { currency: CONFIG.currency, amount }) : amount;
      const question = fmt(S.buy_again_confirm, { chips: number(settings.buy_in_chips), price });
      box.appendChild(buyBack.asking ? buyBackQuestion(question, sendSeat) : controlButton(() => openBuyBack(sendSeat), "buy_back", S.buy_again));
    } else {
      buyBack.asking = false;  // no longer offered (dealt in, bought in, a request): the question goes
    }
    if (seat.status === "playing" && seated) box.appendChild(controlButton(() => sendSeat("sit_out"), "sit_out", S.sit_out));
    if (seat.status === "sitting_out") box.appendChild(controlButton(() => sendSeat("come_back"), "come_back", S.come_back));
    if (seated && !inHand) box.appendChild(controlButton(() => sendSeat("leave"), "leave", S.leave_seat));
    focusAfterDraw(box, focused);
  });
}

function openBuyBack(sendSeat) {
  buyBack.asking = true;
  buyBack.focus = "yes";
  renderSeatControls(sendSeat);
}

function closeBuyBack(sendSeat, buy) {
  buyBack.asking = false;
  buyBack.focus = "button";
  if (buy) sendSeat("buy_back");
  renderSeatControls(sendSeat);
}

/** The question in the page: a labelled group, "Yes" focused first, Escape or "Cancel" to say no. */
function buyBackQuestion(question, sendSeat) {
  const yes = controlButton(() => closeBuyBack(sendSeat, true), "buy_back_yes", S.buy_again_yes);
  const no = controlButton(() => closeBuyBack(sendSeat, false), "buy_back_no", S.buy_again_no);
  const group = el("div", { class: "confirm-question", role: "group", "aria-labelledby": "buy-back-question" }, [
    el("p", { id: "buy-back-question", text: question }),
    el("div", { class: "confirm-answers" }, [yes, no])
  ]);
  group.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); closeBuyBack(sendSeat, false); }
  });
  return group;
}

/**
 * After a redraw, keep the keyboard where the player was: on "Yes" as the question opens,
 * back on "Buy in again" once it is answered, else on the button of the same command.
 */
function focusAfterDraw(box, focused) {
  const wanted = { yes: "buy_back_yes", button: "buy_back" }[buyBack.focus] || focused;
  buyBack.focus = null;
  const target = wanted ? box.querySelector(`[data-command="${wanted}"]`) : null;
  if (target) target.focus();
}

/**
 * When "Buy in again" is offered (docs/ui.md): between hands, to a seated player whose
 * stack is below one buy-in, with a buy-back left. The server's rule (seat_buy_back, book
 * 000: a new buy-in between hands, within the host's buy-backs) is unchanged and decides.
 */
function buyBackOffered(seat, stack, settings) {
  const limit = settings.buy_backs;
  const left = limit === null || limit === undefined || (seat.buy_backs_used || 0) < limit;
  return left && settings.buy_in_chips !== undefined && Number(stack || 0) < Number(settings.buy_in_chips);
}
