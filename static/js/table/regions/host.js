/* The host's controls: start, pause, resume, end, the settings link, the requests waiting for
   an answer (approve / deny), removing a player between hands, with or without a ban. */

import { $, el, once } from "../dom.js";
import { S, fmt, number } from "../words.js";
import { handLive, owner, rules, state } from "../store.js";
import { askFirst, controlButton, keepFocus, openQuestion } from "../controls.js";

export function renderHost(sendHost) {
  const box = $("#host-controls");
  if (!box) return;
  const status = state.table && state.table.status;
  const host = (verb, label, extra) => controlButton(() => sendHost(verb, extra), verb, label);
  renderRequests(host, status);
  once("host", [status, !!(state.table && state.table.ending), handLive(), state.seats, state.connected, openQuestion()], () => {
    keepFocus(box, () => drawHost(box, host, sendHost, status));
    const removeList = $("#remove-players");
    keepFocus(removeList, () => drawRemove(removeList, host, sendHost, status));
  });
}

function drawHost(box, host, sendHost, status) {
  box.textContent = "";
  if (status === "waiting") box.appendChild(host("start", S.start));
  if (status === "playing" && !(state.table && state.table.ending)) box.appendChild(host("pause", S.pause));
  if (status === "paused") box.appendChild(host("resume", S.resume));
  const ending = !!(state.table && state.table.ending);
  if (ending && status !== "ended") {
    // Ended during a hand: the host is told what happens now, and has nothing more to press.
    box.appendChild(el("p", { class: "host-ending", role: "status", text: S.end_game_after_hand }));
  } else if (status && status !== "ended") {
    // Ending the game cannot be undone: the page asks first.
    box.appendChild(askFirst({
      key: "end", command: "end", label: S.end_game, question: S.end_game_confirm, yes: S.end_game_yes,
      onYes: () => sendHost("end")
    }));
  }
  // Computers take seats while the game may still seat anyone: never once it has ended
  // nor at a full table, and where seats are taken before the start (hold'em), only before it.
  const computers = $("#host-computers");
  if (computers) {
    const taken = Object.values(state.seats).filter((seat) => seat.number !== null && seat.number !== undefined).length;
    const full = taken >= Number(((state.table || {}).settings || {}).seats || Infinity);
    computers.hidden = status === "ended" || full || (!rules().seating_after_start && status !== "waiting");
  }
  const settingsLink = $("#settings-between-hands");
  if (settingsLink) settingsLink.hidden = handLive() || status === "ended";
}

/** Removing a player between hands, with or without a ban (a ban asks first). */
function drawRemove(removeList, host, sendHost, status) {
  removeList.textContent = "";
  if (handLive() || status === "ended") return;   // players are removed between hands
  for (const [id, seat] of Object.entries(state.seats)) {
    if (id === owner()) continue;
    const seated = seat.number !== null && seat.number !== undefined;
    const buttons = [];
    if (seated) buttons.push(host("remove", fmt(S.remove_player, { player: seat.name }), { seat: Number(id) }));
    if (seat.computer) { if (seated) removeList.appendChild(el("li", { "data-seat": id }, buttons)); continue; }   // a computer is removed, never banned
    // A ban: removed (and cashed out) for the rest of the game; the page asks first.
    buttons.push(askFirst({
      key: "ban-" + id, command: "ban", label: fmt(seated ? S.remove_ban : S.ban_player, { player: seat.name }),
      question: fmt(S.ban_confirm, { player: seat.name }), yes: fmt(S.ban_yes, { player: seat.name }),
      onYes: () => sendHost("remove", { seat: Number(id), ban: true })
    }));
    removeList.appendChild(el("li", { "data-seat": id }, buttons));
  }
}

/** The requests waiting for the host's answer, oldest first, each with Approve and Deny. */
function renderRequests(host, status) {
  const list = $("#host-requests");
  if (!list) return;
  once("host-requests", [state.requests, state.connected, status], () => {
    list.textContent = "";
    const requests = status === "ended" ? [] : state.requests;
    $("#host-requests-box").hidden = !requests.length;
    for (const request of requests) {
      const text = request.what === "buy_back" ? S.request_buy_back
        : request.what === "join" ? S.request_join
        : request.what === "claim" ? S.request_claim
        : request.number ? S.request_seat_number : S.request_seat;
      // "This is me" (issue 38): the seat and its chips go to the browser that asks.
      const claimed = request.what === "claim" ? state.seats[String(request.claim)] : null;
      const params = { player: request.name, number: request.number, chips: number(claimed ? claimed.stack : 0) };
      const approve = host("approve", S.approve, { request: request.request });
      approve.setAttribute("aria-label", fmt(S.approve_player, params));
      const deny = host("deny", S.deny, { request: request.request });
      deny.setAttribute("aria-label", fmt(S.deny_player, params));
      list.appendChild(el("li", { "data-request": String(request.request) }, [el("span", { text: fmt(text, params) }), approve, deny]));
    }
  });
}
