/*
 * controls.js: the buttons the regions draw, and the page's own "are you sure?".
 *
 * Owns: a button that sends one command (controlButton), and a button that asks first
 * (askFirst) before a step that costs money or cannot be undone: buying in again (a
 * player's own, or a player's on the host's phone), ending the game, banning a player.
 * The question is the page's, never the browser's window.confirm (which stops the page, cannot
 * be drawn or translated with it, and which a browser may silence): it takes the button's
 * place, a group named by the question with "Yes, ..." (focused as it opens) and "Cancel";
 * Escape says no too, and the keyboard goes back to the button once it is answered. Only
 * "Yes" sends anything.
 *
 * One question is open at a time. A region that draws an asking button keeps
 * openQuestion() in the key of its once(), so it redraws as a question opens or closes;
 * main.js tells this module how to redraw the page (questionsRedrawWith) and, after each
 * redraw, lets it forget a question whose button is no longer drawn (questionsTidy), so the
 * question is not open again when the button comes back.
 */

import { el } from "./dom.js";
import { state } from "./store.js";
import { S } from "./words.js";

const open = { key: null };   // the question open now (its key), if any
let redrawPage = () => {};

export function controlButton(onClick, command, label) {
  const node = el("button", { type: "button", "data-command": command, text: label });
  node.disabled = !state.connected;
  node.addEventListener("click", onClick);
  return node;
}

/** The page's redraw, called as a question opens or closes (main.js's render). */
export function questionsRedrawWith(render) {
  redrawPage = render;
}

/** The key of the question open now, or null: part of the once() key of a region that asks. */
export function openQuestion() {
  return open.key;
}

/**
 * The button ``label`` (``data-command``: ``command``) that asks ``question`` before it
 * does ``onYes``; while its question is open, the question in its place. ``key`` names this
 * question on the page (stable across redraws, unique among the questions drawn: "ban-12");
 * the question's text gets the id ``<key>-question``, its answers the commands
 * ``<command>_yes`` and ``<command>_no``.
 */
export function askFirst({ key, command, label, question, yes, onYes }) {
  if (open.key !== key) {
    const button = controlButton(() => change(key, key), command, label);
    button.dataset.asksFirst = key;   // so the keyboard finds its way back to it
    return button;
  }
  const yesButton = controlButton(() => { onYes(); change(null, key); }, command + "_yes", yes);
  yesButton.classList.add("confirm-yes");
  const noButton = controlButton(() => change(null, key), command + "_no", S.question_no);
  const group = el("div", { class: "confirm-question", role: "group", "aria-labelledby": key + "-question", "data-question": key }, [
    el("p", { id: key + "-question", text: question }),
    el("div", { class: "confirm-answers" }, [yesButton, noButton])
  ]);
  group.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    change(null, key);
  });
  return group;
}

/**
 * Redraw ``box`` with ``draw`` and keep the keyboard on the control it was on: the one with
 * the same command in the same row (a row: the nearest ``data-seat``), as a frame from the
 * server redraws a region under the player's hands (a question open, say).
 */
export function keepFocus(box, draw) {
  const active = document.activeElement;
  const had = active && box.contains(active) && active.hasAttribute("data-command") ? mark(active) : null;
  draw();
  if (had === null) return;
  const target = Array.from(box.querySelectorAll("[data-command]")).find((node) => mark(node) === had);
  if (target) target.focus();
}

function mark(node) {
  const row = node.closest("[data-seat]");
  return (row ? row.getAttribute("data-seat") : "") + "/" + node.getAttribute("data-command");
}

/** After each redraw: a question whose button is no longer drawn is closed, not left to reopen. */
export function questionsTidy() {
  if (open.key !== null && !document.querySelector(`[data-question="${open.key}"]`)) open.key = null;
}

/** Open the question ``key`` (or close it: ``key`` null) and put the keyboard where it belongs. */
function change(key, asked) {
  open.key = key;
  redrawPage();
  // On "Yes" as the question opens, back on the asking button once it is answered.
  const target = key !== null
    ? document.querySelector(`[data-question="${asked}"] .confirm-yes`)
    : document.querySelector(`[data-asks-first="${asked}"]`);
  if (target) target.focus();
}
