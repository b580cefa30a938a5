// The table TV page of a kitchen tournament (templates/kitchen/tv.html). The server sends
// the level's end as an absolute time and its own time; the page counts down from the
// server's clock (the offset measured at each fetch), never from its own, and asks again
// every 2 seconds and when a level ends. It keeps the screen on (Screen Wake Lock API) and
// plays a tone at each level change (once the page has been touched: browsers allow sound
// only after that). The add-on's line (open now or not, its chips and price, how many were
// bought) is the server's text, as every other line.

const root = document.getElementById("tv");
const stateUrl = root.dataset.stateUrl;
const POLL_MS = 2000;
let state = JSON.parse(document.getElementById("tv-state").textContent);
let offset = state.now_ms - Date.now();
let audio = null;
let wakeLock = null;
root.dataset.level = String(state.index);
root.dataset.levelChanges = "0";

function text(id, value) {
  const node = document.getElementById(id);
  if (node.textContent !== value) node.textContent = value;
}

function shown(id, visible) {
  document.getElementById(id).hidden = !visible;
}

function two(n) {
  return String(n).padStart(2, "0");
}

function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

function tone() {
  root.dataset.levelChanges = String(Number(root.dataset.levelChanges) + 1);
  if (audio === null) return;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.3, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 1.2);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start();
  oscillator.stop(audio.currentTime + 1.2);
}

function apply(next) {
  if (next.index !== state.index && next.started) tone();
  state = next;
  root.dataset.level = String(state.index);
  text("tv-title", state.title);
  text("tv-blinds", state.blinds);
  text("tv-next", state.next_blinds || "–");
  text("tv-players", String(state.players));
  text("tv-average", state.average || "–");
  text("tv-pool", state.pool);
  const payouts = document.getElementById("tv-payouts");
  if (payouts.textContent !== state.payouts.join("")) {
    payouts.replaceChildren(...state.payouts.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  }
  const addon = document.getElementById("tv-addon");
  shown("tv-addon", state.addon !== null);
  if (state.addon !== null) {
    addon.classList.toggle("tv-addon--open", state.addon.open);
    text("tv-addon-when", state.addon.when);
    text("tv-addon-offer", state.addon.offer);
    text("tv-addon-bought", state.addon.bought);
  }
  shown("tv-paused", state.started && !state.running && !state.ended);
  shown("tv-waiting", !state.started);
  shown("tv-ended", state.ended);
}

function left() {
  if (state.left_ms === null) return null;
  if (state.running && state.deadline_ms !== null) return state.deadline_ms - (Date.now() + offset);
  return state.left_ms;
}

async function refresh() {
  try {
    const sent = Date.now();
    const response = await fetch(stateUrl, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (!response.ok) return;
    const next = await response.json();
    // The server's time, less half the round trip: the page's offset from it.
    offset = next.now_ms - (sent + Date.now()) / 2;
    apply(next);
  } catch {
    // Offline for a moment: keep counting; the next poll catches up.
  }
}

function tick() {
  const ms = left();
  text("tv-time", ms === null ? "–" : clockText(ms));
  if (ms !== null && ms <= 0 && state.running) refresh();
}

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
  } catch {
    wakeLock = null; // refused (battery saver, no permission): the screen may sleep
  }
}

document.addEventListener("visibilitychange", keepAwake);
document.addEventListener(
  "pointerdown",
  () => {
    if (audio === null && "AudioContext" in window) audio = new AudioContext();
  },
  { once: true },
);
keepAwake();
apply(state);
tick();
setInterval(tick, 250);
setInterval(refresh, POLL_MS);
