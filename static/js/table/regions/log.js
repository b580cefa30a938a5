/* The hand's log in words. */

import { $, el, once } from "../dom.js";
import { state } from "../store.js";

export function renderLog() {
  const last = state.log[state.log.length - 1];
  once("log", [state.log.length, last && last.seq, state.log[0] && state.log[0].seq], () => {
    const list = $("#hand-log");
    list.textContent = "";
    for (const line of state.log) list.appendChild(el("li", { "data-seq": line.seq, text: line.text }));
    list.scrollTop = list.scrollHeight;
  });
}
