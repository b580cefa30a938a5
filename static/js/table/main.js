/*
 * main.js: the table page (templates/tables/table.html), as native ES modules with no build step.
 *
 *   connection.js  the WebSocket: heartbeat, reconnect with jittered backoff
 *   store.js       what the page knows, and how each frame changes it (docs/live-play.md)
 *   words.js       every word shown (translated by Django) and the log in words
 *   game-parts.js  what differs on screen between games, read from the game's properties (table.rules)
 *   controls.js    the regions' buttons, and the page's own question before a step that costs money
 *   regions/*.js   one renderer per region of the page, each redrawn only when its part changed
 *
 * The page decides no rule: the verbs offered, what each costs, the pots, who won what and
 * which cards show come from the server, which pushes this viewer's screen with every piece
 * of news. It never receives another player's hidden cards: the server filters every frame.
 */

import { $ } from "./dom.js";
import { connect } from "./connection.js";
import { questionsRedrawWith, questionsTidy } from "./controls.js";
import { movesForget, movesRemember, movesRetry } from "./resend.js";
import { applyFrame, legal, mySeat, state } from "./store.js";
import { CONFIG, S } from "./words.js";
import { renderActions } from "./regions/actions.js";
import { renderCentre } from "./regions/centre.js";
import { renderClock } from "./regions/clock.js";
import { renderHost } from "./regions/host.js";
import { renderLog } from "./regions/log.js";
import { renderMyHand } from "./regions/my-hand.js";
import { renderPhone, renderPhonePlayers } from "./regions/phone.js";
import { renderResult } from "./regions/result.js";
import { renderSeatControls } from "./regions/seat-controls.js";
import { renderSeats } from "./regions/seats.js";
import { renderSideshow } from "./regions/sideshow.js";
import { renderConnection, renderGameOver, renderHeader, renderPhase, renderReminder, renderStake, showNotice } from "./regions/status.js";

if (window.DashainCards) window.DashainCards.setLabels(S.cards);

function newClientId() {
  if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
  return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2);
}

function send(frame) {
  if (!socket.send(frame)) {
    showNotice(S.not_connected);
    return false;
  }
  return true;
}

function sendAction(verb, amount) {
  // "see" has its own message; everything else is an action. The id makes a resend a no-op.
  const frame = verb === "see" ? { type: "see", id: newClientId() } : { type: "action", verb, id: newClientId() };
  if (amount !== undefined && amount !== null) frame.amount = amount;
  if (send(frame)) {
    showNotice("");
    movesRemember(frame, state.lastSeq);   // sent again by itself if the table is catching its breath
  }
}

function sendSeat(verb, extra) {
  send(Object.assign({ type: "seat", verb, id: newClientId() }, extra || {}));
}

// Pass and play: "I am <name>" holds the phone for that seat, null hides every card again.
function sendHold(seat) {
  if (send({ type: "hold", seat, id: newClientId() })) showNotice("");
}

function sendSeatFor(verb, seat) {
  send({ type: "seat", verb, seat, id: newClientId() });
}

function sendHost(verb, extra) {
  send(Object.assign({ type: "host", verb, id: newClientId() }, extra || {}));
}

// Fairness (docs/fairness.md): a seated player's browser may add its own seed to the deck
// of the next hand, when the player asks for it (the box under "Your seat").
function offerSeed() {
  const box = $("#add-seed");
  const seat = mySeat();
  if (!box || !box.checked || !seat || seat.number === null || seat.number === undefined) return;
  if (!state.table || state.table.status === "ended" || !state.connected) return;
  const forHand = (state.table.hands_played || 0) + 1;
  if (state.seedFor === forHand) return;
  state.seedFor = forHand;
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  const seed = Array.from(bytes, (b) => ("0" + b.toString(16)).slice(-2)).join("");
  send({ type: "seed", seed, id: newClientId() });
}

// "You asked the host for a seat; you watch until they answer." (a message of the page's
// load) no longer stands once the host seated me.
function tidyMessages() {
  const seat = mySeat();
  if (!seat || seat.number === null || seat.number === undefined) return;
  for (const message of document.querySelectorAll(".message--until-seated")) message.remove();
  const list = document.querySelector(".messages");
  if (list && !list.children.length) list.remove();
}

function render() {
  // A page whose seat is not its own any more (moved to another device, or banned) keeps
  // nothing of the seat's hand: no card left in the page, hidden or not, and no move offered.
  if (state.gone) state.hand = null;
  tidyMessages();
  renderHeader();
  renderPhone(sendHold);
  renderSeats();
  renderCentre();
  renderMyHand();
  renderSideshow();
  renderActions(sendAction, showNotice);
  renderResult();
  renderLog();
  renderSeatControls(sendSeat);
  renderHost(sendHost);
  renderPhonePlayers(sendSeatFor);
  renderReminder();
  renderPhase();
  renderClock(sendHost);
  renderGameOver();
  renderStake();
  offerSeed();
  questionsTidy();
}
questionsRedrawWith(render);

/** The host's page: the invite link was replaced (a ban, or the host's own "Make a new link"
 *  elsewhere): show the new one, read from the server (it never travels in the log). */
