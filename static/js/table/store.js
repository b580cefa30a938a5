/*
 * store.js: what the page knows of the table, and how each frame from the server changes it.
 *
 * Owns the page's state and the protocol of docs/live-play.md from the page's side:
 *  - a snapshot (at connect, or after a gap too large to fill) replaces everything;
 *  - an events frame carries the news in seq order and, with it, this viewer's screen
 *    (the table and seats when they changed, the hand as this viewer may see it, the
 *    turn): the page applies it and asks for nothing;
 *  - the log in words is filled from the events before the snapshot (a resync) and
 *    then grows with the news.
 * The store decides no rule: legal moves, costs, pots, who won what and which cards
 * show all come from the server.
 */

import { CONFIG, S, describe, fmt } from "./words.js";

export const state = {
  lastSeq: 0,
  you: null,
  table: null,        // the table's public summary: status, host, settings, rules
  seats: {},          // seat id (string) -> {id, name, number, stack, status, ...}
  hand: null,         // this viewer's view of the live (or last finished) hand, with number and finished
  turn: null,         // {player, legal, deadline} of the live hand, or null
  log: [],            // [{seq, text}] of the current hand
  finalStacks: {},
  placings: [],                // hold'em: the game's placings (book 001), first place first
  connected: false,
  socket: null,       // the open WebSocket (tests close it to try the reconnect)
  snapshotWanted: false,
  seedFor: null,      // the hand this browser last gave a seed for
  reminder: null,     // the last reminder event's data, until the turn moves on
  requests: [],       // requests to the host not answered yet: [{request, seat, name, what, number}]
  denied: null,       // what the host last said no to me for ("seat" | "buy_back"), until I ask again or buy in (a snapshot says it too)
  phone: null,        // pass and play, on the host's phone: {seats, holding, pass_to} as the server says
  gone: null,         // "banned" | "moved" | "gone": this page's seat is no longer its own (issue 28)
  online: null,       // {seat id: true} of the seats with a page open (null: not known), as the server says
  actedForMe: null    // what the host did for this page's player in this hand ("Asha acted for you: ..."), or null
};

const LOG_REQUEST = "hand-log";
const CATCH_UP = "catch-up:";
const LOG_LOOKBACK = 400;

export function nameOf(seatId) {
  if (seatId === null || seatId === undefined) return "";
  const seat = state.seats[String(seatId)];
  return seat ? seat.name : String(seatId);
}

/** A dealing of the table's own record (the engine's opening event shares the kind, without a number). */
function isDeal(event) {
  return event.kind === "hand_started" && event.data && event.data.number !== undefined;
}

function setSeats(list) {
  state.seats = {};
  for (const seat of list) state.seats[String(seat.id)] = seat;
}

function setHand(hand) {
  if (!hand) {
    state.hand = null;
    state.turn = null;
    return;
  }
  const sameHand = state.hand && state.hand.number === hand.number;
  state.hand = Object.assign({}, hand.view, { number: hand.number, finished: !!hand.finished, dealer_seat: hand.dealer });
  const before = state.turn;
  state.turn = hand.turn || null;
  if (!sameHand) state.reminder = null;
  // The turn's clock started again (the host resumed): an old reminder no longer stands.
  else if (before && state.turn && before.deadline !== state.turn.deadline) state.reminder = null;
}

/**
 * Apply one frame. ``send`` sends a frame back (the page's only requests here: the log in
 * words at connect, a snapshot when too far behind). Returns the events that were new.
 */
export function applyFrame(frame, send) {
  switch (frame.type) {
    case "snapshot": applySnapshot(frame, send); return [];
    case "events":
      if (frame.id === LOG_REQUEST) { fillLog(frame.events || []); return []; }
      if (typeof frame.id === "string" && frame.id.indexOf(CATCH_UP) === 0) { catchUp(frame.events || [], frame.id); return []; }
      return applyEvents(frame, send);
    case "presence":
      // A seat came online or has no page open any more (tables/presence.py).
      if (state.online) {
        const online = Object.assign({}, state.online);
        if (frame.online) online[String(frame.seat)] = true;
        else delete online[String(frame.seat)];
        state.online = online;
      }
      return [];
    case "pong":
      // The server's last seq for this socket: behind it, news was lost on the way.
      if (typeof frame.seq === "number" && frame.seq > state.lastSeq) wantSnapshot(send);
      return [];
    default:
      return [];
  }
}

