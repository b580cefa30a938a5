/* A sideshow asked and not yet answered: the question, and accept/refuse for the one asked. */

import { $, once } from "../dom.js";
import { S, fmt } from "../words.js";
import { handLive, legal, me, nameOf, state } from "../store.js";

export function renderSideshow() {
  const pending = handLive() ? state.hand.sideshow : null;
  once("sideshow", [pending, !!legal("accept"), !!legal("refuse"), state.seats], () => {
    const box = $("#sideshow-request");
    box.hidden = !pending;
    if (!pending) return;
    $("#sideshow-text").textContent = String(pending.partner) === me()
      ? fmt(S.sideshow_asked_you, { asker: nameOf(pending.asker) })
      : fmt(S.sideshow_waiting, { asker: nameOf(pending.asker), partner: nameOf(pending.partner) });
    $("#sideshow-accept").hidden = !legal("accept");
    $("#sideshow-refuse").hidden = !legal("refuse");
  });
}
