// A link that carries a code (the organiser's link, a scorer's QR link): its page holds the code
// in a form that POSTs it with the CSRF token (templates/link_opened.html), since a GET never
// checks a code: an <img> of the link in another site's page would count a wrong one against the
// club's address. This sends that form at once, so opening the link stays one step; without
// JavaScript the phone taps its button.
"use strict";
(() => {
  const send = () => {
    for (const form of document.querySelectorAll("form[data-sends-itself]")) {
      if (form.dataset.sent) continue;
      form.dataset.sent = "1";                  // once: Back to this page sends nothing again
      form.requestSubmit();
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", send);
  else send();
})();
