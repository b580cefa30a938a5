/*
 * words.js: every word the table page shows, from the translated strings the server put in
 * #table-config (Django's gettext); "%(name)s" placeholders are filled by fmt().
 *
 * Owns: fmt, chips, a player's name from their seat id, hand labels, and the log in words
 * (describe: one event -> one sentence, or null for events the log does not tell).
 */

const config = JSON.parse(document.getElementById("table-config").textContent);
export const S = config.strings;
export const CONFIG = config;

export function fmt(template, params) {
  return String(template || "").replace(/%\((\w+)\)[sd]/g, (_, name) =>
    params && params[name] !== undefined && params[name] !== null ? params[name] : "");
}

// Numbers in the page's language with the digits 0-9 (docs/glossary-ne.md, -hi.md):
// grouping as the language writes it (1,000 / 1.000 / 1,00,000), never ५० for 50.
const NUMBER_LOCALE = (document.documentElement.lang || "en") + "-u-nu-latn";

export function number(n) {
  return Number(n || 0).toLocaleString(NUMBER_LOCALE);
}

/** A price as the host set it ("10.00"), grouped in the page's language with two decimals. */
export function money(amount) {
  return Number(amount || 0).toLocaleString(NUMBER_LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function chips(n) {
  return fmt(S.chips, { n: number(n) });
}

export function handLabel(hand) {
  const name = S["category_" + hand.category] || hand.category;
  return hand.value !== undefined ? name + " " + hand.value : name;
}

/** The sentence for one event of the log, or null. ``nameOf`` maps a seat id to a name. */
export function describe(event, nameOf) {
  const d = event.data || {};
  // Every quantity grouped as the page's language writes it (2,000, never 2000).
  const count = (n) => (n === undefined || n === null ? n : number(n));
  const p = {
    player: nameOf(d.player), amount: count(d.amount), stake: count(d.stake), partner: nameOf(d.partner),
    asker: nameOf(d.asker), against: nameOf(d.against), pot: count(d.pot), number: d.number, total: count(d.total),
    name: d.name || nameOf(d.seat)
  };
  switch (event.kind) {
    case "hand_started": {
      if (d.number === undefined) return null;
      const started = fmt(S.log_hand_started, { number: d.number, dealer: nameOf(d.dealer) });
      // A Teen Patti variant (docs/rules.md, "Variants") is said with the hand it is played in.
      const variant = (d.settings || {}).variant;
      if (d.variant_called) return started + " " + fmt(S.log_dealer_calls, { variant: S["variant_" + variant] || S.variant_none });
      return variant && S["variant_" + variant] ? started + " " + S["variant_" + variant] + "." : started;
    }
    case "variant_called": return fmt(S.log_variant_called, { player: nameOf(d.seat), variant: S["variant_" + d.variant] || S.variant_none });
    case "boot": return fmt(S.log_boot, p);
    case "blind": return fmt(d.blind === "small" ? S.log_small_blind : S.log_big_blind, p);
    case "dealt": return S.log_dealt;
    case "joker": return fmt(S.log_joker, { card: d.card });
    case "see": return fmt(S.log_see, p);
    case "chaal": return fmt(d.blind ? S.log_chaal_blind : S.log_chaal_seen, p);
    case "raise": return fmt(d.blind ? S.log_raise_blind : S.log_raise_seen, p);
    case "pack": return fmt(d.reason === "sideshow" ? S.log_pack_sideshow : S.log_pack, p);
    case "sideshow": return fmt(S.log_sideshow, p);
    case "sideshow_accepted": return fmt(S.log_sideshow_accepted, p);
    case "sideshow_refused": return fmt(S.log_sideshow_refused, p);
    case "sideshow_result": return fmt(S.log_sideshow_result, { loser: nameOf(d.loser) });
    case "show": return d.cards ? fmt(S.log_shows, { player: p.player, cards: d.cards.join(" ") }) : fmt(S.log_show, p);
    case "showdown": return S.log_showdown;
    case "muck": return fmt(S.log_muck, p);
    case "hand_finished": return d.payouts ? describeFinish(d, nameOf) : null;
    case "pot_awarded": return describePot(d, nameOf);
    case "hand_ended": return fmt(S.log_hand_over, { number: d.number });
    case "hand_void": return S.log_hand_void;
    case "uncalled": return fmt(S.log_uncalled, p);
    case "board": return fmt(S.log_board, { street: S["street_" + d.street] || d.street || "", cards: (d.cards || []).join(" ") });
    case "action":
      // Hold'em's own account of a move carries the round total; the table's record of a
      // request (player, verb) is told by the events that follow it.
      if (d.total === undefined) return null;
      if (d.all_in) return fmt(S.log_allin, p);
      return fmt(S["log_" + d.verb] || "%(player)s: " + d.verb, p);
    case "reminder": return fmt(S.log_reminder, p);
    case "seat_joined": return fmt(S.log_seat_joined, p);
    case "seat_taken": return fmt(S.log_seat_taken, { name: p.name, stack: count(d.stack) });
    case "seat_bought_back": return fmt(S.log_seat_bought_back, { name: nameOf(d.seat), chips: count(d.chips) });
    case "seat_sat_out": return fmt(S.log_seat_sat_out, { name: nameOf(d.seat) });
    case "seat_came_back": return fmt(S.log_seat_came_back, { name: nameOf(d.seat) });
    case "seat_removed": return fmt(S.log_seat_removed, { name: nameOf(d.seat) });
    case "seat_left": case "seat_out": return fmt(S.log_seat_left, { name: nameOf(d.seat) });
    case "seat_banned": return fmt(S.log_seat_banned, p);
    case "invite_rotated": return S.log_invite_rotated;
    case "request_made": return fmt(d.what === "buy_back" ? S.log_request_buy_back : d.what === "join" ? S.log_request_join : d.what === "claim" ? S.log_request_claim : S.log_request_seat, p);
    case "request_approved": return d.what === "join" ? fmt(S.log_request_join_approved, p) : d.what === "claim" ? fmt(S.log_request_claim_approved, p) : null;   // a seat or buy-back: told by the event after it
    case "request_denied": return fmt(d.what === "claim" ? S.log_request_claim_denied : S.log_request_denied, p);
    case "request_cancelled": if (d.what === "claim") return fmt(S.log_request_claim_cancelled, p); return fmt(S.log_request_cancelled, { name: d.seat === null || d.seat === undefined ? d.name || "" : nameOf(d.seat) });
    case "game_started": return S.log_game_started;
    case "game_paused": return S.log_game_paused;
    case "game_resumed": return S.log_game_resumed;
    case "game_ending": return S.log_game_ending;
    case "game_ended": return d.reason === "host" ? S.log_game_ended_by_host : S.log_game_ended;
    case "settings_changed": return S.log_settings_changed;
    default: return null;
  }
}

function describePot(d, nameOf) {
  const winners = (d.winners || []).map(nameOf).join(", ");
  const label = d.pot ? fmt(S.side_pot, { number: d.pot }) : S.main_pot;
  return fmt(S.log_pot_awarded, { pot: label, amount: number(d.amount), winners });
}

function describeFinish(d, nameOf) {
  const payouts = d.payouts || {};
  const parts = Object.keys(payouts).filter((name) => payouts[name] > 0)
    .map((name) => fmt(S.log_wins, { player: nameOf(name), amount: number(payouts[name]) }));
  return parts.length ? parts.join(" ") : S.log_hand_over;
}
