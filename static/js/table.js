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
  // Numbers in the page's language with the digits 0-9 (docs/glossary-ne.md, -hi.md):
  // grouping as the language writes it (1,000 / 1.000 / 1,00,000), never ५० for 50.
  var NUMBER_LOCALE = (document.documentElement.lang || "en") + "-u-nu-latn";
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
    snapshotWanted: false,
    raiseAmount: null,  // the amount in the raise box, kept while the same turn is redrawn
    raiseKey: null,
    seedFor: null       // the hand this browser last gave a seed for
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
  function chips(n) { return fmt(S.chips, { n: Number(n || 0).toLocaleString(NUMBER_LOCALE) }); }
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
  function handLive() { return !!(state.hand && !state.hand.finished && !state.hand.result); }
  function isToAct(player) {
    if (!player || !handLive()) return false;
    if (player.to_act !== undefined) return !!player.to_act;
    return state.hand.to_act !== null && String(state.hand.to_act) === String(player.name);
  }
  function isDealer(player) { return !!(player && (player.dealer || player.is_button)); }
  function potOf(hand) {
    if (typeof hand.pot === "number") return hand.pot;
    var total = 0;
    (hand.players || []).forEach(function (player) { total += player.in_hand || 0; });
    return total;
  }
  /** What a verb costs now: Teen Patti's view says; hold'em's is worked out from the bets. */
  function costOf(action) {
    if (!action) return 0;
    if (action.cost !== undefined && action.cost !== null) return action.cost;
    var player = myPlayer();
    var hand = state.hand;
    if (!player || !hand) return 0;
    if (action.verb === "call") return Math.min(player.stack, (hand.current_bet || 0) - (player.bet || 0));
    if (action.verb === "allin") return player.stack;
    if (action.verb === "bet") return action.min;
    if (action.verb === "raise") return action.min - (player.bet || 0);
    return 0;
  }
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
      // The server sends a snapshot at once; nothing to ask for.
    });
    socket.addEventListener("message", function (message) {
      var frame;
      try { frame = JSON.parse(message.data); } catch (error) { return; }
      handleFrame(frame);
    });
    socket.addEventListener("close", function (event) {
      if (state.socket !== socket) return;
      state.connected = false;
      state.snapshotWanted = false;
      setConnection("closed");
      renderActions();
      renderMyHand();
      if (event.code === 4403) return;   // not a member of this table: reconnecting cannot help
      // Quiet reconnect: 0.5 s, 1 s, 2 s ... at most 10 s between tries. The new socket's
      // snapshot brings the page back to the log's present; the log in words is refilled
      // from the events after the last seq held.
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
    // "see" has its own message; everything else is an action. The id makes a resend a no-op.
    var frame = verb === "see" ? { type: "see", id: newClientId() } : { type: "action", verb: verb, id: newClientId() };
    if (amount !== undefined && amount !== null) frame.amount = amount;
    if (send(frame)) showNotice("");
  }

  function sendSeat(verb) { send({ type: "seat", verb: verb, id: newClientId() }); }
  function sendHost(verb, extra) {
    var frame = { type: "host", verb: verb, id: newClientId() };
    for (var key in extra || {}) if (Object.prototype.hasOwnProperty.call(extra, key)) frame[key] = extra[key];
    send(frame);
  }

  function wantSnapshot() {
    // One snapshot at a time: it carries this viewer's whole view (legal moves, costs).
    if (state.snapshotWanted) return;
    state.snapshotWanted = true;
    send({ type: "snapshot" });
  }

  // ------------------------------------------------------------------ frames
  function handleFrame(frame) {
    switch (frame.type) {
      case "snapshot": applySnapshot(frame); break;
      case "events":
        if (frame.id === LOG_REQUEST) fillLog(frame.events || []);
        else if (typeof frame.id === "string" && frame.id.indexOf(CATCH_UP) === 0) catchUp(frame.events || [], frame.id);
        else applyEvents(frame.events || []);
        break;
      case "error":
        if (frame.code === "seed_given") break;   // this browser's seed for that hand is already in
        showNotice(frame.message || S.refused);
        break;
      default: break;   // ack, pong
    }
  }

  var LOG_REQUEST = "hand-log";
  var CATCH_UP = "catch-up:";
  var LOG_LOOKBACK = 400;

  function applySnapshot(frame) {
    state.snapshotWanted = false;
    var first = !state.table;
    var previousSeq = state.lastSeq;
    state.lastSeq = Math.max(state.lastSeq, frame.seq || 0);
    var endedMeanwhile = !(frame.hand && frame.hand.view) && handLive();
    if (!first && previousSeq && frame.seq > previousSeq && !endedMeanwhile) {
      // The snapshot jumped over news (a reconnect, or moves made while it was on its way):
      // fetch those events for the log in words; the view itself is already current.
      send({ type: "resync", after: previousSeq, id: CATCH_UP + previousSeq + ":" + frame.seq });
    }
    if (frame.table) state.table = frame.table;
    if (frame.seats) setSeats(frame.seats);
    if (frame.hand && frame.hand.view) {
      var view = frame.hand.view;
      view.number = frame.hand.number;
      var sameHand = state.hand && state.hand.number === view.number;
      state.hand = view;
      if (!sameHand) state.log = [];
    } else if (!(state.hand && state.hand.finished)) {
      state.hand = null;   // no hand now; a finished one stays shown until the next deal
    }
    if (first || !state.log.length || endedMeanwhile) {
      // (A hand that ended unseen is pictured again from its events, in fillLog.)
      // Refill the log in words of the current (or last) hand from the events before now.
      send({ type: "resync", after: Math.max(0, state.lastSeq - LOG_LOOKBACK), id: LOG_REQUEST });
    }
    render();
  }

  function catchUp(events, id) {
    var bounds = id.slice(CATCH_UP.length).split(":");
    var after = Number(bounds[0]);
    var upTo = Number(bounds[1]);
    events.forEach(function (event) {
      if (!event.kind || event.seq <= after || event.seq > upTo) return;
      if (isDeal(event)) state.log = state.log.filter(function (line) { return line.seq > event.seq; });
      if (event.kind === "game_ended") state.finalStacks = event.data.final_stacks || {};
      if (state.log.some(function (line) { return line.seq === event.seq; })) return;
      var text = describe(event);
      if (text) state.log.push({ seq: event.seq, text: text });
    });
    state.log.sort(function (a, b) { return a.seq - b.seq; });
    render();
  }

  function setSeats(list) {
    state.seats = {};
    list.forEach(function (seat) { state.seats[String(seat.id)] = seat; });
  }

  function fillLog(events) {
    // Events up to the snapshot's seq: only the words of the latest hand are kept.
    var start = -1;
    events.forEach(function (event, i) { if (isDeal(event)) start = i; });
    var lines = [];
    var finished = null;
    events.forEach(function (event) { if (event.kind === "game_ended") state.finalStacks = event.data.final_stacks || {}; });
    events.slice(start < 0 ? events.length : start).forEach(function (event) {
      if (event.seq > state.lastSeq) return;
      var text = describe(event);
      if (text) lines.push({ seq: event.seq, text: text });
    });
    if (start >= 0 && !state.hand) {
      // The last hand is over: show its result from the log.
      finished = rebuildFinished(events.slice(start));
      if (finished) state.hand = finished;
    }
    state.log = lines;
    render();
  }

  function applyEvents(events) {
    var gap = false;
    var handNews = false;
    events.forEach(function (event) {
      if (event.seq <= state.lastSeq) return;          // already held
      if (event.seq !== state.lastSeq + 1) { gap = true; return; }
      state.lastSeq = event.seq;
      if (!event.kind) return;                          // an event this viewer may not see
      if (isDeal(event)) { state.log = []; state.hand = null; }
      applyToFinishedHand(event);
      var text = describe(event);
      if (text) state.log.push({ seq: event.seq, text: text });
      if (event.kind === "reminder") showReminder(event.data || {});
      if (event.kind === "game_ended") state.finalStacks = (event.data || {}).final_stacks || {};
      handNews = true;
    });
    if (gap) {
      // Missed news: ask for everything after the last event held.
      send({ type: "resync", after: state.lastSeq });
    } else if (handNews) {
      wantSnapshot();
    }
    render();
  }

  // The server's view covers a live hand only; once it ends, the page keeps the last view
  // and adds what the end revealed (the showdown's cards, who won what).
  function applyToFinishedHand(event) {
    var hand = state.hand;
    var d = event.data || {};
    if (!hand) return;
    if (event.kind === "showdown" && d.cards) {
      Object.keys(d.cards).forEach(function (name) { setPlayerCards(hand, name, d.cards[name], d.hands && d.hands[name]); });
    }
    if (event.kind === "show" && d.cards && d.player !== undefined) setPlayerCards(hand, d.player, d.cards, null);
    if (event.kind === "pot_awarded") {
      hand.result = hand.result || { pots: [], payouts: {} };
      hand.result.payouts = hand.result.payouts || {};
      hand.result.best_cards = hand.result.best_cards || {};
      Object.keys(d.shares || {}).forEach(function (name) {
        hand.result.payouts[name] = (hand.result.payouts[name] || 0) + d.shares[name];
      });
      Object.keys(d.hands || {}).forEach(function (name) {
        hand.result.best_cards[name] = d.hands[name].cards;
        setPlayerLabel(hand, name, d.hands[name]);
      });
      hand.result.pots_awarded = (hand.result.pots_awarded || []).concat([d]);
    }
    if (event.kind === "board" && d.board) hand.board = d.board;
    // News of the last moves of a hand arrives after the server's view of it ends.
    if (typeof d.pot === "number" && event.kind !== "pot_awarded") hand.pot = d.pot;
    if (d.player !== undefined && typeof d.stack === "number") {
      (hand.players || []).forEach(function (player) { if (String(player.name) === String(d.player)) player.stack = d.stack; });
    }
    if (event.kind === "hand_finished" || event.kind === "hand_ended") {
      hand.finished = true;
      hand.to_act = null;
      hand.legal = [];
      hand.sideshow = null;
      hand.result = hand.result || {};
      if (d.payouts) hand.result.payouts = d.payouts;
      if (d.reason) hand.result.reason = d.reason;
      if (d.stacks) hand.result.stacks = d.stacks;
      if (d.pots && !hand.result.pots_from_engine) { hand.result.pots = d.pots; }
      if (d.stacks) (hand.players || []).forEach(function (player) {
        if (d.stacks[player.name] !== undefined) player.stack = d.stacks[player.name];
        player.to_act = false;
      });
      if (!hand.result.payouts && d.pots) hand.result.payouts = payoutsFromPots(d.pots);
    }
  }

  function payoutsFromPots(pots) {
    var out = {};
    pots.forEach(function (pot) {
      var winners = pot.winners || [];
      if (!winners.length) return;
      var share = Math.floor(pot.amount / winners.length);
      winners.forEach(function (name) { out[name] = (out[name] || 0) + share; });
    });
    return out;
  }

  function setPlayerCards(hand, name, cards, label) {
    (hand.players || []).forEach(function (player) {
      if (String(player.name) === String(name)) { player.cards = cards; if (label) player.hand = label; }
    });
  }

  function setPlayerLabel(hand, name, label) {
    (hand.players || []).forEach(function (player) {
      if (String(player.name) === String(name) && label && label.category) player.hand = { category: label.category };
    });
  }

  // The table's own record of a deal (the engine's opening event shares the kind, without a number).
  function isDeal(event) { return event.kind === "hand_started" && event.data && event.data.number !== undefined; }

  function rebuildFinished(events) {
    // A page opened after a hand ended: picture it from its public events.
    var started = events[0] && events[0].data;
    if (!started) return null;
    var players = (started.players || []).map(function (entry) {
      var name = Array.isArray(entry) ? entry[0] : entry.name;
      var stack = Array.isArray(entry) ? entry[1] : entry.stack;
      return { name: String(name), stack: stack, cards: null, dealer: String(name) === String(started.dealer) };
    });
    var hand = { number: started.number, players: players, pot: 0, legal: [], finished: false, board: [] };
    var previous = state.hand;
    state.hand = hand;
    var ended = false;
    events.forEach(function (event) {
      if (event.kind === "hand_ended" || event.kind === "hand_finished") ended = true;
      applyToFinishedHand(event);
    });
    state.hand = previous;
    return ended ? hand : null;
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
      asker: nameOf(d.asker), against: nameOf(d.against), pot: d.pot, number: d.number, total: d.total,
      name: d.name || nameOf(d.seat) };
    switch (event.kind) {
      case "hand_started": return d.number === undefined ? null : fmt(S.log_hand_started, { number: d.number, dealer: nameOf(d.dealer) });
      case "boot": return fmt(S.log_boot, p);
      case "blind": return fmt(d.blind === "small" ? S.log_small_blind : S.log_big_blind, p);
      case "dealt": return S.log_dealt;
      case "see": return fmt(S.log_see, p);
      case "chaal": return fmt(d.blind ? S.log_chaal_blind : S.log_chaal_seen, p);
      case "raise": return fmt(d.blind ? S.log_raise_blind : S.log_raise_seen, p);
      case "pack": return fmt(d.reason === "sideshow" ? S.log_pack_sideshow : S.log_pack, p);
      case "sideshow": return fmt(S.log_sideshow, p);
      case "sideshow_accepted": return fmt(S.log_sideshow_accepted, p);
      case "sideshow_refused": return fmt(S.log_sideshow_refused, p);
      case "sideshow_result": return fmt(S.log_sideshow_result, { loser: nameOf(d.loser) });
      case "show":
        if (d.cards) return fmt(S.log_shows, { player: p.player, cards: d.cards.join(" ") });
        return fmt(S.log_show, p);
      case "showdown": return S.log_showdown;
      case "muck": return fmt(S.log_muck, p);
      case "hand_finished": return d.payouts ? describeFinish(d) : null;
      case "pot_awarded": return describePot(d);
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
      case "seat_taken": return fmt(S.log_seat_taken, { name: p.name, stack: d.stack });
      case "seat_bought_back": return fmt(S.log_seat_bought_back, { name: nameOf(d.seat), chips: d.chips });
      case "seat_sat_out": return fmt(S.log_seat_sat_out, { name: nameOf(d.seat) });
      case "seat_came_back": return fmt(S.log_seat_came_back, { name: nameOf(d.seat) });
      case "seat_removed": return fmt(S.log_seat_removed, { name: nameOf(d.seat) });
      case "seat_left": case "seat_out": return fmt(S.log_seat_left, { name: nameOf(d.seat) });
      case "game_started": return S.log_game_started;
      case "game_paused": return S.log_game_paused;
      case "game_resumed": return S.log_game_resumed;
      case "game_ended": return S.log_game_ended;
      case "settings_changed": return S.log_settings_changed;
      default: return null;
    }
  }

  function describePot(d) {
    var winners = (d.winners || []).map(nameOf).join(", ");
    var label = d.pot ? fmt(S.side_pot, { number: d.pot }) : S.main_pot;
    return fmt(S.log_pot_awarded, { pot: label, amount: Number(d.amount).toLocaleString(NUMBER_LOCALE), winners: winners });
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
    $("#table-root").setAttribute("data-seq", String(state.lastSeq));
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
    renderGameOver();
    offerSeed();
  }

  function renderGameOver() {
    var box = $("#game-over");
    var ended = !!(state.table && state.table.status === "ended");
    box.hidden = !ended;
    if (!ended) return;
    var finals = state.finalStacks || {};
    var text = Object.keys(finals).filter(function (id) { return finals[id] > 0; }).map(function (id) {
      return nameOf(id) + " " + Number(finals[id]).toLocaleString(NUMBER_LOCALE);
    }).join(" · ");
    $("#game-over-stacks").textContent = text ? fmt(S.final_stacks, { stacks: text }) : "";
  }

  // Fairness (docs/fairness.md): a seated player's browser may add its own seed to the deck
  // of the next hand. Only when the player asks for it (the box under "Your seat").
  function offerSeed() {
    var box = $("#add-seed");
    var seat = mySeat();
    if (!box || !box.checked || !seat || seat.number === null || seat.number === undefined) return;
    if (!state.table || state.table.status === "ended" || !state.connected) return;
    var forHand = (state.table.hands_played || 0) + 1;
    if (state.seedFor === forHand) return;
    state.seedFor = forHand;
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var seed = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    send({ type: "seed", seed: seed, id: newClientId() });
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
      // During a hand its view is exact; between hands the seat's own count is (buy-ins included).
      var stack = player && (handLive() || seat.stack === undefined) ? player.stack : seat.stack;
      var badges = el("div", { class: "badges" });
      var description = [name, chips(stack)];
      if (isDealer(player)) { badges.appendChild(el("span", { class: "badge badge-dealer", title: S.dealer, text: isHoldem() ? S.button_short : S.dealer_short })); description.push(isHoldem() ? S.button : S.dealer); }
      if (isToAct(player)) { badges.appendChild(el("span", { class: "badge badge-turn", text: S.to_act })); description.push(S.to_act); }
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
      if (won) { var wonText = fmt(S.won, { amount: Number(won).toLocaleString(NUMBER_LOCALE) }); badges.appendChild(el("span", { class: "badge badge-winner", text: wonText })); description.push(wonText); }
      var cardsBox = el("div", { class: "seat-cards hand-cards-small", "data-cards-of": id });
      if (player) drawCards(cardsBox, player.cards, player.cards ? null : cardCount(), player.best_cards || (result && result.best_cards && result.best_cards[id]));
      var node = el("li", {
        class: "seat",
        "data-seat": id,
        "data-pos": positions[i],
        "data-me": String(id === String(me())),
        "data-to-act": String(isToAct(player)),
        "data-folded": String(!!(player && (player.packed || player.folded))),
        "aria-label": description.join(", ")
      }, [
        el("div", { class: "name" }, [el("span", { class: "seat-name", text: name }), el("span", { class: "seat-stack", text: chips(stack) })]),
        badges,
        player && player.bet && (handLive() || !isHoldem()) ? el("div", { class: "bet", text: fmt(isHoldem() ? S.bet_round : S.bet_hand, { amount: player.bet }) }) : null,
        cardsBox,
        player && player.cards && player.hand && player.hand.category && String(id) !== String(me())
          ? el("div", { class: "seat-hand", text: handLabel(player.hand) }) : null
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
    $("#pot").textContent = hand ? fmt(S.pot, { amount: Number(potOf(hand)).toLocaleString(NUMBER_LOCALE) }) : "";
    var stakeText = "";
    if (hand && isHoldem()) {
      stakeText = fmt(S.blinds, { small: hand.small_blind, big: hand.big_blind });
      if (hand.current_bet && handLive()) stakeText += " · " + fmt(S.current_bet, { amount: hand.current_bet });
      // Side pots as they form (the view lists the pots collected so far, main pot first).
      if (handLive() && hand.pots && hand.pots.length > 1) {
        stakeText += " · " + hand.pots.map(function (pot, i) {
          return fmt(S.pot_line_short, { pot: i ? fmt(S.side_pot, { number: i }) : S.main_pot, amount: Number(pot.amount).toLocaleString(NUMBER_LOCALE) });
        }).join(" · ");
      }
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
      $("#my-hand-label").textContent = player.hand && player.hand.category ? handLabel(player.hand) : "";
    } else {
      for (var i = 0; i < cardCount(); i++) box.appendChild(window.DashainCards.back({ label: S.my_card_hidden }));
      $("#my-hand-label").textContent = handLive() && !player.packed ? S.not_looked : "";
    }
    var canSee = !!legal("see");
    seeButton.hidden = isHoldem() || !canSee;
    seeButton.disabled = !canSee || !state.connected;
  }

  function handLabel(hand) {
    var name = S["category_" + hand.category] || hand.category;
    return hand.value !== undefined ? name + " " + hand.value : name;
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
    var cost = costOf(action);
    return cost ? fmt(S.costs, { amount: Number(cost).toLocaleString(NUMBER_LOCALE) }) : "";
  }

  function actionButton(verb, label, key, action, amount) {
    var button = el("button", { type: "button", "data-verb": verb, "aria-keyshortcuts": key || null }, [
      el("span", { text: label }),
      key ? el("kbd", { text: key, "aria-hidden": "true" }) : null,
      costOf(action) ? el("span", { class: "cost", text: costLabel(action) }) : null
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
      if (legal("call")) bar.appendChild(actionButton("call", fmt(S.call_amount, { amount: costOf(legal("call")) }), "C", legal("call")));
      raiseAction = legal("bet") || legal("raise");
      if (raiseAction) bar.appendChild(amountGroup(raiseAction, raiseAction.verb === "bet" ? S.bet : S.raise_to, raiseAction.verb));
      if (legal("allin")) bar.appendChild(actionButton("allin", fmt(S.all_in_amount, { amount: costOf(legal("allin")) }), "A", legal("allin")));
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
    // A new turn (or new bounds) starts the box afresh; re-drawing the same turn keeps my choice.
    var key = [hand.number, hand.stake, hand.current_bet, action.verb, action.min, action.max].join("/");
    if (key !== state.raiseKey) { state.raiseKey = key; state.raiseAmount = null; }
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
        var already = player && player.bet ? player.bet : 0;
        cost.textContent = fmt(S.costs, { amount: (verb === "raise" ? amount - already : amount).toLocaleString(NUMBER_LOCALE) });
      } else {
        cost.textContent = fmt(S.costs, { amount: (amount * unitCost()).toLocaleString(NUMBER_LOCALE) });
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
    var down = el("button", { type: "button", class: "step step-down", "aria-label": S.step_down, text: "\u2212", onclick: function () { stepBy(-1); } });
    var up = el("button", { type: "button", class: "step step-up", "aria-label": S.step_up, text: "+", onclick: function () { stepBy(1); } });
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
      if (payouts[name] > 0) lines.appendChild(el("p", { class: "pot-line", "data-winner": name, text: fmt(S.result_won, { player: nameOf(name), amount: Number(payouts[name]).toLocaleString(NUMBER_LOCALE) }) }));
    });
    var reason = S["reason_" + result.reason];
    if (reason) lines.appendChild(el("p", { class: "pot-line", text: reason }));
    (result.pots || []).forEach(function (pot, i) {
      var label = i === 0 ? S.main_pot : fmt(S.side_pot, { number: i });
      lines.appendChild(el("p", { class: "pot-line", "data-pot": i, text: fmt(S.pot_line, { pot: label, amount: Number(pot.amount).toLocaleString(NUMBER_LOCALE), winners: (pot.winners || []).map(nameOf).join(", ") }) }));
    });
    var stacks = result.stacks || {};
    var stackText = Object.keys(stacks).map(function (name) { return nameOf(name) + " " + Number(stacks[name]).toLocaleString(NUMBER_LOCALE); }).join(" · ");
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
    if (!seat || (state.table && state.table.status === "ended")) return;
    var status = seat.status;
    var inHand = !!myPlayer() && handLive();
    var seated = seat.number !== null && seat.number !== undefined;
    var player = myPlayer();
    var stack = player && handLive() ? player.stack : seat.stack;
    box.appendChild(el("p", { class: "aside", text: seated ? fmt(S.your_seat, { number: seat.number, stack: chips(stack) }) : S.watching }));
    if (!seated) box.appendChild(controlButton(function () { sendSeat("take"); }, "take", S.take_seat));
    if (!isHoldem() && seated && !inHand) box.appendChild(controlButton(function () { sendSeat("buy_back"); }, "buy_back", S.buy_again));
    if (status === "playing" && seated) box.appendChild(controlButton(function () { sendSeat("sit_out"); }, "sit_out", S.sit_out));
    if (status === "sitting_out") box.appendChild(controlButton(function () { sendSeat("come_back"); }, "come_back", S.come_back));
    if (seated && !inHand) box.appendChild(controlButton(function () { sendSeat("leave"); }, "leave", S.leave_seat));
  }

  function controlButton(onClick, command, label) {
    var button = el("button", { type: "button", "data-command": command, text: label });
    button.disabled = !state.connected;
    button.addEventListener("click", onClick);
    return button;
  }

  function renderHostControls() {
    var box = $("#host-controls");
    if (!box) return;
    box.textContent = "";
    var status = state.table && state.table.status;
    function host(verb, label, extra) { return controlButton(function () { sendHost(verb, extra); }, verb, label); }
    if (status === "waiting") box.appendChild(host("start", S.start));
    if (status === "playing") box.appendChild(host("pause", S.pause));
    if (status === "paused") box.appendChild(host("resume", S.resume));
    if (status && status !== "ended") {
      var end = host("end", S.end_game);
      end.addEventListener("click", function (event) { if (!window.confirm(S.end_game_confirm)) event.stopImmediatePropagation(); }, true);
      box.appendChild(end);
    }
    var settingsLink = $("#settings-between-hands");
    if (settingsLink) settingsLink.hidden = handLive() || status === "ended";
    var removeList = $("#remove-players");
    removeList.textContent = "";
    if (handLive() || status === "ended") return;   // players are removed between hands
    Object.keys(state.seats).forEach(function (id) {
      var seat = state.seats[id];
      if (id === String(me()) || seat.number === null || seat.number === undefined) return;
      removeList.appendChild(el("li", {}, [host("remove", fmt(S.remove_player, { player: seat.name }), { seat: Number(id) })]));
    });
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
    var myTurn = isToAct(player);
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
      var step = document.querySelector(key === "arrowup" ? ".raise-group .step-up" : ".raise-group .step-down");
      if (step) { step.click(); event.preventDefault(); }
      return;
    }
    var verb = SHORTCUTS[key];
    if (verb && legal(verb)) { sendAction(verb); event.preventDefault(); }
  });

  // ------------------------------------------------------------------ wiring
  $("#see-button").addEventListener("click", function () { sendAction("see"); });
  $("#add-seed").addEventListener("change", offerSeed);
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
