/*
 * share_link.js: a Copy button, and a Share button where the browser has the Web Share API,
 * beside each link a host hands out (the home game's invite link, a calendar feed).
 *
 * Each box [data-share-for="<input id>"] (templates/_share_link.html) stays hidden without
 * JavaScript: the link is still in its read-only field, to select and copy by hand. Copy
 * writes the field's value with the Clipboard API, or selects it and uses the older copy
 * command where that API is missing; Share opens the phone's share sheet
 * (navigator.share) and is shown only where it exists. What happened is said in the box's
 * live status. Strings come translated in the box's data attributes. No inline script
 * (the page's Content-Security-Policy).
 */
(function () {
  "use strict";

  function setUp(box) {
    var input = document.getElementById(box.getAttribute("data-share-for"));
    var copy = box.querySelector("[data-copy]");
    var share = box.querySelector("[data-share]");
    var status = box.querySelector("[data-status]");
    if (!input || !copy || !share || !status) return;

    function say(name) { status.textContent = box.getAttribute("data-" + name) || ""; }

    function copyBySelecting() {
      input.focus();
      input.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
      say(done ? "copied" : "select");
    }

    copy.addEventListener("click", function () {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(input.value).then(function () { say("copied"); }, copyBySelecting);
      } else {
        copyBySelecting();
      }
    });

    if (typeof navigator.share === "function") {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: box.getAttribute("data-title") || document.title, url: input.value })
          .catch(function () { /* closed without sharing: nothing to say */ });
      });
    }
    box.hidden = false;
  }

  var boxes = document.querySelectorAll("[data-share-for]");
  for (var index = 0; index < boxes.length; index += 1) setUp(boxes[index]);
})();
