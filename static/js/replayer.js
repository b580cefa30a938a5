/*
 * replayer.js: steps through one hand of a table's history, forward and back.
 *
 * Owns the hand page's replayer. The server hands it, in <script id="replay-data">,
 * the steps already filtered for this viewer (tables/history.py): each step has the
 * sentences of what happened and the engine's own view of the table at that moment
 * as this viewer saw it. Nothing here decides what may be seen; it only draws.
 *
 * Keys: left/right arrows step back/forward, Home/End jump to the deal/the end.
 */
(function () {
  "use strict";

  var root = document.getElementById("replayer");
  var dataNode = document.getElementById("replay-data");
  if (!root || !dataNode) return;
  var data = JSON.parse(dataNode.textContent);
  var steps = data.steps || [];
  var names = data.names || {};
  var strings = data.strings || {};
  if (window.DashainCards && strings.cards) window.DashainCards.setLabels(strings.cards);
  var svg = root.querySelector(".replayer__table");
  var seatsBox = root.querySelector(".replayer__seats");
  var wordsBox = root.querySelector(".replayer__words");
  var positionBox = root.querySelector(".replayer__position");
  var SVG_NS = "http://www.w3.org/2000/svg";
  var index = 0;

  function nameOf(engineName) {
    return Object.prototype.hasOwnProperty.call(names, engineName) ? names[engineName] : String(engineName);
  }

  function format(template, values) {
    return String(template).replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }

  var language = document.documentElement.lang || undefined;
  function number(value) {
    // grouped as the page's own numbers are (2,000), in the page's language
    return typeof value === "number" ? value.toLocaleString(language) : String(value);
  }

  function svgNode(tag, attributes, text) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cardNode(card) {
    if (window.DashainCards) return card ? window.DashainCards.element(card) : window.DashainCards.back();
    var span = document.createElement("span");
    span.className = "card";
    span.textContent = card || "\u2591";
    return span;
  }

  function seatCards(player) {
    // The view gives a player's cards only where this viewer could see them at the time.
    if (Array.isArray(player.cards)) return player.cards;
    if (Array.isArray(player.hole_cards)) return player.hole_cards;
    return null;
  }

  function isDealer(view, player) {
    // Teen Patti marks the dealer on the player; hold'em names the button on the hand.
    return Boolean(player.dealer) || (view.button !== undefined && view.button === player.name);
  }

  function isOut(player) {
    return Boolean(player.packed || player.folded);
  }

  // The felt and where seats sit round it (viewBox 600 x 360). Seats are boxes on a wider
  // oval than the felt; the dealer's disc and the shown cards sit between a seat and the
  // middle, far enough in that they never cover a seat box.
  // At 0.4 of the way in, the dealer's disc clears a box at every angle (checked for boxes up
  // to 112 x 46); the cards, at 0.62, clear the disc.
  var CX = 300, CY = 180, SEAT_RX = 232, SEAT_RY = 138, BOX_H = 46;

  function shortName(text, room) {
    text = String(text);
    return text.length > room ? text.slice(0, room - 1) + "\u2026" : text;
  }

  function drawTable(view) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.appendChild(svgNode("ellipse", { cx: CX, cy: CY, rx: 210, ry: 112, fill: "#1f6b3a", stroke: "#0d3d20", "stroke-width": 8 }));
    if (!view) return;
    var centre = [];
    if (view.pot !== undefined) centre.push(strings.pot + ": " + number(view.pot));
    if (view.stake !== undefined && view.stake !== null) centre.push(strings.stake + ": " + number(view.stake));
    svg.appendChild(svgNode("text", { x: CX, y: CY - 4, "text-anchor": "middle", fill: "#fff", "font-size": 17 }, centre.join("  \u00b7  ")));
    var board = view.board || [];
    if (board.length) {
      svg.appendChild(svgNode("text", { x: CX, y: CY + 20, "text-anchor": "middle", fill: "#fff", "font-size": 16 }, strings.board + ": " + board.join(" ")));
    } else if (view.joker) {
      // The Joker variant's card turned up after the deal (docs/rules.md, "Variants").
      svg.appendChild(svgNode("text", { x: CX, y: CY + 20, "text-anchor": "middle", fill: "#fff", "font-size": 14 }, format(strings.joker, { card: view.joker })));
    }
    var players = view.players || [];
    // Up to 16 seats (999) share the oval: narrower boxes, shorter names.
    var BOX_W = Math.min(112, Math.floor(1150 / Math.max(players.length, 1)) - 6);
    var room = Math.max(4, Math.floor(BOX_W / 8));
    players.forEach(function (player, seat) {
      var angle = Math.PI / 2 + (2 * Math.PI * seat) / Math.max(players.length, 1);
      var x = CX + SEAT_RX * Math.cos(angle);
      var y = CY + SEAT_RY * Math.sin(angle);
      var group = svgNode("g", { "class": "replayer__seat" + (isOut(player) ? " is-out" : ""), "data-player": player.name });
      var fill = isOut(player) ? "#8a8a8a" : (player.to_act ? "#f2c230" : "#fafafa");
      group.appendChild(svgNode("rect", {
        x: x - BOX_W / 2, y: y - BOX_H / 2, width: BOX_W, height: BOX_H, rx: 10,
        fill: fill, stroke: player.name === data.viewer ? "#b3261e" : "#333", "stroke-width": player.name === data.viewer ? 3 : 1
      }));
      var label = shortName(nameOf(player.name), room) + (player.name === data.viewer ? " \u2605" : "");
      group.appendChild(svgNode("text", { x: x, y: y - 4, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: "#111" }, label));
      group.appendChild(svgNode("text", { x: x, y: y + 14, "text-anchor": "middle", "font-size": 12, fill: "#111" }, number(player.stack)));
      var cards = seatCards(player);
      if (cards) {
        var inX = x + (CX - x) * 0.62;
        var inY = y + (CY - y) * 0.62;
        group.appendChild(svgNode("text", { x: inX, y: inY, "text-anchor": "middle", "font-size": 15, fill: "#fff" }, cards.join(" ")));
        if (player.hand_name) {
          group.appendChild(svgNode("text", { x: inX, y: inY + 16, "text-anchor": "middle", "font-size": 12, fill: "#fff" }, player.hand_name));
        }
      }
      if (isDealer(view, player)) {
        var dx = x + (CX - x) * 0.4, dy = y + (CY - y) * 0.4;
        group.appendChild(svgNode("circle", { cx: dx, cy: dy, r: 11, fill: "#fff", stroke: "#111", "class": "replayer__dealer" }));
        group.appendChild(svgNode("text", { x: dx, y: dy + 4.5, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: "#111" }, strings.dealer_mark || "D"));
      }
      svg.appendChild(group);
    });
  }

  function drawSeats(view) {
    while (seatsBox.firstChild) seatsBox.removeChild(seatsBox.firstChild);
    if (!view) return;
    var list = document.createElement("ul");
    list.className = "replayer__seat-list";
    (view.players || []).forEach(function (player) {
      var item = document.createElement("li");
      item.className = "replayer__seat-row" + (isOut(player) ? " is-out" : "");
      item.setAttribute("data-player", player.name);
      var title = document.createElement("strong");
      title.textContent = nameOf(player.name) + (player.name === data.viewer ? " (" + strings.you + ")" : "");
      item.appendChild(title);
      var facts = [strings.stack + " " + number(player.stack)];
      if (player.bet !== undefined) facts.push(strings.bet + " " + number(player.bet));
      if (isDealer(view, player)) facts.push(strings.dealer);
      if (player.packed) facts.push(strings.packed);
      if (player.folded) facts.push(strings.folded);
      if (player.seen === true) facts.push(strings.seen);
      if (player.seen === false) facts.push(strings.blind);
      if (player.to_act) facts.push(strings.to_act);
      if (player.hand_name) facts.push(player.hand_name);
      item.appendChild(document.createTextNode(" \u00b7 " + facts.join(" \u00b7 ") + " "));
      var cardsBox = document.createElement("span");
      cardsBox.className = "replayer__cards";
      var cards = seatCards(player);
      if (cards) {
        cards.forEach(function (card) { cardsBox.appendChild(cardNode(card)); });
      } else {
        cardsBox.setAttribute("aria-label", strings.hidden);
        cardsBox.setAttribute("title", strings.hidden);
        var count = (view.players[0] && view.game === "holdem") ? 2 : 3;
        for (var i = 0; i < count; i += 1) cardsBox.appendChild(cardNode(null));
      }
      item.appendChild(cardsBox);
      list.appendChild(item);
    });
    seatsBox.appendChild(list);
  }

  function drawWords() {
    while (wordsBox.firstChild) wordsBox.removeChild(wordsBox.firstChild);
    steps.slice(0, index + 1).forEach(function (step, stepIndex) {
      (step.words || []).forEach(function (sentence) {
        var item = document.createElement("li");
        item.textContent = sentence;
        if (stepIndex === index) item.className = "is-current";
        wordsBox.appendChild(item);
      });
    });
    // The step's last line in view inside the list's own box (issue 28): scrollIntoView
    // scrolled the window too, taking the buttons and the table off screen as it stepped.
    var lines = wordsBox.querySelectorAll(".is-current");
    var current = lines.length ? lines[lines.length - 1] : null;
    if (current) {
      var top = current.offsetTop;
      var bottom = top + current.offsetHeight;
      if (bottom > wordsBox.scrollTop + wordsBox.clientHeight) wordsBox.scrollTop = bottom - wordsBox.clientHeight;
      if (top < wordsBox.scrollTop) wordsBox.scrollTop = top;
    }
  }

  function show(newIndex) {
    index = Math.max(0, Math.min(steps.length - 1, newIndex));
    var step = steps[index] || {};
    positionBox.textContent = format(strings.step, { n: index + 1, total: steps.length });
    drawTable(step.view);
    drawSeats(step.view);
    drawWords();
    root.setAttribute("data-step", String(index));
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button || button === root) return;
    var move = button.getAttribute("data-step");
    if (move === "first") show(0);
    else if (move === "back") show(index - 1);
    else if (move === "forward") show(index + 1);
    else if (move === "last") show(steps.length - 1);
  });

  document.addEventListener("keydown", function (event) {
    if (event.target && /INPUT|TEXTAREA|SELECT/.test(event.target.tagName)) return;
    if (event.key === "ArrowRight") show(index + 1);
    else if (event.key === "ArrowLeft") show(index - 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(steps.length - 1);
  });

  show(0);
})();