function wantSnapshot(send) {
  if (state.snapshotWanted) return;
  state.snapshotWanted = true;
  send({ type: "snapshot" });
}

function applySnapshot(frame, send) {
  state.snapshotWanted = false;
  const first = !state.table;
  const previousSeq = state.lastSeq;
  state.lastSeq = frame.seq || 0;
  state.you = frame.you;
  state.phone = frame.phone || null;
  state.online = Array.isArray(frame.online) ? Object.fromEntries(frame.online.map((id) => [String(id), true])) : null;
  if (frame.table) state.table = frame.table;
  if (frame.seats) setSeats(frame.seats);
  setHand(frame.hand);
  state.requests = frame.requests || [];
  state.denied = frame.denied || null;
  if (first || !state.log.length) {
    // The log in words of the current (or last) hand, from the events before now.
    send({ type: "resync", after: Math.max(0, state.lastSeq - LOG_LOOKBACK), id: LOG_REQUEST });
  } else if (previousSeq && state.lastSeq > previousSeq) {
    // The snapshot jumped over news (a reconnect): fetch it for the log in words.
    send({ type: "resync", after: previousSeq, id: CATCH_UP + previousSeq + ":" + state.lastSeq });
  }
}

// The host's move for an away player: its record ("action" with by_seat) waits for the
// move's own sentence, which follows it in the log: "Asha acted for Bikash: Bikash calls 20."
let actedFor = null;

function logLine(event) {
  const d = event.data || {};
  if (event.kind === "action" && d.by === "host" && d.total === undefined) {
    const player = nameOf(d.player);
    const text = d.by_seat === undefined || d.by_seat === null
      ? fmt(S.log_host_acted_for, { player })
      : fmt(S.log_acted_for, { host: nameOf(d.by_seat), player });
    actedFor = { seq: event.seq, text, player: String(d.player), host: d.by_seat === undefined ? "" : nameOf(d.by_seat) };
    return null;
  }
  let text = describe(event, nameOf);
  if (text && actedFor && event.seq > actedFor.seq) {
    // The page of the player acted for says what was done for them until the next deal.
    if (actedFor.player === String(CONFIG.seat)) state.actedForMe = fmt(S.acted_for_you, { host: actedFor.host || S.the_host }) + " " + text;
    text = actedFor.text + " " + text;
    actedFor = null;
  }
  return text ? { seq: event.seq, text } : null;
}

function gameEnded(data) {
  state.finalStacks = (data || {}).final_stacks || {};
  state.placings = (data || {}).placings || [];
  state.endedBy = (data || {}).reason || "";
}

function fillLog(events) {
  // Events up to the snapshot's seq: only the words of the latest hand are kept.
  let start = -1;
  events.forEach((event, i) => { if (isDeal(event)) start = i; });
  for (const event of events) if (event.kind === "game_ended") gameEnded(event.data);
  const lines = [];
  state.actedForMe = null;
  for (const event of events.slice(start < 0 ? events.length : start)) {
    if (event.seq > state.lastSeq) continue;
    const line = logLine(event);
    if (line) lines.push(line);
  }
  state.log = lines;
}

function catchUp(events, id) {
  const [after, upTo] = id.slice(CATCH_UP.length).split(":").map(Number);
  for (const event of events) {
    if (!event.kind || event.seq <= after || event.seq > upTo) continue;
    if (isDeal(event)) { state.log = state.log.filter((line) => line.seq > event.seq); state.actedForMe = null; }
    if (event.kind === "game_ended") gameEnded(event.data);
    // My seat banned, or its guest's seat link opened in another browser: the server
    // closes this socket next; the page says why at once.
    if ((event.kind === "seat_banned" || event.kind === "seat_moved") && String((event.data || {}).seat) === String(CONFIG.seat)) {
      state.gone = event.kind === "seat_banned" ? "banned" : "moved";
    }
    if (state.log.some((line) => line.seq === event.seq)) continue;
    const line = logLine(event);
    if (line) state.log.push(line);
  }
  state.log.sort((a, b) => a.seq - b.seq);
}

