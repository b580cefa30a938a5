/*
 * table_alerts.js: what the table page says about the game's state, beside the page's
 * own script (static/js/table/, its modules, draw the hand; this file only reads what they drew).
 *
 * It owns (the status line, the state of play in words, is regions/status.js's):
 * - the paused state: an overlay on the felt, and every action button disabled (the
 *   server refuses a move anyway; the page should not offer one);
 * - the turn alert: a sound and a vibration when your turn starts, and a system
 *   notification when the tab is in the background. Off until the player turns it on
 *   (remembered in this browser); the notification permission is asked on that click,
 *   never on load.
 *
 * It reads the page's DOM contract only: #table-root[data-connection], #table-status
 * (compared with the page's own "Paused" word from #table-config), the seats'
 * data-me / data-to-act. Strings come translated in data attributes of
 * #table-alerts-config. No inline script (the page's Content-Security-Policy).
 */
(function () {
  "use strict";

  var root = document.getElementById("table-root");
  var words = document.getElementById("table-alerts-config");
  if (!root || !words) return;
  var config = {};
  try { config = JSON.parse(document.getElementById("table-config").textContent); } catch (error) { config = {}; }
  var strings = config.strings || {};
  var overlay = document.getElementById("paused-overlay");
  var toggle = document.getElementById("turn-alert-toggle");
  var STORE_KEY = "dashain.turnAlert";
  var wasMyTurn = false;

  function text(name) { return words.getAttribute("data-" + name) || ""; }

  function alertOn() {
    try { return window.localStorage.getItem(STORE_KEY) === "on"; } catch (error) { return false; }
  }

  function showToggle() {
    if (!toggle) return;
    var on = alertOn();
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? text("alert-on") : text("alert-off");
  }

  function isPaused() {
    var status = document.getElementById("table-status");
    return Boolean(status && strings.status_paused && status.textContent.trim() === strings.status_paused);
  }

  function myTurn() { return Boolean(document.querySelector('.seat[data-me="true"][data-to-act="true"]')); }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      var audio = new Context();
      var tone = audio.createOscillator();
      var volume = audio.createGain();
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.15, audio.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(volume);
      volume.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
      tone.onended = function () { audio.close(); };
    } catch (error) { /* no sound on this device: the banner still says it */ }
  }

  function announceTurn() {
    if (!alertOn()) return;
    beep();
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    if (document.hidden && window.Notification && window.Notification.permission === "granted") {
      try { new window.Notification(text("notify-title"), { body: text("notify-body"), tag: "dashain-turn" }); } catch (error) { /* some browsers only notify from a service worker */ }
    }
  }

  function disableActions(paused) {
    var buttons = document.querySelectorAll("#action-bar button, #sideshow-request button");
    Array.prototype.forEach.call(buttons, function (button) {
      if (paused) {
        if (!button.disabled) { button.disabled = true; button.setAttribute("data-paused", "true"); }
      } else if (button.getAttribute("data-paused") === "true") {
        button.disabled = root.getAttribute("data-connection") !== "open";
        button.removeAttribute("data-paused");
      }
    });
  }

  var busy = false;
  function update() {
    if (busy) return;
    busy = true;
    try {
      var paused = isPaused();
      var mine = myTurn();
      if (root.getAttribute("data-paused") !== String(paused)) root.setAttribute("data-paused", String(paused));
      if (overlay) overlay.hidden = !paused;
      disableActions(paused);
      if (mine && !wasMyTurn && !paused) announceTurn();
      wasMyTurn = mine;
    } finally {
      busy = false;
    }
  }

  if (toggle) {
    toggle.addEventListener("click", function () {
      var on = !alertOn();
      try { window.localStorage.setItem(STORE_KEY, on ? "on" : "off"); } catch (error) { /* private mode: on for this page only */ }
      showToggle();
      if (on && window.Notification && window.Notification.permission === "default") {
        window.Notification.requestPermission();
      }
      if (on) beep();  // a click unlocks sound on phones, and lets the player hear it
    });
    showToggle();
  }

  new MutationObserver(update).observe(root, {
    subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["data-connection", "data-to-act", "data-me"]
  });
  update();
})();
