/* The seats round the table: name, stack, badges, cards, bet, hand label. */

import { $, el, once } from "../dom.js";
import { CONFIG, S, chips, fmt, handLabel, number } from "../words.js";
import { dealerWords, gaveUpWord } from "../game-parts.js";
import { handLive, isToAct, me, nameOf, rules, state } from "../store.js";
import { drawCards } from "./cards.js";

function seatOrder() {
  // Players of the hand in seat order, then seated people not in the hand; me at the bottom.
  const people = [];
  const inHand = {};
  for (const player of (state.hand && state.hand.players) || []) {
    inHand[String(player.name)] = true;
    people.push({ player, seat: state.seats[String(player.name)] });
  }
  for (const [id, seat] of Object.entries(state.seats)) {
    if (!inHand[id] && seat.number !== null && seat.number !== undefined) people.push({ player: null, seat });
  }
  const place = (entry) => (entry.seat && entry.seat.number !== null && entry.seat.number !== undefined ? entry.seat.number : 99);
  people.sort((a, b) => place(a) - place(b));
  // Pass and play: the host's seat stays at the bottom whoever holds the phone, so the seats
  // keep their places while it is passed (issue 28); elsewhere my own seat.
  const anchor = state.phone ? String(CONFIG.seat) : me();
  const mine = people.findIndex((entry) => (entry.player ? String(entry.player.name) : String(entry.seat.id)) === anchor);
  return mine > 0 ? people.slice(mine).concat(people.slice(0, mine)) : people;
}

// Up to 8 seats round the oval: position 0 is the bottom (me). Layout, not a rule.
const POSITIONS = {
  1: [0], 2: [0, 4], 3: [0, 3, 5], 4: [0, 2, 4, 6], 5: [0, 2, 3, 5, 6],
  6: [0, 1, 3, 4, 5, 7], 7: [0, 1, 2, 3, 5, 6, 7], 8: [0, 1, 2, 3, 4, 5, 6, 7]
};

export function renderSeats() {
  once("seats", [state.hand, state.seats, state.you, state.online], drawSeats);
}

function drawSeats() {
  const list = $("#seats");
  list.textContent = "";
  const people = seatOrder();
  const map = POSITIONS[Math.min(people.length, 8)] || [];
  const game = rules();
  const [dealerShort, dealerWord] = dealerWords(game);
  const gaveUp = gaveUpWord(game);
  const perRound = game.bets_per === "round";
  const result = state.hand && state.hand.result;
  const live = handLive();
  people.forEach((entry, i) => {
    const player = entry.player;
    const seat = entry.seat || {};
    const id = player ? String(player.name) : String(seat.id);
    const name = seat.name || nameOf(id);
    // During a hand its view is exact; between hands the seat's own count is (buy-ins included).
    const stack = player && (live || seat.stack === undefined) ? player.stack : seat.stack;
    const badges = el("div", { class: "badges" });
    const description = [name, chips(stack)];
    const badge = (text, extra) => { badges.appendChild(el("span", { class: "badge" + (extra ? " " + extra : ""), text })); };
    if (player && (player.dealer || player.is_button)) {
      badges.appendChild(el("span", { class: "badge badge-dealer", title: S.dealer, text: dealerShort }));
      description.push(dealerWord);
    }
    if (seat.local) { badge(S.on_this_phone, "badge-computer"); description.push(S.on_this_phone); }
    // A person with no page open (issue 28); computers and the host's phone's players have none.
    const offline = state.online && !seat.computer && !seat.local && seat.id !== undefined && !state.online[String(seat.id)];
    if (offline) { badge(S.offline, "badge-offline"); description.push(S.offline); }
    if (seat.computer) { const word = S["computer_" + seat.computer] || seat.computer; badge(word, "badge-computer"); description.push(word); }
    if (isToAct(player)) { badge(S.to_act, "badge-turn"); description.push(S.to_act); }
    if (player && game.has_blind_and_seen && !player.packed && player.seen !== undefined) {
      badge(player.seen ? S.seen : S.blind, player.seen ? "badge-seen" : "badge-blind");
      description.push(player.seen ? S.seen : S.blind);
    }
    if (player && (player.packed || player.folded)) { badge(gaveUp); description.push(gaveUp); }
    if (player && player.all_in) { badge(S.all_in, "badge-turn"); description.push(S.all_in); }
    if (!player && seat.status) { badge(S["seat_" + seat.status] || seat.status); description.push(S["seat_" + seat.status] || ""); }
    const won = result && result.payouts && result.payouts[id] ? result.payouts[id] : 0;
    if (won) { const text = fmt(S.won, { amount: number(won) }); badge(text, "badge-winner"); description.push(text); }
    const cardsBox = el("div", { class: "seat-cards hand-cards-small", "data-cards-of": id });
    if (player) {
      const lit = player.best_cards || (result && result.best_cards && result.best_cards[id]);
      // The hand's own count (a Teen Patti variant may deal four), else the game's.
      const dealt = (state.hand && state.hand.cards_each) || game.hole_cards;
      drawCards(cardsBox, player.cards, player.cards ? 0 : dealt, lit, live);
    }
    const label = player && player.cards && (player.hand || (result && result.hands && result.hands[id]));
    const betShown = player && player.bet && (live || !perRound);
    list.appendChild(el("li", {
      class: "seat",
      "data-seat": id,
      "data-pos": map[i] !== undefined ? map[i] : i % 8,
      "data-me": String(id === me()),
      "data-online": state.online ? String(!!state.online[id]) : "",
      "data-to-act": String(isToAct(player)),
      "data-folded": String(!!(player && (player.packed || player.folded))),
      "aria-label": description.join(", ")
    }, [
      el("div", { class: "name" }, [
        el("span", { class: "seat-name", title: name, text: name }),
        // "1,000 chips"; round the laptop's oval only "1,000", so the name keeps the room (the
        // seat's accessible name says "chips" whole either way; issue 28)
        el("span", { class: "seat-stack", title: chips(stack) }, [
          el("span", { class: "stack-long", text: chips(stack) }),
          el("span", { class: "stack-short", "aria-hidden": "true", text: number(stack) })
        ])
      ]),
      badges,
      betShown ? el("div", { class: "bet", text: fmt(perRound ? S.bet_round : S.bet_hand, { amount: number(player.bet) }) }) : null,
      cardsBox,
      label && label.category && id !== me() ? el("div", { class: "seat-hand", text: handLabel(label) }) : null
    ]));
  });
}
