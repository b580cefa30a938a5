/*
 * families.js: what differs on screen between the families of games, keyed by the family the
 * server names in the game's properties (rules.family): the words for the dealer's badge and
 * for a player who gave up, how the centre states the stakes, and the verbs of the action bar
 * in order (with their keys). Which verbs are allowed now, and what each costs, is still the
 * server's: a bar shows only the verbs in the viewer's legal list.
 */

import { S, fmt, number } from "./words.js";

export const FAMILIES = {
  teenpatti: {
    dealerShort: () => S.dealer_short,
    dealer: () => S.dealer,
    gaveUp: () => S.packed,
    stakes(hand) {
      return fmt(S.stake, { stake: hand.stake, boot: hand.boot });
    },
    // [verb, label(entry), key]; "amount" marks the raise box.
    bar: [
      ["chaal", () => S.chaal, "C"],
      ["raise", () => S.raise_to, "R", "amount"],
      ["show", () => S.show, "W"],
      ["sideshow", () => S.sideshow, "D"],
      ["pack", () => S.pack, "P"]
    ]
  },
  holdem: {
    dealerShort: () => S.button_short,
    dealer: () => S.button,
    gaveUp: () => S.folded,
    stakes(hand, live, call) {
      let text = fmt(S.blinds, { small: hand.small_blind, big: hand.big_blind });
      // What calling costs this viewer now: the same figure as the Call button.
      if (live && call) text += " · " + fmt(S.current_bet, { amount: number(call.cost) });
      // Side pots as they form (the view lists the pots collected so far, main pot first).
      if (live && hand.pots && hand.pots.length > 1) {
        text += " · " + hand.pots.map((pot, i) =>
          fmt(S.pot_line_short, { pot: i ? fmt(S.side_pot, { number: i }) : S.main_pot, amount: number(pot.amount) })).join(" · ");
      }
      return text;
    },
    bar: [
      ["check", () => S.check, "K"],
      ["call", (entry) => fmt(S.call_amount, { amount: number(entry.cost) }), "C"],
      ["bet", () => S.bet, "R", "amount"],
      ["raise", () => S.raise_to, "R", "amount"],
      ["allin", (entry) => fmt(S.all_in_amount, { amount: number(entry.cost) }), "A"],
      ["fold", () => S.fold, "F"]
    ]
  }
};

export function family(rules) {
  return FAMILIES[rules.family] || FAMILIES.teenpatti;
}
