/* The host's controls: start, pause, resume, end, the settings link, removing a player between hands. */

import { $, el, once } from "../dom.js";
import { S, fmt } from "../words.js";
import { handLive, me, rules, state } from "../store.js";
import { controlButton } from "./seat-controls.js";

export function renderHost(sendHost) {
  const box = $("#host-controls");
  if (!box) return;
  const status = state.table && state.table.status;
  once("host", [status, handLive(), state.seats, state.connected], () => {
    box.textContent = "";
    const host = (verb, label, extra) => controlButton(() => sendHost(verb, extra), verb, label);
    if (status === "waiting") box.appendChild(host("start", S.start));
    if (status === "playing") box.appendChild(host("pause", S.pause));
    if (status === "paused") box.appendChild(host("resume", S.resume));
    if (status && status !== "ended") {
      const end = host("end", S.end_game);
      end.addEventListener("click", (event) => { if (!window.confirm(S.end_game_confirm)) event.stopImmediatePropagation(); }, true);
      box.appendChild(end);
    }
    // Computers take seats while the game may still seat anyone: never once it has ended,
    // and where seats are taken before the start (hold'em), only before it.
    const computers = $(".host-computers");
    if (computers) computers.hidden = status === "ended" || (!rules().seating_after_start && status !== "waiting");
    const settingsLink = $("#settings-between-hands");
    if (settingsLink) settingsLink.hidden = handLive() || status === "ended";
    const removeList = $("#remove-players");
    removeList.textContent = "";
    if (handLive() || status === "ended") return;   // players are removed between hands
    for (const [id, seat] of Object.entries(state.seats)) {
      if (id === me() || seat.number === null || seat.number === undefined) continue;
      removeList.appendChild(el("li", {}, [host("remove", fmt(S.remove_player, { player: seat.name }), { seat: Number(id) })]));
    }
  });
}