function inviteLinkRefresh(frame) {
  const input = $("#join-link");
  if (!input || !frame.events || !frame.events.some((event) => event.kind === "invite_rotated")) return;
  fetch(input.dataset.current, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((data) => { if (data && data.url) input.value = data.url; })
    .catch(() => {});
}

// The table's records out of reach (the database restarting): say so; a move waiting for
// its answer is sent again by resend.js, with its id, while the table has not moved on.
function answeredUnavailable(frame) {
  if (frame.type !== "error" || frame.code !== "unavailable") return false;
  state.snapshotWanted = false;   // a snapshot asked for did not come: ask again at the next need
  const resending = frame.id !== undefined && movesRetry(frame.id, {
    send: (request) => socket.send(request),
    seqNow: () => state.lastSeq,
    gaveUp: () => showNotice(S.move_not_played)
  });
  showNotice(resending ? S.unavailable_resending : S.unavailable);
  return true;
}

// A read refused beyond the person's or the address's limits (too_many_reads, said as "the
// page tries again shortly"): it does. What it asked for will not come, so the page wants
// a fresh snapshot and asks for it once, after a pause (reads come back at 2 a second);
// until then it asks for nothing (news with a gap waits for that snapshot), however many
// refusals arrive. A socket that closes meanwhile gets its snapshot on reconnecting.
const READ_RETRY_MS = 1000;
let readRetry = null;

function readRetryCancel() {
  if (readRetry !== null) clearTimeout(readRetry);
  readRetry = null;
}

function answeredTooManyReads(frame) {
  if (frame.type !== "error" || frame.code !== "too_many_reads") return false;
  state.snapshotWanted = true;
  if (readRetry === null) {
    readRetry = setTimeout(() => {
      readRetry = null;
      if (state.connected && state.snapshotWanted) socket.send({ type: "snapshot" });
    }, READ_RETRY_MS * (1 + Math.random()));
  }
  showNotice(frame.message || S.refused);
  return true;
}

// The server's word that this page's seat is not its own any more (issue 28): banned by
// the host, or a guest's seat link opened in another browser. A close that says so is final.
const GONE_CODES = { banned: "banned", seat_moved: "moved" };
const GONE_CLOSES = { 4403: "gone", 4409: "moved" };

function onFrame(frame) {
  if ((frame.type === "error" || frame.type === "closed") && GONE_CODES[frame.code]) {
    state.gone = GONE_CODES[frame.code];
    render();
    return;
  }
  if (answeredUnavailable(frame) || answeredTooManyReads(frame)) return;
  if (frame.type === "events") inviteLinkRefresh(frame);
  if (frame.id !== undefined) movesForget(frame.id);
  if (frame.type === "error") {
    if (frame.code !== "seed_given") showNotice(frame.message || S.refused);   // seed_given: already in
    return;
  }
  applyFrame(frame, (request) => socket.send(request));
  render();
}

const socket = connect({
  path: CONFIG.socket_path,
  onSocket: (current) => { state.socket = current; },
  onOpen: () => {
    // The server sends a snapshot at once; nothing to ask for.
    state.connected = true;
    renderConnection("open");
    render();
  },
  onFrame,
  onClose: (final, code) => {
    state.connected = false;
    state.snapshotWanted = false;
    readRetryCancel();
    if (final && GONE_CLOSES[code] && !state.gone) state.gone = GONE_CLOSES[code];
    renderConnection(state.gone ? "gone" : code === 4503 ? "unavailable" : "closed");
    render();
  }
});
renderConnection("connecting");

// --- keyboard shortcuts ---------------------------------------------------------------
const SHORTCUTS = { s: "see", k: "check", f: "fold", p: "pack", w: "show", d: "sideshow", a: "allin", y: "accept", n: "refuse" };
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  // A question of the page's own is answered with its buttons: "n" there is no "refuse".
  if (target && target.closest && target.closest(".confirm-question")) return;
  const key = event.key.toLowerCase();
  if (key === "c") {
    const verb = legal("chaal") ? "chaal" : legal("call") ? "call" : null;
    if (verb) sendAction(verb);
    return;
  }
  if (key === "r") {
    const go = document.querySelector(".raise-group button[data-verb]");
    if (go) go.click();
    return;
  }
  if (key === "arrowup" || key === "arrowdown") {
    const step = document.querySelector(key === "arrowup" ? ".raise-group .step-up" : ".raise-group .step-down");
    if (step) { step.click(); event.preventDefault(); }
    return;
  }
  const verb = SHORTCUTS[key];
  if (verb && legal(verb)) { sendAction(verb); event.preventDefault(); }
});

// --- the rest of the page --------------------------------------------------------------
$("#see-button").addEventListener("click", () => sendAction("see"));
$("#add-seed").addEventListener("change", offerSeed);
$("#sideshow-accept").addEventListener("click", () => sendAction("accept"));
$("#sideshow-refuse").addEventListener("click", () => sendAction("refuse"));
const copy = $("#copy-link");
if (copy) {
  copy.addEventListener("click", () => {
    const input = $("#join-link");
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
    showNotice(S.link_copied);
  });
}

const copySeat = $("#copy-seat-link");
if (copySeat) {
  copySeat.addEventListener("click", () => {
    const input = $("#seat-link");
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
    showNotice(S.seat_link_copied);
  });
}

window.DashainTable = { state, render, send };
render();
