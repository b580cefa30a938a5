/*
 * cards.js: the card faces, drawn by the site itself as inline SVG (no images, no fonts
 * to fetch). Owns turning a card ("As", "Td", "10d", or the engine's integer
 * (rank - 2) * 4 + suit) into an <svg> element with a screen-reader label.
 *
 *   DashainCards.setLabels(strings)   // translated rank/suit names from the page
 *   DashainCards.element(card, {lit: true})   // a face-up card
 *   DashainCards.back()                // a face-down card
 *   DashainCards.parse("Td")           // {rank: "T", suit: "d"}
 */
(function (global) {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var RANKS = "23456789TJQKA";
  var SUITS = "shdc";
  var SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  var RANK_SHOWN = { T: "10" };
  var RED_SUITS = { h: true, d: true };
  var backCount = 0;

  // English fallbacks; the page replaces them with its translated strings.
  var labels = {
    ranks: {
      A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
      7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two"
    },
    suits: { s: "spades", h: "hearts", d: "diamonds", c: "clubs" },
    of: "%(rank)s of %(suit)s",
    back: "Face-down card"
  };

  function setLabels(strings) {
    if (!strings) return;
    if (strings.ranks) labels.ranks = strings.ranks;
    if (strings.suits) labels.suits = strings.suits;
    if (strings.of) labels.of = strings.of;
    if (strings.back) labels.back = strings.back;
  }

  /** {rank, suit} from "As", "Td", "10d" or an integer card; null if it is not a card. */
  function parse(card) {
    if (typeof card === "number" && card >= 0 && card < 52) {
      return { rank: RANKS.charAt(Math.floor(card / 4)), suit: SUITS.charAt(card % 4) };
    }
    if (typeof card !== "string") return null;
    var body = card.trim();
    if (body.length === 3 && body.slice(0, 2) === "10") body = "T" + body.charAt(2);
    if (body.length !== 2) return null;
    var rank = body.charAt(0).toUpperCase();
    var suit = body.charAt(1).toLowerCase();
    if (RANKS.indexOf(rank) < 0 || SUITS.indexOf(suit) < 0) return null;
    return { rank: rank, suit: suit };
  }

  /** The spoken name of a card, e.g. "Ten of diamonds". */
  function label(card) {
    var parsed = parse(card);
    if (!parsed) return labels.back;
    return labels.of
      .replace("%(rank)s", labels.ranks[parsed.rank])
      .replace("%(suit)s", labels.suits[parsed.suit]);
  }

  function svgElement(name, attributes) {
    var node = document.createElementNS(SVG_NS, name);
    for (var key in attributes) {
      if (Object.prototype.hasOwnProperty.call(attributes, key)) node.setAttribute(key, attributes[key]);
    }
    return node;
  }

  function text(x, y, size, content, extra) {
    var node = svgElement("text", Object.assign({
      x: x, y: y, "font-size": size, "text-anchor": "middle",
      "font-family": "system-ui, -apple-system, 'Segoe UI', sans-serif", "font-weight": "700"
    }, extra || {}));
    node.textContent = content;
    return node;
  }

  function frame(className, title) {
    var svg = svgElement("svg", {
      viewBox: "0 0 60 84", class: "playing-card " + className, role: "img", "aria-label": title,
      focusable: "false"
    });
    svg.appendChild(svgElement("rect", {
      x: 1, y: 1, width: 58, height: 82, rx: 6, ry: 6, class: "card-edge"
    }));
    return svg;
  }

  /** A face-up card; options.lit marks it as one of the winning cards. */
  function element(card, options) {
    options = options || {};
    var parsed = parse(card);
    if (!parsed) return back();
    var svg = frame("card-face suit-" + parsed.suit + (RED_SUITS[parsed.suit] ? " card-red" : " card-black") +
      (options.lit ? " card-lit" : ""), label(card));
    svg.setAttribute("data-card", parsed.rank + parsed.suit);
    var rankText = RANK_SHOWN[parsed.rank] || parsed.rank;
    var symbol = SUIT_SYMBOL[parsed.suit];
    svg.appendChild(text(12, 20, rankText.length > 1 ? 14 : 17, rankText, { class: "card-ink" }));
    svg.appendChild(text(12, 34, 13, symbol, { class: "card-ink" }));
    svg.appendChild(text(30, 60, 30, symbol, { class: "card-ink" }));
    var corner = text(48, 76, rankText.length > 1 ? 14 : 17, rankText, {
      class: "card-ink", transform: "rotate(180 48 71)"
    });
    svg.appendChild(corner);
    return svg;
  }

  /** A face-down card: a lattice pattern drawn with plain lines. */
  function back(options) {
    options = options || {};
    var svg = frame("card-back", options.label || labels.back);
    backCount += 1;
    var clipId = "card-back-clip-" + backCount;
    var clip = svgElement("clipPath", { id: clipId });
    clip.appendChild(svgElement("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, ry: 3 }));
    svg.appendChild(clip);
    var group = svgElement("g", { class: "card-pattern", "clip-path": "url(#" + clipId + ")" });
    group.appendChild(svgElement("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, ry: 3 }));
    for (var offset = -60; offset <= 60; offset += 8) {
      group.appendChild(svgElement("line", { x1: 6 + offset, y1: 6, x2: 54 + offset, y2: 78 }));
      group.appendChild(svgElement("line", { x1: 54 - offset, y1: 6, x2: 6 - offset, y2: 78 }));
    }
    svg.appendChild(group);
    return svg;
  }

  global.DashainCards = { setLabels: setLabels, parse: parse, label: label, element: element, back: back };
})(window);
