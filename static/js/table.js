/*
 * table.js: the table page. Plain JavaScript, no build step.
 *
 * Owns: the WebSocket to the table (snapshot + events by seq, as docs/live-play.md
 * defines), a quiet reconnect that resyncs from the last seq it holds, and drawing what
 * the server says: seats round the table, pot and stake (hold'em: board, blinds, bets),
 * my cards (face down until I look), the action bar with only the verbs the server
 * offers now and what each costs, the sideshow question, the result, the log in
 * words, the turn reminder, between-hands and host controls, keyboard shortcuts.
 *
 * The page never decides a rule: legal verbs, amounts and costs come from the server's
 * view of the hand for this viewer. It never receives another player's hidden cards: the
 * server filters every frame by who may see it.
 *
 * Strings: every word shown comes from the JSON block #table-config (translated by
 * Django); "%(name)s" placeholders are filled by fmt().
 */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("table-config").textContent);
  var S = config.strings;
  if (window.DashainCards) window.DashainCards.setLabels(S.cards);

  // ------------------------------------------------------------------ state
  var state = {
    lastSeq: 0,
    table: null,        // table summary from the snapshot: status, host seat, settings
    seats: {},          // seat id (string) -> {id, name, number, stack, status, ...}
    hand: null,         // the engine's view of the live (or last) hand for this viewer
    log: [],            // [{seq, text}] of the current hand
    connected: false,
    socket: null,
    retry: 0,
    pendingClientIds: {},
    raiseAmount: null
  };

  // ------------------------------------------------------------------ helpers
  function $(selector) { return document.querySelector(selector); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      for (var key in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, key) || attrs[key] === null || attrs[key] === undefined) continue;
        if (key === "text") node.textContent = attrs[key];
        else if (key === "onclick") node.addEventListener("click", attrs[key]);
        else node.setAttribute(key, attrs[key]);
      }
    }
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function fmt(template, params) {
    return String(template || "").replace(/%\((\w+)\)[sd]/g, function (_, name) {
      return params && params[name] !== undefined && params[name] !== null ? params[name] : "";
    });
  }
  function chips(n) { return fmt(S.chips, { n: Number(n || 0).toLocaleString() }); }
  function nameOf(engineName) {
    if (engineName === null || engineName === undefined) return "";
    var seat = state.seats[String(engineName)];
    return seat ? seat.name : String(engineName);
  }
  function newClientId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function me() { return config.seat; }
  function myPlayer() {
    if (!state.hand || !state.hand.players) return null;
    for (var i = 0; i < state.hand.players.length; i++) {
      if (String(state.hand.players[i].name) === String(me())) return state.hand.players[i];
    }
    return null;
  }
  function legal(verb) {
    var list = (state.hand && state.hand.legal) || [];
    for (var i = 0; i < list.length; i++) if (list[i].verb === verb) return list[i];
    return null;
  }
  function handLive() { return state.hand && !state.hand.finished; }
  function isHoldem() { return config.game === "holdem"; }

  // ------------------------------------------------------------------ connection
  function setConnection(which) {
    var badge = $("#connection");
    badge.setAttribute("data-state", which);
    badge.textContent = S["connection_" + which];
    $("#table-root").setAttribute("data-connection", which);
  }

  function connect() {
    setConnection(state.retry ? "closed" : "connecting");
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + config.socket_path);
    state.socket = socket;
    socket.addEventListener("open", function () {
      state.connected = true;
      state.retry = 0;
      setConnection("open");
      send({ type: "hello", last_seq: state.lastSeq });
    });
    socket.addEventListener("message", function (message) {
      var frame;
      try { frame = JSON.parse(message.data); } catch (error) { return; }
      handleFrame(frame);
    });
    socket.addEventListener("close", function () {
      if (state.socket !== socket) return;
      state.connected = false;
      setConnection("closed");
      renderActions();
      // Quiet reconnect: 0.5 s, 1 s, 2 s ... at most 10 s between tries.
      var wait = Math.min(10000, 500 * Math.pow(2, state.retry));
      state.retry += 1;
      window.setTimeout(connect, wait);
    });
  }

  function send(frame) {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
      showNotice(S.not_connected);
      return false;
    }
    state.socket.send(JSON.stringify(frame));
    return true;
  }

  function sendAction(verb, amount) {
    var frame = { type: "action", verb: verb, client_id: newClientId(), last_seq: state.lastSeq };
    if (amount !== undefined && amount !== null) frame.amount = amount;
    state.pendingClientIds[frame.client_id] = true;
    if (send(frame)) showNotice("");
  }

  function sendControl(command, extra) {
    var frame = { type: "control", command: command, client_id: newClientId() };
    for (var key in extra || {}) if (Object.prototype.hasOwnProperty.call(extra, key)) frame[key] = extra[key];
    send(frame);
  }

  // ------------------------------------------------------------------ frames
  function handleFrame(frame) {
    switch (frame.type) {
      case "snapshot": applySnapshot(frame); break;
      case "events": applyEvents(frame.events || [], frame); break;
      case "view": if (frame.hand !== undefined) { state.hand = frame.hand; } if (frame.seq) state.lastSeq = Math.max(state.lastSeq, frame.seq); render(); break;
      case "error": showNotice(frame.message || (frame.error && frame.error.message) || S.refused); break;
      case "reminder": showReminder(frame); break;
      default: break;
    }
  }

  function applySnapshot(frame) {
    state.lastSeq = frame.seq || frame.last_seq || 0;
    if (frame.table) state.table = frame.table;
    if (frame.seats) setSeats(frame.seats);
    state.hand = frame.hand || null;
    state.log = [];
    (frame.log || frame.events || []).forEach(function (event) { logEvent(event); });
    render();
  }

  function setSeats(list) {
    state.seats = {};
    list.forEach(function (seat) { state.seats[String(seat.id)] = seat; });
  }

  function applyEvents(events, frame) {
    var gap = false;
    events.forEach(function (event) {
      if (event.seq <= state.lastSeq) return;          // already held (a resend after a resync)
      if (event.seq !== state.lastSeq + 1) { gap = true; return; }
      state.lastSeq = event.seq;
      if (event.kind === "hand_started") state.log = [];
      if (event.kind === "seats" && event.data && event.data.seats) setSeats(event.data.seats);
      logEvent(event);
      if (event.kind === "reminder" || event.kind === "turn_reminder") showReminder(event.data || {});
    });
    if (frame.table) state.table = frame.table;
    if (frame.seats) setSeats(frame.seats);
    if (frame.hand !== undefined) state.hand = frame.hand;
    if (gap) {
      // Missed news: ask for everything after the last event we hold.
      send({ type: "hello", last_seq: state.lastSeq });
    }
    render();
  }

  // ------------------------------------------------------------------ the log in words
  function logEvent(event) {
    if (!event || !event.kind) return;
    var text = describe(event);
    if (!text) return;
    state.log.push({ seq: event.seq, text: text });
  }

  function describe(event) {
    var d = event.data || {};
    var p = { player: nameOf(d.player), amount: d.amount, stake: d.stake, partner: nameOf(d.partner),
      asker: nameOf(d.asker), against: nameOf(d.against), pot: d.pot, number: d.number };
    switch (event.kind) {
      case "hand_started": return fmt(S.log_hand_started, { number: d.number || "", dealer: nameOf(d.dealer) });
      case "boot": return fmt(S.log_boot, p);
      case "blinds": case "blind": return fmt(S.log_blind, p);
      case "dealt": return S.log_dealt;
      case "see": return fmt(S.log_see, p);
      case "cards": return null;
      case "chaal": return fmt(d.blind ? S.log_chaal_blind : S.log_chaal_seen, p);
      case "raise": return fmt(d.blind ? S.log_raise_blind : S.log_raise_seen, p);
      case "pack": return fmt(d.reason === "sideshow" ? S.log_pack_sideshow : S.log_pack, p);
      case "sideshow": return fmt(S.log_sideshow, p);
      case "sideshow_accepted": return fmt(S.log_sideshow_accepted, p);
      case "sideshow_refused": return fmt(S.log_sideshow_refused, p);
      case "sideshow_result": return fmt(S.log_sideshow_result, { loser: nameOf(d.loser) });
      case "show": return fmt(S.log_show, p);
      case "showdown": return S.log_showdown;
      case "hand_finished": return describeFinish(d);
      case "fold": return fmt(S.log_fold, p);
      case "check": return fmt(S.log_check, p);
      case "call": return fmt(S.log_call, p);
      case "bet": return fmt(S.log_bet, p);
      case "allin": case "all_in": return fmt(S.log_allin, p);
      case "board": case "flop": case "turn_card": case "river": return fmt(S.log_board, { cards: (d.cards || []).join(" ") });
      case "turn": return null;
      default: return null;
    }
  }

  function describeFinish(d) {
    var payouts = d.payouts || {};
    var parts = [];
    Object.keys(payouts).forEach(function (name) {
      if (payouts[name] > 0) parts.push(fmt(S.log_wins, { player: nameOf(name), amount: payouts[name] }));
    });
    return parts.length ? parts.join(" ") : S.log_hand_over;
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    renderHeader();
    renderSeats();
    renderCenter();
    renderMyHand();
    renderSideshow();
    renderActions();
    renderResult();
    renderLog();
    renderBetweenHands();
    renderHostControls();
    renderReminderState();
  }

  function renderHeader() {
    var status = state.table && state.table.status;
    $("#table-status").textContent = status ? (S["status_" + status] || status) : "";
    var hand = state.hand;
    $("#hand-number").textContent = hand && hand.number ? fmt(S.hand_number, { number: hand.number }) : "";
  }

  function seatOrder() {
    // Players of the hand in seat order, then seated people not in the hand.
    var people = [];
    var inHand = {};
    if (state.hand && state.hand.players) {
      state.hand.players.forEach(function (player) { inHand[String(player.name)] = true; people.push({ player: player, seat: state.seats[String(player.name)] }); });
    }
    Object.keys(state.seats).forEach(function (id) {
      var seat = state.seats[id];
      if (!inHand[id] && seat.number !== null && seat.number !== undefined) people.push({ player: null, seat: seat });
    });
    people.sort(function (a, b) {
      var an = a.seat && a.seat.number !== null && a.seat.number !== undefined ? a.seat.number : 99;
      var bn = b.seat && b.seat.number !== null && b.seat.number !== undefined ? b.seat.number : 99;
      return an - bn;
    });
    // Rotate so that I sit at the bottom (position 0).
    var mine = -1;
    people.forEach(function (entry, i) {
      var id = entry.player ? String(entry.player.name) : String(entry.seat.id);
      if (id === String(me())) mine = i;
    });
    if (mine > 0) people = people.slice(mine).concat(people.slice(0, mine));
    return people;
  }

  function renderSeats() {
    var list = $("#seats");
    list.textContent = "";
    var people = seatOrder();
    var count = people.length;
    var positions = layoutPositions(count);
    var result = state.hand && state.hand.result;
    people.forEach(function (entry, i) {
      var player = entry.player;
      var seat = entry.seat || {};
      var id = player ? String(player.name) : String(seat.id);
      var name = seat.name || nameOf(id);
      var stack = player ? player.stack : seat.stack;
      var badges = el("div", { class: "badges" });
      var description = [name, chips(stack)];
      if (player && player.dealer) { badges.appendChild(el("span", { class: "badge badge-dealer", title: S.dealer, text: isHoldem() ? S.button_short : S.dealer_short })); description.push(isHoldem() ? S.button : S.dealer); }
      if (player && player.to_act && handLive()) { badges.appendChild(el("span", { class: "badge badge-turn", text: S.to_act })); description.push(S.to_act); }
      if (player && !isHoldem() && !player.packed && player.seen !== undefined) {
        badges.appendChild(el("span", { class: "badge " + (player.seen ? "badge-seen" : "badge-blind"), text: player.seen ? S.seen : S.blind }));
        description.push(player.seen ? S.seen : S.blind);
      }
      if (player && (player.packed || player.folded)) { badges.appendChild(el("span", { class: "badge", text: isHoldem() ? S.folded : S.packed })); description.push(isHoldem() ? S.folded : S.packed); }
      if (player && player.all_in) { badges.appendChild(el("span", { class: "badge badge-turn", text: S.all_in })); description.push(S.all_in); }
      if (player && player.position_label) { badges.appendChild(el("span", { class: "badge", text: player.position_label })); }
      if (!player && seat.status) { badges.appendChild(el("span", { class: "badge", text: S["seat_" + seat.status] || seat.status })); description.push(S["seat_" + seat.status] || ""); }
      if (seat.connected === false) { badges.appendChild(el("span", { class: "badge", text: S.away })); }
      var won = result && result.payouts && result.payouts[id] ? result.payouts[id] : 0;
      if (won) { badges.appendChild(el("span", { class: "badge badge-winner", text: fmt(S.won, { amount: won }) })); description.push(fmt(S.won, { amount: won })); }
      var cardsBox = el("div", { class: "seat-cards hand-cards-small", "data-cards-of": id });
      if (player) drawCards(cardsBox, player.cards, player.cards ? null : cardCount(), player.best_cards || (result && result.best_cards && result.best_cards[id]));
      var node = el("li", {
        class: "seat",
        "data-seat": id,
        "data-pos": positions[i],
        "data-me": String(id === String(me())),
        "data-to-act": String(!!(player && player.to_act && handLive())),
        "data-folded": String(!!(player && (player.packed || player.folded))),
        "aria-label": description.join(", ")
      }, [
        el("div", { class: "name" }, [el("span", { class: "seat-name", text: name }), el("span", { class: "seat-stack", text: chips(stack) })]),
        badges,
        player && player.bet ? el("div", { class: "bet", text: fmt(isHoldem() ? S.bet_round : S.bet_hand, { amount: player.round_bet !== undefined ? player.round_bet : player.bet }) }) : null,
        cardsBox
      ]);
      list.appendChild(node);
    });
  }

  function layoutPositions(count) {
    // Spread up to 8 seats round the oval: position 0 is the bottom (me).
    var maps = {
      1: [0], 2: [0, 4], 3: [0, 3, 5], 4: [0, 2, 4, 6], 5: [0, 2, 3, 5, 6],
      6: [0, 1, 3, 4, 5, 7], 7: [0, 1, 2, 3, 5, 6, 7], 8: [0, 1, 2, 3, 4, 5, 6, 7]
    };
    var map = maps[Math.min(count, 8)] || [];
    var out = [];
    for (var i = 0; i < count; i++) out.push(map[i] !== undefined ? map[i] : i % 8);
    return out;
  }

  function cardCount() { return isHoldem() ? 2 : 3; }

  function drawCards(box, cards, hiddenCount, litCards) {
    box.textContent = "";
    var lit = {};
    (litCards || []).forEach(function (card) { lit[card] = true; });
    if (cards && cards.length) {
      cards.forEach(function (card) { box.appendChild(window.DashainCards.element(card, { lit: !!lit[card] })); });
    } else if (hiddenCount && handLive()) {
      for (var i = 0; i < hiddenCount; i++) box.appendChild(window.DashainCards.back());
    }
  }

  function renderCenter() {
    var hand = state.hand;
    $("#pot").textContent = hand ? fmt(S.pot, { amount: Number(hand.pot || 0).toLocaleString() }) : "";
    var stakeText = "";
    if (hand && isHoldem()) {
      stakeText = fmt(S.blinds, { small: hand.small_blind, big: hand.big_blind });
      if (hand.current_bet) stakeText += " · " + fmt(S.current_bet, { amount: hand.current_bet });
    } else if (hand) {
      stakeText = fmt(S.stake, { stake: hand.stake, boot: hand.boot });
    }
    $("#stake").textContent = stakeText;
    var board = $("#board");
    board.textContent = "";
    if (hand && isHoldem()) {
      var lit = {};
      var result = hand.result;
      ((result && result.best_cards && flatten(result.best_cards)) || hand.winning_cards || []).forEach(function (card) { lit[card] = true; });
      (hand.board || []).forEach(function (card) { board.appendChild(window.DashainCards.element(card, { lit: !!lit[card] })); });
      board.setAttribute("aria-label", fmt(S.board_label, { cards: (hand.board || []).map(window.DashainCards.label).join(", ") }));
    }
    $("#empty-table").hidden = !!hand;
  }

  function flatten(byName) {
    var out = [];
    Object.keys(byName || {}).forEach(function (name) { (byName[name] || []).forEach(function (card) { out.push(card); }); });
    return out;
  }

  function renderMyHand() {
    var box = $("#my-cards");
    var seeButton = $("#see-button");
    var player = myPlayer();
    var section = $("#my-hand");
    section.hidden = !player;
    if (!player) return;
    var mine = (state.hand && state.hand.your_cards) || player.cards;
    box.textContent = "";
    if (mine && mine.length) {
      drawCards(box, mine, 0, player.best_cards);
      $("#my-hand-label").textContent = player.hand && player.hand.category ? (S["category_" + player.hand.category] || player.hand.category) + (player.hand.value !== undefined ? " " + player.hand.value : "") : "";
    } else {
      for (var i = 0; i < cardCount(); i++) box.appendChild(window.DashainCards.back({ label: S.my_card_hidden }));
      $("#my-hand-label").textContent = handLive() && !player.packed ? S.not_looked : "";
    }
    var canSee = !!legal("see");
    seeButton.hidden = isHoldem() || !canSee;
    seeButton.disabled = !canSee || !state.connected;
  }

  function renderSideshow() {
    var box = $("#sideshow-request");
    var pending = state.hand && state.hand.sideshow;
    if (!pending || !handLive()) { box.hidden = true; return; }
    box.hidden = false;
    var partnerIsMe = String(pending.partner) === String(me());
    $("#sideshow-text").textContent = partnerIsMe
      ? fmt(S.sideshow_asked_you, { asker: nameOf(pending.asker) })
      : fmt(S.sideshow_waiting, { asker: nameOf(pending.asker), partner: nameOf(pending.partner) });
    $("#sideshow-accept").hidden = !legal("accept");
    $("#sideshow-refuse").hidden = !legal("refuse");
  }

  function costLabel(action) {
    return action && action.cost ? fmt(S.costs, { amount: Number(action.cost).toLocaleString() }) : "";
  }

  function actionButton(verb, label, key, action, amount) {
    var button = el("button", { type: "button", "data-verb": verb, "aria-keyshortcuts": key || null }, [
      el("span", { text: label }),
      key ? el("kbd", { text: key, "aria-hidden": "true" }) : null,
      action && action.cost ? el("span", { class: "cost", text: costLabel(action) }) : null
    ]);
    button.addEventListener("click", function () { sendAction(verb, amount === undefined ? null : amount()); });
    button.disabled = !state.connected;
    return button;
  }

  function renderActions() {
    var bar = $("#action-bar");
    bar.textContent = "";
    if (!handLive() || !state.hand.legal) return;
    var raiseAction = null;
    if (isHoldem()) {
      if (legal("check")) bar.appendChild(actionButton("check", S.check, "K", legal("check")));
      if (legal("call")) bar.appendChild(actionButton("call", fmt(S.call_amount, { amount: legal("call").cost || legal("call").min || "" }), "C", legal("call")));
      raiseAction = legal("bet") || legal("raise");
      if (raiseAction) bar.appendChild(amountGroup(raiseAction, raiseAction.verb === "bet" ? S.bet : S.raise_to, raiseAction.verb));
      if (legal("allin")) bar.appendChild(actionButton("allin", fmt(S.all_in_amount, { amount: legal("allin").cost || legal("allin").max || "" }), "A", legal("allin")));
      if (legal("fold")) bar.appendChild(actionButton("fold", S.fold, "F", legal("fold")));
    } else {
      var chaal = legal("chaal");
      if (chaal) bar.appendChild(actionButton("chaal", S.chaal, "C", chaal));
      raiseAction = legal("raise");
      if (raiseAction) bar.appendChild(amountGroup(raiseAction, S.raise_to, "raise"));
      if (legal("show")) bar.appendChild(actionButton("show", S.show, "W", legal("show")));
      if (legal("sideshow")) bar.appendChild(actionButton("sideshow", S.sideshow, "D", legal("sideshow")));
      if (legal("pack")) bar.appendChild(actionButton("pack", S.pack, "P", legal("pack")));
    }
  }

  function amountGroup(action, label, verb) {
    var hand = state.hand;
    var player = myPlayer();
    // Teen Patti: start at double the stake (the classic raise), step a boot at a time.
    // Hold'em: start at the minimum, step a big blind.
    var step = isHoldem() ? (hand.big_blind || 1) : (hand.boot || 1);
    var start = action.min;
    if (!isHoldem() && hand.stake) start = Math.max(action.min, Math.min(action.max, 2 * hand.stake));
    if (state.raiseAmount === null || state.raiseAmount < action.min || state.raiseAmount > action.max) state.raiseAmount = start;
    var input = el("input", {
      type: "number", id: "raise-amount", min: action.min, max: action.max, step: step,
      value: state.raiseAmount, "aria-label": label, inputmode: "numeric"
    });
    var cost = el("span", { class: "cost", id: "raise-cost" });
    function unitCost() { return player && player.seen ? 2 : 1; }
    function updateCost() {
      var amount = Number(input.value);
      if (isHoldem()) {
        var already = player && player.round_bet ? player.round_bet : 0;
        cost.textContent = fmt(S.costs, { amount: (verb === "raise" ? amount - already : amount).toLocaleString() });
      } else {
        cost.textContent = fmt(S.costs, { amount: (amount * unitCost()).toLocaleString() });
      }
    }
    function stepBy(direction) {
      var next = Number(input.value) + direction * step;
      next = Math.max(action.min, Math.min(action.max, next));
      input.value = next;
      state.raiseAmount = next;
      updateCost();
    }
    input.addEventListener("input", function () { state.raiseAmount = Number(input.value); updateCost(); });
    updateCost();
    var down = el("button", { type: "button", class: "step", "aria-label": S.step_down, text: "\u2212", onclick: function () { stepBy(-1); } });
    var up = el("button", { type: "button", class: "step", "aria-label": S.step_up, text: "+", onclick: function () { stepBy(1); } });
    var go = el("button", { type: "button", "data-verb": verb, "aria-keyshortcuts": "R" }, [
      el("span", { text: label }), el("kbd", { text: "R", "aria-hidden": "true" })
    ]);
    go.disabled = !state.connected;
    go.addEventListener("click", function () {
      var amount = Number(input.value);
      if (!(amount >= action.min && amount <= action.max)) {
        showNotice(fmt(S.amount_range, { min: action.min, max: action.max }));
        return;
      }
      sendAction(verb, amount);
    });
    return el("div", { class: "raise-group", role: "group", "aria-label": label }, [down, input, up, go, cost]);
  }

  function renderResult() {
    var box = $("#result");
    var result = state.hand && state.hand.result;
    if (!result) { box.hidden = true; return; }
    box.hidden = false;
    var lines = $("#result-lines");
    lines.textContent = "";
    var payouts = result.payouts || {};
    Object.keys(payouts).forEach(function (name) {
      if (payouts[name] > 0) lines.appendChild(el("p", { class: "pot-line", "data-winner": name, text: fmt(S.result_won, { player: nameOf(name), amount: Number(payouts[name]).toLocaleString() }) }));
    });
    var reason = S["reason_" + result.reason];
    if (reason) lines.appendChild(el("p", { class: "pot-line", text: reason }));
    (result.pots || []).forEach(function (pot, i) {
      var label = i === 0 ? S.main_pot : fmt(S.side_pot, { number: i });
      lines.appendChild(el("p", { class: "pot-line", "data-pot": i, text: fmt(S.pot_line, { pot: label, amount: pot.amount, winners: (pot.winners || []).map(nameOf).join(", ") }) }));
    });
    var stacks = result.stacks || {};
    var stackText = Object.keys(stacks).map(function (name) { return nameOf(name) + " " + Number(stacks[name]).toLocaleString(); }).join(" · ");
    lines.appendChild(el("p", { class: "pot-line result-stacks", text: fmt(S.stacks_now, { stacks: stackText }) }));
  }

  function renderLog() {
    var list = $("#hand-log");
    list.textContent = "";
    state.log.forEach(function (line) { list.appendChild(el("li", { "data-seq": line.seq, text: line.text })); });
    list.scrollTop = list.scrollHeight;
  }

  function mySeat() { return state.seats[String(me())] || null; }

  function renderBetweenHands() {
    var seat = mySeat();
    var box = $("#between-hands");
    box.textContent = "";
    if (!seat) return;
    var status = seat.status;
    var live = handLive();
    var inHand = !!myPlayer() && live;
    if (status === "watching") {
      box.appendChild(controlButton("take_seat", S.take_seat));
    }
    if (!isHoldem() && status !== "watching" && !inHand && seat.can_buy_in !== false) {
      box.appendChild(controlButton("buy_in", S.buy_again));
    }
    if (status === "playing") box.appendChild(controlButton("sit_out", S.sit_out));
    if (status === "sitting_out") box.appendChild(controlButton("sit_in", S.come_back));
  }

  function controlButton(command, label, extra) {
    var button = el("button", { type: "button", "data-command": command, text: label });
    button.disabled = !state.connected;
    button.addEventListener("click", function () { sendControl(command, extra); });
    return button;
  }

  function renderHostControls() {
    var box = $("#host-controls");
    if (!box) return;
    box.textContent = "";
    var status = state.table && state.table.status;
    if (status === "waiting") box.appendChild(controlButton("start", S.start));
    if (status === "playing") box.appendChild(controlButton("pause", S.pause));
    if (status === "paused") box.appendChild(controlButton("resume", S.resume));
    if (status && status !== "ended") box.appendChild(controlButton("end", S.end_game));
    var removeList = $("#remove-players");
    removeList.textContent = "";
    Object.keys(state.seats).forEach(function (id) {
      if (id === String(me())) return;
      var seat = state.seats[id];
      removeList.appendChild(el("li", {}, [controlButton("remove", fmt(S.remove_player, { player: seat.name }), { seat: Number(id) })]));
    });
    var settingsLink = $("#settings-between-hands");
    if (settingsLink) settingsLink.hidden = handLive();
  }

  // ------------------------------------------------------------------ turn reminder and notices
  function showReminder(data) {
    if (data && data.player && String(data.player) !== String(me())) return;
    var box = $("#turn-reminder");
    box.hidden = false;
    box.textContent = S.your_turn_reminder;
  }

  function renderReminderState() {
    var player = myPlayer();
    var myTurn = !!(player && player.to_act && handLive());
    var box = $("#turn-reminder");
    if (!myTurn) box.hidden = true;
    else if (box.hidden) { box.hidden = false; box.textContent = S.your_turn; }
    document.title = (myTurn ? "\u25CF " : "") + config.title;
  }

  var noticeTimer = null;
  function showNotice(text) {
    var box = $("#notice");
    box.textContent = text || "";
    if (noticeTimer) window.clearTimeout(noticeTimer);
    if (text) noticeTimer = window.setTimeout(function () { box.textContent = ""; }, 8000);
  }

  // ------------------------------------------------------------------ keyboard shortcuts
  var SHORTCUTS = {
    s: "see", c: null, k: "check", f: "fold", p: "pack", w: "show", d: "sideshow", a: "allin", y: "accept", n: "refuse"
  };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    var key = event.key.toLowerCase();
    if (key === "c") { if (legal("chaal")) sendAction("chaal"); else if (legal("call")) sendAction("call"); return; }
    if (key === "r") { var go = document.querySelector('.raise-group button[data-verb]'); if (go) go.click(); return; }
    if (key === "arrowup" || key === "arrowdown") {
      var step = document.querySelector(key === "arrowup" ? '.raise-group button.step:last-of-type' : '.raise-group button.step');
      if (step) { step.click(); event.preventDefault(); }
      return;
    }
    var verb = SHORTCUTS[key];
    if (verb && legal(verb)) { sendAction(verb); event.preventDefault(); }
  });

  // ------------------------------------------------------------------ wiring
  $("#see-button").addEventListener("click", function () { sendAction("see"); });
  $("#sideshow-accept").addEventListener("click", function () { sendAction("accept"); });
  $("#sideshow-refuse").addEventListener("click", function () { sendAction("refuse"); });
  var copy = $("#copy-link");
  if (copy) copy.addEventListener("click", function () {
    var input = $("#join-link");
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(function () {});
    showNotice(S.link_copied);
  });

  window.DashainTable = { state: state, render: render, send: send };
  render();
  connect();
})();
