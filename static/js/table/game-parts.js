/*
 * game-parts.js: how the page lays out what differs between games, read from the game's
 * properties the server sends (table.rules, engine.api.TableRules; docs/architecture.md),
 * never from the game's name.
 *
 *  - the action bar: every verb of the game in the game's own order (rules.action_verbs),
 *    each with its label and key; which of them are allowed now, and what each costs,
 *    is the viewer's legal list from the server;
 *  - the words: the dealer's badge (the button), a player who gave up (packed / folded);
 *  - the stakes line: the boot and stake, or the blinds and what calling costs.
 */

import { S, fmt, number } from "./words.js";
import { nameOf } from "./store.js";

// verb -> [label(entry), key, is the amount box]. "see", "accept" and "refuse" have their
// own controls (the see button, the sideshow question).
const VERBS = {
  chaal: [() => S.chaal, "C"],
  check: [() => S.check, "K"],
  call: [(entry) => fmt(S.call_amount, { amount: number(entry.cost) }), "C"],
  bet: [() => S.bet, "R", true],
  raise: [() => S.raise_to, "R", true],
  allin: [(entry) => fmt(S.all_in_amount, { amount: number(entry.cost) }), "A"],
  show: [() => S.show, "W"],
  // The server names whom a sideshow would ask (the rule book's "player before you").
  sideshow: [(entry) => (entry.partner ? fmt(S.sideshow_with, { partner: nameOf(entry.partner) }) : S.sideshow), "D"],
  pack: [() => S.pack, "P"],
  fold: [() => S.fold, "F"]
};

/** The action bar's verbs in the game's order: [verb, label(entry), key, is the amount box]. */
export function barVerbs(rules) {
  return (rules.action_verbs || []).filter((verb) => VERBS[verb]).map((verb) => [verb, ...VERBS[verb]]);
}

export function dealerWords(rules) {
  return rules.dealer_is_button ? [S.button_short, S.button] : [S.dealer_short, S.dealer];
}

export function gaveUpWord(rules) {
  return rules.fold_verb === "fold" ? S.folded : S.packed;
}

/** The line under the pot: how the money goes in (rules.forced_bets). */
export function stakesLine(rules, hand, live, call) {
  if (rules.forced_bets !== "blinds") {
    const line = fmt(S.stake, { stake: number(hand.stake), boot: number(hand.boot) });
    // A Teen Patti variant (docs/rules.md, "Variants") is named under the pot for everyone.
    return hand.variant && hand.variant !== "none" ? line + " · " + (S["variant_" + hand.variant] || hand.variant) : line;
  }
  let text = fmt(S.blinds, { small: number(hand.small_blind), big: number(hand.big_blind) });
  // What calling costs this viewer now: the same figure as the Call button.
  if (live && call) text += " · " + fmt(S.current_bet, { amount: number(call.cost) });
  // Side pots as they form (the view lists the pots collected so far, main pot first).
  if (live && hand.pots && hand.pots.length > 1) {
    text += " · " + hand.pots.map((pot, i) =>
      fmt(S.pot_line_short, { pot: i ? fmt(S.side_pot, { number: i }) : S.main_pot, amount: number(pot.amount) })).join(" · ");
  }
  return text;
}
