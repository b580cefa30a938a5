/*
 * zone_prompt.js: the browser's time zone proposed to someone who has not chosen one
 * (templates/homegames/_zone_prompt.html). The zone comes from the Intl API
 * (Intl.DateTimeFormat().resolvedOptions().timeZone); the form stays hidden where the
 * browser has none to offer. Nothing is saved until the person presses the form's button.
 * No inline script (the page's Content-Security-Policy).
 */
(function () {
  "use strict";

  var forms = document.querySelectorAll("[data-zone-prompt]");
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
  if (!zone || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return;
  for (var index = 0; index < forms.length; index += 1) {
    var form = forms[index];
    form.querySelector('[name="time_zone"]').value = zone;
    form.querySelector("[data-zone-name]").textContent = zone.replace(/_/g, " ");
    form.hidden = false;
  }
})();