function applyEvents(frame, send) {
  const fresh = [];
  let gap = false;
  for (const event of frame.events || []) {
    if (event.seq <= state.lastSeq) continue;            // already held
    if (event.seq !== state.lastSeq + 1) { gap = true; break; }
    state.lastSeq = event.seq;
    if (!event.kind) continue;                           // an event this viewer may not see
    if (isDeal(event)) { state.log = []; state.actedForMe = null; }
    const line = logLine(event);
    if (line) state.log.push(line);
    if (event.kind === "reminder") state.reminder = event.data || {};
    if (event.kind === "turn" && (event.data || {}).new) state.reminder = null;
    if (event.kind === "game_ended") gameEnded(event.data);
    noteAnswer(event);
    fresh.push(event);
  }
  if (gap) {
    // The server sends every seq in order; a hole means this page lost frames: start again.
    wantSnapshot(send);
    return fresh;
  }
  // Pass and play: who holds the phone now (the server filtered this frame with their eyes).
  if (frame.phone) state.phone = frame.phone;
  const screen = frame.screen;
  if (screen && screen.seq === state.lastSeq) {
    if (screen.table) state.table = screen.table;
    if (screen.seats) setSeats(screen.seats);
    if ("hand" in screen) setHand(screen.hand);
    if (screen.requests) state.requests = screen.requests;
  }
  return fresh;
}

/** The host's answer to my own request (a denial stays on my screen until I ask again or buy in). */
function noteAnswer(event) {
  const data = event.data || {};
  if (String(data.seat) !== owner()) return;
  if (event.kind === "request_denied") state.denied = data.what;
  if (event.kind === "request_made" || event.kind === "request_approved") state.denied = null;
  if (event.kind === "seat_taken" || event.kind === "seat_bought_back") state.denied = null;  // bought in since: the no is past
}

/** My request waiting for the host's answer, or null. */
export function myRequest() {
  return state.requests.find((request) => String(request.seat) === owner()) || null;
}

/** Whether I ask the host for a seat or a buy-back here (the table's setting; never the host). */
export function mustAsk() {
  const settings = (state.table && state.table.settings) || {};
  return !!settings.approve_seats && !CONFIG.is_host;
}

// --- questions the regions ask ------------------------------------------------------

/** The seat whose cards and moves this page shows: mine; on a passed phone, the holder's (or nobody's). */
export function me() {
  if (state.phone) return state.phone.holding === null || state.phone.holding === undefined ? "" : String(state.phone.holding);
  return String(CONFIG.seat);
}

/** The seat this page was opened with (on a passed phone: the host's own, whoever holds it). */
export function owner() {
  return String(CONFIG.seat);
}

export function myPlayer() {
  const players = (state.hand && state.hand.players) || [];
  return players.find((player) => String(player.name) === me()) || null;
}

export function handLive() {
  return !!(state.hand && !state.hand.finished && !state.hand.result);
}

export function legal(verb) {
  const list = (handLive() && state.hand.legal) || [];
  return list.find((entry) => entry.verb === verb) || null;
}

export function isToAct(player) {
  if (!player || !handLive()) return false;
  if (player.to_act !== undefined) return !!player.to_act;
  return state.hand.to_act !== null && String(state.hand.to_act) === String(player.name);
}

export function mySeat() {
  return state.seats[owner()] || null;
}

/** The owner's player in the hand (their seat's controls), whoever holds a passed phone. */
export function ownPlayer() {
  const players = (state.hand && state.hand.players) || [];
  return players.find((player) => String(player.name) === owner()) || null;
}

/** The game's properties the page draws by (sent by the server; see docs/live-play.md). */
export function rules() {
  return (state.table && state.table.rules) || CONFIG.rules || {};
}
