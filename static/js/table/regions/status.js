/* The table's status line (the state of play in words), the connection badge, the turn
 * reminder, the notice line, the game's end. */

import { $ } from "../dom.js";
import { CONFIG, S, fmt, money, number } from "../words.js";
import { handLive, isToAct, me, myPlayer, nameOf, state } from "../store.js";
import { clockText } from "./clock.js";

export function renderConnection(which) {
  const badge = $("#connection");
  badge.setAttribute("data-state", which);
  badge.textContent = S["connection_" + which];
  $("#table-root").setAttribute("data-connection", which);
}

export function renderHeader() {
  const status = state.table && state.table.status;
  // The host ended the game during a hand: it ends when that hand ends (game_ending).
  const ending = status && status !== "ended" && state.table.ending;
  $("#table-status").textContent = ending ? S.status_ending : status ? (S["status_" + status] || status) : "";
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
  // Issue 25: everyone sees a game the host ended (its placings are the stacks at that moment).
  // A game without placings (Teen Patti) is said to be ended, not placed.
  $("#game-over-by-host").hidden = state.endedBy !== "host" || !placings.length;
  $("#game-over-by-host-unplaced").hidden = state.endedBy !== "host" || placings.length > 0;
  if (placings.length) {
    // Book 001: every player placed, by chips, then the order out; level players share a place.
    // A pool shared by places (issue 25): each placing carries the prize the ledger recorded.
    const line = (p) => {
      const words = { place: p.place, name: nameOf(String(p.seat)), chips: number(p.chips) };
      if (p.prize !== undefined) return fmt(S.placing_prize, { ...words, prize: inCurrency(p.prize) });
      if (p.net !== undefined) {  // by chips, for money: what each won or lost
        const net = Number(p.net);
        return fmt(S.placing_net, { ...words, net: (net > 0 ? "+" : net < 0 ? "\u2212" : "") + inCurrency(Math.abs(net)) });
      }
      return fmt(S.placing, words);
    };
    $("#game-over-stacks").textContent = fmt(S.placings, { placings: placings.map(line).join(" · ") });
    return;
  }
  const finals = state.finalStacks || {};
  // Everyone who played (bought in), a player who ended with nothing too; not a watcher.
  const played = (id) => finals[id] > 0 || ((state.seats[id] || {}).buy_ins || 0) > 0;
  const text = Object.keys(finals).filter(played).map((id) => nameOf(id) + " " + number(finals[id])).join(" · ");
  $("#game-over-stacks").textContent = text ? fmt(S.final_stacks, { stacks: text }) : "";
}

/** An amount with the host's currency, placed as the ledger's pages place it (in_currency). */
function inCurrency(amount) {
  if (!CONFIG.currency) return money(amount);
  const german = (document.documentElement.lang || "").startsWith("de");
  return german ? money(amount) + "\u00a0" + CONFIG.currency : CONFIG.currency + "\u00a0" + money(amount);
}

/*
 * What is at stake (issue 25): a table played for money says the price and, for a hold'em
 * pool shared by places, the pool so far (every buy-in of the players seated before the
 * start) beside the payout table the server wrote into #stake-line. Before the start only:
 * once the cards are out the felt and the action bar need the height (the game-over box
 * says what each player won).
 */
export function renderStake() {
  const box = document.getElementById("stake-pool");
  if (!box || !CONFIG.stake) return;
  const seats = Object.values(state.seats || {});
  const waiting = !state.table || state.table.status === "waiting";
  const line = document.getElementById("stake-line");
  if (line) line.hidden = !waiting;
  if (!waiting && box.textContent) return;  // the pool is fixed from the start
  const bought = seats.filter((s) => s.number !== null && s.number !== undefined).reduce((n, s) => n + (s.buy_ins || 0), 0);
  const cents = Math.round(Number(CONFIG.stake.price) * 100) * bought;  // whole cents: no float drift
  box.textContent = fmt(S.stake_pool, { pool: inCurrency((cents / 100).toFixed(2)), players: number(bought) });
}

