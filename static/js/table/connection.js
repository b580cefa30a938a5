/*
 * connection.js: the page's one WebSocket to its table, kept open.
 *
 * Owns: connecting; a heartbeat: a "beat" every 5 s while the page is on screen (its "pong"
 * carries the last seq the socket sent, read from no database, so a page that lost news on
 * the way, with no later news to show the gap, asks for a snapshot within one beat) and a
 * "ping" every 25 s, on screen or not (its "pong" carries the table's latest seq from the
 * log, after the server sent what the socket had missed); no frame at all for 60 s means the
 * socket is dead even if the browser has not noticed, so it is closed and opened again; reconnecting after a loss with a jittered backoff (a random wait
 * between half and all of 0.5 s, 1 s, 2 s ... 10 s, so a table's pages do not all come
 * back at the same instant after a server restart); reconnecting at once when the
 * browser comes back online or the tab is shown again. A socket the server closed
 * because this viewer may not be there (4403: not at the table, banned), signed out (4401)
 * or whose guest seat was opened in another browser (4409) is not reopened.
 * A socket closed with 4503 (the server cannot reach the table's records or news right
 * now: it accepts, says "unavailable", closes) is reopened with the same back-off, which
 * starts again from 0.5 s only once a snapshot has arrived, not on every accepted socket.
 * It tells the server whether the page is on screen (a "visibility" frame when it opens
 * and at every change): no push reminder is sent to a page in view.
 */

const HEARTBEAT_MS = 5000;
const PING_MS = 25000;
const SILENCE_MS = 60000;
const NO_RETRY = new Set([4401, 4403, 4409]);

export function connect({ path, onOpen, onFrame, onClose, onSocket }) {
  let socket = null;
  let retry = 0;
  let retryTimer = null;
  let heartbeat = null;
  let lastHeard = 0;
  let pings = 0;
  let lastPing = 0;
  let stopped = false;

  function open() {
    if (stopped) return;
    window.clearTimeout(retryTimer);
    retryTimer = null;
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const current = new WebSocket(scheme + window.location.host + path);
    socket = current;
    onSocket(current);
    current.addEventListener("open", () => {
      if (socket !== current) return;
      lastHeard = Date.now();
      lastPing = Date.now();  // the snapshot just read the log: the first full ping in 25 s
      window.clearInterval(heartbeat);
      heartbeat = window.setInterval(beat, HEARTBEAT_MS);
      reportVisibility();
      onOpen();
    });
    current.addEventListener("message", (message) => {
      if (socket !== current) return;
      lastHeard = Date.now();
      let frame;
      try { frame = JSON.parse(message.data); } catch (error) { return; }
      if (frame.type === "snapshot") retry = 0;   // the table is really back
      onFrame(frame);
    });
    current.addEventListener("close", (event) => {
      if (socket !== current) return;
      socket = null;
      window.clearInterval(heartbeat);
      const final = NO_RETRY.has(event.code);
      onClose(final, event.code);
      if (final) { stopped = true; return; }
      const ceiling = Math.min(10000, 500 * Math.pow(2, retry));
      retry += 1;
      retryTimer = window.setTimeout(open, ceiling / 2 + Math.random() * ceiling / 2);
    });
  }

  function beat() {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - lastHeard > SILENCE_MS) { socket.close(); return; }
    pings += 1;
    if (Date.now() - lastPing >= PING_MS) {
      lastPing = Date.now();
      send({ type: "ping", id: "heartbeat-" + pings });
    } else if (document.visibilityState === "visible") {
      // A hidden tab beats less; it catches up when shown again (now()).
      send({ type: "beat", id: "heartbeat-" + pings });
    }
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  function reportVisibility() {
    // Whether this page is on screen: the server sends no push reminder while it is.
    send({ type: "visibility", visible: document.visibilityState === "visible" });
  }

  function now() {
    // Back online, or the tab shown again: reconnect without waiting for the backoff,
    // or make sure an open socket still answers.
    if (stopped) return;
    if (!socket) open();
    else if (socket.readyState === WebSocket.OPEN) { lastPing = 0; beat(); }  // a full ping
  }

  window.addEventListener("online", now);
  document.addEventListener("visibilitychange", () => {
    reportVisibility();
    if (document.visibilityState === "visible") now();
  });
  open();
  return { send };
}
