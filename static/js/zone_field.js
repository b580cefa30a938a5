/*
 * zone_field.js: a form's time-zone list set to the browser's zone (the Intl API:
 * Intl.DateTimeFormat().resolvedOptions().timeZone) on a form not yet sent (the list is marked
 * data-browser-zone only then; sent back with an error, it keeps the person's choice); the
 * person sees it and may choose another before sending. A zone the list does not have leaves
 * the default. No inline script (the Content-Security-Policy).
 */
(function () {
  "use strict";

  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
  if (!zone) return;
  var lists = document.querySelectorAll("select[data-browser-zone]");
  for (var index = 0; index < lists.length; index += 1) {
    var list = lists[index];
    for (var option = 0; option < list.options.length; option += 1) {
      if (list.options[option].value === zone) {
        list.selectedIndex = option;
        break;
      }
    }
  }
})();
