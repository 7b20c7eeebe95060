// Progressive enhancement only: every form works without this file, as a plain POST.
// What it adds to a phone whose network (or server) drops for a moment:
// - A write is sent by htmx (the forms carry hx-boost): the page stays until the server has
//   answered. If the companion cannot be reached (no network, the server down, no answer in
//   10 s: htmx:sendError, htmx:timeout), everything entered stays on screen and the page says so.
// - The outbox: a write from a form marked data-outbox (a hand, its edit, a delete and its Undo,
//   a claim...) is kept in this phone's storage (localStorage) with the form's fields, its
//   one-time key among them, and its address, and sent again by itself: after 1, 2, 4 ... 30 s,
//   at once when the browser says it is online, and when any page of the companion is opened
//   again. The key makes a hand sent twice count once; a hand another phone recorded under the
//   same number brings the conflict screen, as without JavaScript. A form without data-outbox
//   (a new match, the PIN) is never sent again by itself: the page says to send it again.
// - A poll that fails (the live score, the hand page's notice, the tournament's board) shows
//   "Offline since 21:03", filled once into a status region, and the polls back off (2, 4 ... 30
//   s); the next poll that gets through takes the banner away.
// A service worker would keep the outbox with no page open, but needs HTTPS, which a club's LAN
// address does not have (docs/running.md): the outbox works while a page of the companion is open.
"use strict";
(() => {
  const STORE = "scopa-outbox";
  const AGAIN = [1, 2, 4, 8, 16, 30];               // seconds before each new try of the outbox
  const POLLS = "#live-poll, #notice, #board-live";

  // -- The outbox: { [action]: {action, fields: [[name, value]], label, at} } --------------------

  const read = () => {
    try { return JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch { return {}; }
  };
  const write = (box) => {
    try { localStorage.setItem(STORE, JSON.stringify(box)); return true; } catch { return false; }
  };
  const where = (url) => { const u = new URL(url, location.href); return u.pathname + u.search; };
  const clock = (time) => new Date(time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

  // A form's request is a write to keep: any request of a form with data-outbox="", else one
  // made by a button named in data-outbox (the hand form's Save, not its "Cards"/"Counts").
  const keeps = (form, fields) => {
    if (form.dataset.outbox === undefined) return false;
    const names = form.dataset.outbox.split(" ").filter(Boolean);
    return names.length === 0 || fields.some(([name]) => names.includes(name));
  };

  // -- What the page says ----------------------------------------------------------------------

  function sayUnsent(form, kept) {
    const model = document.getElementById("unsent-words")?.content.firstElementChild;
    if (!model || form.hidden) return;
    let said = form.querySelector(".unsent");
    if (!said) {
      said = model.cloneNode(true);
      said.classList.add("error", "big");         // not in the page's own HTML: no error there
      // Above the Save button, in its bar that stays at the foot of the screen; else first.
      const bar = form.querySelector(".save-bar");
      if (bar) bar.prepend(said); else form.prepend(said);
    }
    said.textContent = kept ? model.dataset.kept : model.dataset.again;
  }

  function showOutbox() {
    const section = document.getElementById("outbox");
    if (!section) return;
    const list = section.querySelector(".outbox-list");
    const model = section.querySelector("template").content.firstElementChild;
    const entries = Object.values(read());
    list.replaceChildren(...entries.map((entry) => {
      const item = model.cloneNode(true);
      item.querySelector(".outbox-what").textContent = entry.label || entry.action;
      item.querySelector(".outbox-since").textContent = section.dataset.since.replace("{time}", clock(entry.at));
      const discard = item.querySelector(".outbox-discard");
      discard.setAttribute("aria-label", `${discard.textContent.trim()}: ${entry.label || entry.action}`);
      discard.addEventListener("click", () => {
        const box = read();
        delete box[entry.action];
        write(box);
        document.querySelectorAll("form[data-outbox] .unsent").forEach((said) => {
          if (where(said.closest("form").action) === entry.action) said.remove();
        });
        showOutbox();
      });
      return item;
    }));
    section.hidden = entries.length === 0;
  }

  function sayLanded(label) {
    const section = document.getElementById("outbox");
    if (!section || !label) return;
    const note = document.createElement("p");
    note.className = "flash";
    note.setAttribute("role", "status");
    note.dataset.testid = "sent";
    note.textContent = section.dataset.sent.replace("{what}", label);
    section.before(note);
  }

  // -- Sending the outbox again ----------------------------------------------------------------

  let tries = 0;
  let timer = null;
  const sending = new Set();        // the actions under way from this page

  function later(now) {
    clearTimeout(timer);
    if (Object.keys(read()).length === 0) return;
    timer = setTimeout(sendAll, now ? 0 : AGAIN[Math.min(Math.max(tries - 1, 0), AGAIN.length - 1)] * 1000);
  }

  function sendAll() {
    if (navigator.onLine === false) return;       // the online event will send them
    Object.values(read()).forEach((entry) => { if (!sending.has(entry.action)) sendAgain(entry); });
  }

  const onScreen = (entry) => [...document.querySelectorAll("form[data-outbox]:not([data-resend])")]
    .find((form) => where(form.action) === entry.action);

  // Sent as a tap sends it: a click on its button, which htmx sends. The form on screen, if this
  // page shows it (with what the player may have changed since); else a hidden copy of it.
  function sendAgain(entry) {
    let form = onScreen(entry);
    if (!form) {
      form = document.createElement("form");
      form.method = "post";
      form.action = entry.action;
      form.hidden = true;
      form.setAttribute("hx-boost", "true");
      form.dataset.outbox = "";
      form.dataset.resend = "";
      form.dataset.outboxLabel = entry.label || "";
      document.body.append(form);
    }
    // The fields the form on screen does not hold (the extreme hand's answer, the choice made
    // on the conflict screen), and every field in a hidden copy.
    form.querySelectorAll("input[data-kept]").forEach((input) => input.remove());
    // The CSRF token of this page, if it has one: the session's own now (the one kept may be of
    // a session the browser has since closed).
    const token = document.querySelector('form:not([data-resend]) input[name="csrf_token"]')?.value;
    const held = new Set([...form.elements].map((element) => element.name));
    entry.fields.forEach(([name, stored]) => {
      const value = name === "csrf_token" && token ? token : stored;
      if (held.has(name)) return;
      const input = document.createElement("input");
      Object.assign(input, { type: "hidden", name, value });
      input.dataset.kept = "";
      form.append(input);
    });
    const buttons = [...form.querySelectorAll('button[type="submit"], button:not([type])')];
    let button = buttons.find((b) => b.name && entry.fields.some(([n, v]) => n === b.name && v === b.value))
      || buttons.find((b) => b.name === "save") || buttons.find((b) => !b.name);
    if (!button) {
      button = document.createElement("button");
      button.type = "submit";
      button.hidden = true;
      form.append(button);
    }
    if (form.dataset.resend !== undefined) htmx.process(form);
    sending.add(entry.action);
    button.disabled = false;
    button.click();
  }

  // The fields kept, put back into the form the page shows for the same address (a reload, the
  // hand page opened again): the cards tapped, the counts, the key. The CSRF token stays the
  // page's own (the same session's: either is good).
  function restore(form, entry) {
    const values = new Map();
    entry.fields.forEach(([name, value]) => values.set(name, [...(values.get(name) || []), value]));
    const seen = new Map();
    [...form.elements].forEach((element) => {
      const name = element.name;
      if (!name || name === "csrf_token" || element.tagName === "BUTTON") return;
      const kept = values.get(name) || [];
      if (element.type === "radio" || element.type === "checkbox") {
        element.checked = kept.includes(element.value);
      } else if (values.has(name)) {
        const index = seen.get(name) || 0;
        seen.set(name, index + 1);
        element.value = kept[index] ?? "";
      }
    });
    form.dispatchEvent(new Event("scopa:restored"));
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // -- htmx's events -----------------------------------------------------------------------------

  // The element that made the request (htmx fires some events on its target: the body).
  const source = (detail) => detail.requestConfig?.elt ?? detail.elt;
  const isWrite = (detail) => detail.boosted && source(detail)?.tagName === "FORM";
  const fieldsOf = (config) => [...config.formData.entries()].filter(([, value]) => typeof value === "string");

  function unreachable(event) {
    const detail = event.detail;
    if (source(detail)?.matches?.(POLLS)) { pollFailed(); return; }
    if (!isWrite(detail)) return;
    const form = source(detail);
    const fields = fieldsOf(detail.requestConfig);
    const action = where(detail.requestConfig.path);
    sending.delete(action);
    let kept = false;
    if (keeps(form, fields)) {
      const box = read();
      box[action] = { action, fields, label: form.dataset.outboxLabel || "", at: box[action]?.at || Date.now() };
      kept = write(box);
    }
    if (form.dataset.resend !== undefined) form.remove();
    else sayUnsent(form, kept);
    // The double-tap guard (companion.js, which holds the button from the next turn on) lets
    // go: the player may send it again.
    const letGo = () => form.querySelectorAll("button[disabled]").forEach((b) => { b.disabled = false; });
    letGo();
    setTimeout(letGo, 0);
    if (kept) {
      tries += 1;
      showOutbox();
      later();
    }
  }
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);

  // An answer came: whatever it says (saved, refused, the conflict screen) the write reached the
  // server and leaves the outbox. A page with an error (400, 409, 503) is shown as without
  // JavaScript: htmx leaves 4xx and 5xx answers unswapped unless told.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!isWrite(detail)) return;
    const form = source(detail);
    const fields = fieldsOf(detail.requestConfig);
    const action = where(detail.requestConfig.path);
    sending.delete(action);
    if (keeps(form, fields)) {
      const box = read();
      delete box[action];
      write(box);
      tries = 0;
    }
    if (detail.xhr.status >= 400) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
    // Sent again from another page: the page is left as it is, unless the answer needs the
    // player (the conflict screen, a refusal) or is the page already shown, brought up to date.
    const landed = detail.xhr.status < 400 && detail.pathInfo.responsePath !== action;
    if (form.dataset.resend !== undefined && landed && detail.pathInfo.responsePath !== location.pathname) {
      detail.shouldSwap = false;
      form.remove();
      sayLanded(form.dataset.outboxLabel);
      showOutbox();
    }
  });

  // -- Polls: the banner and the back-off ------------------------------------------------------

  let pollFailures = 0;
  let pollWait = 0;
  let offlineSince = null;

  function showBanner() {
    const banner = document.getElementById("offline-banner");
    if (!banner) return;
    const text = offlineSince === null ? "" : banner.dataset.text.replace("{time}", clock(offlineSince));
    if (banner.textContent !== text) banner.textContent = text;      // filled once: heard once
  }

  function pollFailed() {
    pollFailures += 1;
    pollWait = Date.now() + Math.min(30, 2 ** pollFailures) * 1000 - 250;
    if (offlineSince === null) offlineSince = Date.now();
    showBanner();
  }

  function pollAnswered() {
    pollFailures = 0;
    pollWait = 0;
    offlineSince = null;
    showBanner();
  }

  // A poll due while backing off is not sent (htmx's "every 2s" keeps ticking).
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (source(event.detail)?.matches?.(POLLS) && Date.now() < pollWait) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const { xhr } = event.detail;
    if (isWrite(event.detail)) sending.delete(where(event.detail.requestConfig.path));
    if (source(event.detail)?.matches?.(POLLS) && xhr.status > 0 && xhr.status < 500) pollAnswered();
  });
  document.addEventListener("htmx:responseError", (event) => {
    if (source(event.detail)?.matches?.(POLLS)) pollFailed();
  });

  window.addEventListener("online", () => {
    tries = 0;
    pollWait = 0;
    later(true);
  });

  // -- Each page (and each page htmx brings in) --------------------------------------------------

  htmx.onLoad((root) => {
    if (!root.querySelector?.("#outbox") && root.id !== "outbox") return;
    const box = read();
    document.querySelectorAll("form[data-outbox]:not([data-resend])").forEach((form) => {
      const entry = box[where(form.action)];
      if (entry && form.dataset.restored === undefined) {
        form.dataset.restored = "";
        restore(form, entry);
        sayUnsent(form, true);
      }
    });
    showOutbox();
    showBanner();
    later(true);
  });
})();
