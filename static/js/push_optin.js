/*
 * push_optin.js: the table page's one tap for turn reminders by Web Push (issue 28).
 *
 * The form #push-optin (templates/tables/table.html, shown only when the site has a VAPID
 * key) stays hidden in a browser without service workers or push. Its button turns the
 * reminders on for this browser: it registers the service worker (/sw.js), asks for the
 * notification permission on that click (never on load), subscribes with the site's public
 * key (data-key) and posts the subscription to the form's action with the form's CSRF
 * token; off unsubscribes and tells the server. Off by default. Strings come translated in
 * the form's data attributes. No inline script (the page's Content-Security-Policy).
 */
(function () {
  "use strict";

  var form = document.getElementById("push-optin");
  if (!form || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  var button = document.getElementById("push-toggle");
  var status = document.getElementById("push-status");
  var registration = null;

  function text(name) { return form.getAttribute("data-" + name) || ""; }

  function show(on, message) {
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? text("on") : text("off");
    status.textContent = message || "";
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function post(fields) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("input[name=csrfmiddlewaretoken]").value);
    Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    return window.fetch(form.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.message || text("failed"));
        return answer;
      });
    });
  }

  function turnOn() {
    return window.Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { show(false, text("denied")); return null; }
      return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(form.getAttribute("data-key")) })
        .then(function (subscription) { return post({ subscription: JSON.stringify(subscription) }); })
        .then(function () { show(true, ""); });
    });
  }

  function turnOff() {
    return registration.pushManager.getSubscription().then(function (subscription) {
      var endpoint = subscription ? subscription.endpoint : "";
      return (subscription ? subscription.unsubscribe() : Promise.resolve(true))
        .then(function () { return post({ off: "1", endpoint: endpoint }); })
        .then(function () { show(false, ""); });
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!registration) return;
    button.disabled = true;
    var on = button.getAttribute("aria-pressed") === "true";
    (on ? turnOff() : turnOn())
      .catch(function (error) { status.textContent = (error && error.message) || text("failed"); })
      .then(function () { button.disabled = false; });
  });

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function (found) {
    registration = found;
    return found.pushManager.getSubscription();
  }).then(function (subscription) {
    // On only when this browser's subscription is one the server holds for this seat.
    var mine = [];
    try { mine = JSON.parse(document.getElementById("push-endpoints").textContent); } catch (error) { mine = []; }
    show(Boolean(subscription && window.Notification.permission === "granted" && mine.indexOf(subscription.endpoint) !== -1), "");
    form.hidden = false;
  }).catch(function () { form.hidden = true; });
})();
