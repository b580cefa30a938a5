/*
 * Pass and play on the host's phone (docs/ui.md): "Pass to <name>" and "I am <name>"
 * between turns, "Hide my cards" while someone holds it, and each local player's seat
 * between hands.
 *
 * The page decides nothing here: the server says who holds the phone and whom to pass it
 * to (``state.phone``), and it sends the holder's cards only after the tap; until then the
 * page has only the public view, so there is no card to hide.
 */

import { $, el, once } from "../dom.js";
import { S, fmt, number } from "../words.js";
import { handLive, nameOf, rules, state } from "../store.js";
import { askFirst, controlButton, keepFocus, openQuestion } from "../controls.js";
import { buyBackOffered, buyInPrice } from "./seat-controls.js";

export function renderPhone(sendHold) {
  const phone = state.phone;
  const holding = phone ? phone.holding : null;
  const passTo = phone ? phone.pass_to : null;
  once("phone", [!!phone, holding, passTo, state.seats, state.connected], () => {
    const root = $("#table-root");
    const box = $("#phone-pass");
    if (!box) return;
    root.setAttribute("data-phone", !phone ? "" : holding !== null && holding !== undefined ? "held" : "passing");
    box.hidden = !phone;
    if (!phone) return;
    const text = $("#phone-pass-text");
    const button = $("#phone-hold");
    button.onclick = null;
    if (holding !== null && holding !== undefined) {
      text.textContent = fmt(S.phone_holding, { name: nameOf(holding) });
      button.hidden = false;
      button.textContent = S.hide_cards;
      button.setAttribute("data-command", "release");
      button.onclick = () => sendHold(null);
    } else if (passTo !== null && passTo !== undefined) {
      text.textContent = fmt(S.pass_to, { name: nameOf(passTo) });
      button.hidden = false;
      button.textContent = fmt(S.i_am, { name: nameOf(passTo) });
      button.setAttribute("data-command", "hold");
      button.onclick = () => sendHold(passTo);
    } else {
      text.textContent = S.phone_hidden;
      button.hidden = true;
    }
    button.disabled = !state.connected;
  });
}

/**
 * The host's panel: each local player's seat between hands (buy in again, sit out, come back,
 * leave). "Buy in again" is offered as to a player on their own phone (seat-controls.js's
 * buyBackOffered: below one buy-in, a buy-back left; the phone's players need no approval)
 * and asks first, naming the player, the chips and the price.
 */
export function renderPhonePlayers(sendSeatFor) {
  const list = $("#phone-players");
  if (!list) return;
  const phone = state.phone;
  const live = handLive();
  const status = state.table && state.table.status;
  const settings = (state.table && state.table.settings) || {};
  once("phone-players", [phone && phone.seats, state.seats, live, status, state.connected, rules().rebuys_allowed, settings.buy_in_chips, settings.buy_in_price, settings.buy_backs, openQuestion()], () => {
    keepFocus(list, () => drawPhonePlayers(list, sendSeatFor, { phone, live, status, settings }));
  });
}

function drawPhonePlayers(list, sendSeatFor, { phone, live, status, settings }) {
  list.textContent = "";
  if (!phone || status === "ended") return;
  for (const id of phone.seats) {
    const seat = state.seats[String(id)];
    if (!seat || !seat.local) continue;
    const seated = seat.number !== null && seat.number !== undefined;
    const buttons = [];
    const add = (verb, label) => buttons.push(controlButton(() => sendSeatFor(verb, id), verb, fmt(label, { name: seat.name })));
    if (!live && seated && rules().rebuys_allowed && buyBackOffered(seat, seat.stack, settings)) {
      buttons.push(askFirst({
        key: "phone-buy-back-" + id, command: "buy_back", label: fmt(S.phone_buy_again, { name: seat.name }),
        question: fmt(S.phone_buy_again_confirm, { name: seat.name, chips: number(settings.buy_in_chips), price: buyInPrice(settings) }),
        yes: S.buy_again_yes, onYes: () => sendSeatFor("buy_back", id)
      }));
    }
    if (seated && seat.status === "playing") add("sit_out", S.phone_sit_out);
    if (seat.status === "sitting_out") add("come_back", S.phone_come_back);
    if (!live && seated) add("leave", S.phone_leave);
    if (!seated) add("take", S.phone_take_seat);
    list.appendChild(el("li", { "data-seat": String(id) }, [el("span", { text: seat.name + " " }), ...buttons]));
  }
}
