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

  function drawTable(view) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.appendChild(svgNode("ellipse", { cx: 300, cy: 180, rx: 250, ry: 130, fill: "#1f6b3a", stroke: "#0d3d20", "stroke-width": 8 }));
    if (!view) return;
    var centre = [];
    if (view.pot !== undefined) centre.push(strings.pot + ": " + view.pot);
    if (view.stake !== undefined && view.stake !== null) centre.push(strings.stake + ": " + view.stake);
    svg.appendChild(svgNode("text", { x: 300, y: 170, "text-anchor": "middle", fill: "#fff", "font-size": 18 }, centre.join("  \u00b7  ")));
    var board = view.board || [];
    if (board.length) {
      svg.appendChild(svgNode("text", { x: 300, y: 200, "text-anchor": "middle", fill: "#fff", "font-size": 18 }, strings.board + ": " + board.join(" ")));
    }
    var players = view.players || [];
    players.forEach(function (player, seat) {
      var angle = Math.PI / 2 + (2 * Math.PI * seat) / Math.max(players.length, 1);
      var x = 300 + 235 * Math.cos(angle);
      var y = 180 + 125 * Math.sin(angle);
      var group = svgNode("g", { "class": "replayer__seat" + (isOut(player) ? " is-out" : "") });
      group.appendChild(svgNode("circle", { cx: x, cy: y, r: 34, fill: isOut(player) ? "#777" : (player.to_act ? "#f2c230" : "#fafafa"), stroke: "#333" }));
      var label = nameOf(player.name) + (player.name === data.viewer ? " (" + strings.you + ")" : "");
      group.appendChild(svgNode("text", { x: x, y: y - 4, "text-anchor": "middle", "font-size": 12 }, label));
      group.appendChild(svgNode("text", { x: x, y: y + 12, "text-anchor": "middle", "font-size": 11 }, String(player.stack)));
      var cards = seatCards(player);
      if (cards) {
        // Written on the felt, between the seat and the middle of the table.
        var inX = x + (300 - x) * 0.4;
        var inY = y + (180 - y) * 0.45;
        group.appendChild(svgNode("text", { x: inX, y: inY, "text-anchor": "middle", "font-size": 15, fill: "#fff" }, cards.join(" ")));
      }
      if (isDealer(view, player)) {
        group.appendChild(svgNode("text", { x: x + 30, y: y - 26, "font-size": 14, "font-weight": "bold" }, "D"));
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
      var facts = [strings.stack + " " + player.stack];
      if (player.bet !== undefined) facts.push(strings.bet + " " + player.bet);
      if (isDealer(view, player)) facts.push(strings.dealer);
      if (player.packed) facts.push(strings.packed);
      if (player.folded) facts.push(strings.folded);
      if (player.seen === true) facts.push(strings.seen);
      if (player.seen === false) facts.push(strings.blind);
      if (player.to_act) facts.push(strings.to_act);
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
    var current = wordsBox.querySelector(".is-current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
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