let noticeTimer = null;
export function showNotice(text) {
  const box = $("#notice");
  box.textContent = text || "";
  window.clearTimeout(noticeTimer);
  if (text) noticeTimer = window.setTimeout(() => { box.textContent = ""; }, 8000);
}

/*
 * The state of play, said plainly (issue 16): one phase, written to #table-root[data-phase]
 * (for the stylesheet and the tests) and, in words, to the status line under the head.
 *
 *   connecting      before the first snapshot (the connection badge says it)
 *   gone            this page's seat is not its own any more: banned, or (a guest) opened
 *                   in another browser by its seat link; nothing is retried (issue 28)
 *   lost            the connection dropped (the page is reconnecting)
 *   ended           the game is over (the game-over box has the final chips)
 *   paused          the host paused (table_alerts.js covers the felt and disables actions)
 *   waiting         the game has not started, or too few players have chips for a deal
 *   between-hands   the last hand's result stays; the next deal is due at table.next_deal_at
 *   dealing         that time has come: the table clock is dealing the next hand
 *   sideshow-asked  a sideshow is asked of me (the question box has Accept / Refuse)
 *   your-turn       my turn ("Your turn." has its own banner)
 *   their-turn      someone else's turn
 *
 * Every fact comes from the server (the table's status and next deal, the hand, the
 * turn); the page only tells the time against next_deal_at, as the turn's clock does.
 */
let dealTicking = null;

function nextDealIn() {
  const at = state.table && state.table.next_deal_at;
  return at ? Date.parse(at) - Date.now() : NaN;
}

export function phase() {
  const root = $("#table-root");
  const status = state.table && state.table.status;
  if (state.gone) return "gone";
  if (["closed", "unavailable"].includes(root.getAttribute("data-connection"))) return "lost";
  if (!status) return "connecting";   // nothing known yet: the badge says "Connecting…"
  if (status === "ended") return "ended";
  if (status === "paused") return "paused";
  if (status === "waiting") return "waiting";
  if (!handLive()) {
    const wait = nextDealIn();
    if (Number.isNaN(wait)) return "waiting";
    return wait > 0 ? "between-hands" : "dealing";
  }
  const pending = state.hand.sideshow;
  if (pending && String(pending.partner) === me()) return "sideshow-asked";
  return isToAct(myPlayer()) ? "your-turn" : "their-turn";
}

function phaseWords(which) {
  switch (which) {
    case "gone": return S["gone_" + state.gone] || S.gone_gone;
    case "lost": return S["connection_" + $("#table-root").getAttribute("data-connection")] || S.connection_closed;
    case "ended": return S.log_game_ended;
    case "paused": return S.paused_line;
    case "waiting": return state.table && state.table.status === "playing" ? S.waiting_for_chips : S.waiting_for_start;
    case "between-hands": return fmt(S.next_hand_in, { time: clockText(nextDealIn()) });
    case "dealing": return S.dealing;
    case "their-turn": {
      const player = state.turn ? state.turn.player : state.hand.to_act;
      return player === null || player === undefined ? "" : fmt(S.their_turn, { player: nameOf(player) });
    }
    default: return "";   // your turn and a sideshow asked of you have their own banners; connecting, the badge
  }
}

export function renderPhase() {
  const which = phase();
  const root = $("#table-root");
  if (root.getAttribute("data-phase") !== which) root.setAttribute("data-phase", which);
  const line = $("#turn-status");
  const text = phaseWords(which);
  if (line.textContent !== text) line.textContent = text;
  line.hidden = !text;
  const gone = $("#gone");
  if (gone) gone.hidden = which !== "gone";
  const empty = $("#empty-table");
  if (empty && !state.hand) empty.textContent = text || S.waiting_next_hand;
  // Count down to the next deal, and say "dealing" when its time comes, without news.
  const counting = which === "between-hands";
  if (counting && dealTicking === null) dealTicking = window.setInterval(renderPhase, 1000);
  if (!counting && dealTicking !== null) {
    window.clearInterval(dealTicking);
    dealTicking = null;
  }
}
