/* A page that waits for someone else: this browser's "This is me" waiting for the host
 * (issue 38), a request to join by the table's code waiting for the host's answer, a seat
 * link waiting for the hand its seat is in to end.
 *
 * Every few seconds it reads the page again in the background and reloads once the answer
 * has changed: the host said yes (the page then answers with a redirect to the table), no,
 * or the seat is on its way. A reload on a timer (<meta http-equiv="refresh">) would reload
 * under the reader's eyes whether or not anything changed, which axe flags. */
(function () {
  "use strict";
  const box = document.querySelector("[data-claim-wait]");
  if (!box) return;
  const said = box.textContent.trim();
  const LOOK_EVERY_MS = 5000;

  async function look() {
    try {
      const answer = await fetch(window.location.href, { redirect: "manual", credentials: "same-origin" });
      if (answer.type === "opaqueredirect") {
        window.location.reload();
        return;
      }
      if (answer.ok) {
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const now = page.querySelector("[data-claim-wait]");
        if (!now || now.textContent.trim() !== said) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // Offline for a moment: look again later.
    }
    window.setTimeout(look, LOOK_EVERY_MS);
  }

  window.setTimeout(look, LOOK_EVERY_MS);
})();
