// Progressive enhancement only: every form works without this file.
// - the card grid: one tap puts a card in the chosen pile (a second tap takes it out);
// - the two ways to enter a hand switch in place, keeping what was typed;
// - +/- steppers for the sweeps; a save button that cannot be sent twice by a double tap.
"use strict";
document.documentElement.classList.add("js");

function changed(element) {
  element.dispatchEvent(new Event("change", { bubbles: true }));
}

function setUpHandForm(form) {
  const sides = Number(form.dataset.sides);
  const rest = () => form.querySelector('input[name="rest"]:checked')?.value ?? String(sides - 1);
  // A hand with two sides: the taps go to the side that does not get the rest. Otherwise (more
  // sides, or a claim, where untapped cards are not captured yet) to the pile chosen above.
  const restChosen = form.querySelector('input[name="rest"]') !== null;
  const activeSide = () => {
    if (sides === 2 && restChosen) return rest() === "0" ? "1" : "0";
    return form.querySelector('input[name="tapping"]:checked')?.value ?? "0";
  };

  // Each pile counted beside its name ("Bruno: 18 carte, 4 denari"), and each tile named with
  // its suit, pressed when it is in the pile being tapped.
  // The words and the counts said in the singular come from the server (i18n.pile_count_forms),
  // which writes the same text on the page.
  const forms = JSON.parse(form.dataset.countForms || "{}");
  const one = (n) => (forms.one || []).includes(n);
  const countText = (cards, coins) => [[cards, "card"], [coins, "coin"]]
    .map(([n, key]) => (forms[one(n) ? key : `${key}s`] || "#").replace("#", n)).join(", ");
  const names = [...form.querySelectorAll(".tapping .seg-name")].map((name) => name.textContent.trim());
  // The tiles of the pile grid, each holding a select; not the check tiles of a declaration's
  // grid (Bazzica, Sbarazzina), which are checkboxes in labels and work as they are.
  const tiles = [...form.querySelectorAll(".tile[data-card]")];
  const suitOf = (tile) => tile.dataset.card.slice(-1);
  const update = () => {
    const counts = Array.from({ length: sides }, () => [0, 0]);
    const active = activeSide();
    tiles.forEach((tile) => {
      const chosen = tile.querySelector("select").value;
      const side = chosen !== "" ? Number(chosen) : (restChosen ? Number(rest()) : -1);
      if (counts[side]) {
        counts[side][0] += 1;
        if (suitOf(tile) === form.dataset.bonusSuit) counts[side][1] += 1;
      }
      tile.setAttribute("aria-pressed", String(chosen === active));
      const elsewhere = chosen !== "" && chosen !== active ? `, ${names[Number(chosen)] ?? ""}` : "";
      tile.setAttribute("aria-label", tile.dataset.name + elsewhere);
    });
    form.querySelectorAll(".pile-count").forEach((count) => {
      const pile = counts[Number(count.dataset.pile)];
      if (pile) count.textContent = countText(pile[0], pile[1]);
    });
  };
  const put = (tile, side) => {
    tile.querySelector("select").value = side;
    tile.dataset.side = side;
  };

  tiles.forEach((tile) => {
    const select = tile.querySelector("select");
    tile.setAttribute("role", "button");
    tile.tabIndex = 0;
    const tap = () => {
      const side = activeSide();
      put(tile, select.value === side ? "" : side);
      update();
      changed(select);
    };
    tile.addEventListener("click", tap);
    tile.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); tap(); }
    });
  });
  // A tap on a suit's name takes the whole suit (a second one gives it back).
  form.querySelectorAll(".suit-pick").forEach((button) => button.addEventListener("click", () => {
    const side = activeSide();
    const suit = tiles.filter((tile) => suitOf(tile) === button.dataset.suit);
    const all = suit.every((tile) => tile.querySelector("select").value === side);
    suit.forEach((tile) => put(tile, all ? "" : side));
    update();
    if (suit.length) changed(suit[0].querySelector("select"));
  }));
  form.querySelectorAll('input[name="tapping"]').forEach((radio) => radio.addEventListener("change", update));

  form.querySelectorAll('input[name="rest"]').forEach((radio) => radio.addEventListener("change", () => {
    // A card in the pile that now takes the rest needs no tap: show it untapped.
    tiles.forEach((tile) => {
      if (tile.querySelector("select").value === rest()) put(tile, "");
    });
    // With more sides, stop tapping the pile that now takes the rest.
    if (sides > 2 && activeSide() === rest()) {
      const other = form.querySelector(`input[name="tapping"]:not([value="${rest()}"])`);
      if (other) other.checked = true;
    }
    update();
  }));
  update();

  form.querySelectorAll("[data-tab]").forEach((tab) => tab.addEventListener("click", (event) => {
    event.preventDefault();
    form.dataset.mode = tab.dataset.tab;
    form.querySelector('input[name="mode"]').value = tab.dataset.tab;
    changed(form.querySelector('input[name="mode"]'));
    // Counts: the keyboard comes up on the first count, ready to type.
    if (tab.dataset.tab === "tallies") form.querySelector(".tally-input")?.focus();
  }));

  // The count being typed in goes with the live preview (name="typing"): the server judges it
  // once it is left, so nothing is said about a number still being typed.
  const typing = form.querySelector('input[name="typing"]');
  if (typing) {
    form.addEventListener("input", (event) => {
      if (event.target.matches(".tally-input, .stepper input")) typing.value = event.target.name;
    });
    form.addEventListener("focusout", (event) => {
      if (typing.value !== "" && typing.value === event.target.name) {
        typing.value = "";
        changed(event.target);      // left: the preview judges it now
      }
    });
  }

  // Two sides by counts: the second side's figure the deck decides (the cards, the coins...)
  // follows the first's as it is typed; the server works it out the same way when it is sent.
  form.querySelectorAll("output.tally-rest").forEach((shown) => {
    const typed = document.getElementById(shown.htmlFor.value);
    const total = Number(shown.dataset.total);
    const follow = () => {
      const text = typed.value.trim();
      shown.value = /^\d+$/.test(text) && Number(text) <= total ? String(total - Number(text)) : "";
    };
    typed.addEventListener("input", follow);
    form.addEventListener("scopa:restored", follow);
  });

  // The fields put back from the phone's outbox (sending.js): each tile in its pile again.
  form.addEventListener("scopa:restored", () => {
    tiles.forEach((tile) => { tile.dataset.side = tile.querySelector("select").value; });
    const mode = form.querySelector('input[name="mode"]');
    if (mode?.value) form.dataset.mode = mode.value;
    update();
  });

  form.addEventListener("submit", (event) => {
    const button = event.submitter;
    if (button && button.name === "save") {
      // Let it be sent once, then refuse further taps until the answer comes (a form that
      // could not be sent lets go of it: sending.js).
      setTimeout(() => { button.disabled = true; }, 0);
    }
  });
}

function setUpStepper(stepper) {
  const input = stepper.querySelector("input");
  stepper.querySelectorAll("[data-step]").forEach((button) => button.addEventListener("click", () => {
    const value = Math.max(0, Math.min(20, (Number(input.value) || 0) + Number(button.dataset.step)));
    input.value = String(value);
    changed(input);
  }));
}

// The new match form: the variant chooses the seating it needs, and "who deals first" offers
// the names typed, only as many as there are seats (each layout's, as the server counts them:
// data-seats).
function setUpNewMatch(form) {
  const seatings = JSON.parse(form.dataset.seatings || "{}");
  const seats = JSON.parse(form.dataset.seats || "{}");
  const dealer = form.querySelector('select[name="first_dealer"]');
  const layout = () => form.querySelector('input[name="layout"]:checked')?.value ?? "2";
  const offerDealers = () => {
    const chosen = dealer.value;
    const count = seats[layout()] ?? 2;
    while (dealer.options.length > 1) dealer.remove(1);
    for (let seat = 0; seat < count; seat += 1) {
      const typed = form.querySelector(`input[name="player${seat + 1}"]`)?.value.trim();
      dealer.add(new Option(typed || form.dataset.playerWord.replace("#", seat + 1), String(seat)));
    }
    dealer.value = Number(chosen) < count ? chosen : "random";
    nameTeams();
  };
  // A team left without a name takes its players' ("Anna & Carla"): shown as its field's
  // placeholder as names are typed, whole, as names.team_name keeps it on the server.
  const nameTeams = () => {
    const size = Number(layout().split("x")[1] ?? 2);
    [1, 2].forEach((team) => {
      const names = [];
      for (let seat = team; seat <= 2 * size; seat += 2) {
        const typed = form.querySelector(`input[name="player${seat}"]`)?.value.trim().replace(/\s+/g, " ");
        if (typed) names.push(typed);
      }
      const field = form.querySelector(`input[name="team${team}"]`);
      if (field) field.placeholder = names.join(" & ");
    });
  };
  form.querySelector('select[name="preset"]')?.addEventListener("change", (event) => {
    const seating = seatings[event.target.value];
    const radio = seating && form.querySelector(`input[name="layout"][value="${seating}"]`);
    if (radio) { radio.checked = true; offerDealers(); }
  });
  form.querySelectorAll('input[name="layout"], .player input').forEach((input) => {
    input.addEventListener("input", offerDealers);
    input.addEventListener("change", offerDealers);
  });
}

// The referee's answer is brought into view when it comes, if it is below the screen's edge;
// not while cards of the table are being tapped, which would pull the grid away.
document.addEventListener("htmx:afterSwap", (event) => {
  const answer = event.detail.target;
  const cause = event.detail.requestConfig?.triggeringEvent?.target;
  if (!answer.classList?.contains("answer") || !answer.textContent.trim()) return;
  if (cause?.type === "checkbox" || (cause?.tagName === "SELECT" && cause.closest(".tile"))) return;
  if (answer.getBoundingClientRect().top > window.innerHeight - 80) {
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    answer.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
  }
});

// The winner's celebration plays once on each phone for each match: the first time this phone
// shows the match won, opened or brought by a poll; never again on a reload or a later poll. A
// phone that cannot remember it (no localStorage) does without. data-celebrated says it is seen.
function celebrateOnce() {
  const board = document.querySelector(".scoreboard[data-match]");
  if (!board || !board.querySelector(".total.winner")) return;
  const key = `scopa-celebrated-${board.dataset.match}`;
  let first = false;
  try {
    first = localStorage.getItem(key) === null;
    localStorage.setItem(key, "1");
  } catch {
    first = false;
  }
  if (first) board.classList.add("celebrate");
  board.dataset.celebrated = "true";
}
document.addEventListener("htmx:afterSettle", celebrateOnce);

// Each page, and each page htmx brings in whole (a form sent by htmx: sending.js): its forms
// set up once.
const within = (root, selector) => [...(root.matches?.(selector) ? [root] : []), ...(root.querySelectorAll?.(selector) ?? [])]
  .filter((element) => {
    if (element.dataset.ready !== undefined) return false;
    element.dataset.ready = "";
    return true;
  });
function setUp(root) {
  within(root, "form.new-match").forEach(setUpNewMatch);
  within(root, "form.hand-form").forEach(setUpHandForm);
  within(root, "[data-stepper]").forEach(setUpStepper);
}
htmx.onLoad(setUp);
document.addEventListener("DOMContentLoaded", () => {
  setUp(document.body);
  celebrateOnce();
  setUpShare();
});

// A finished match's "Share the result": the phone's share sheet where it has one (the Web
// Share API), else the text and address copied, with a word that says so. Over plain http on
// the table's network a phone has neither the share sheet nor the clipboard API: the text is
// then selected and copied the old way, and shown, to copy by hand if even that fails. One
// listener for the whole page: the live region is swapped in anew when the match changes.
async function shareResult(box) {
  const { shareText: text, shareUrl: url, shareTitle: title } = box.dataset;
  if (navigator.share) {
    try {
      await navigator.share({ title, text, url });
      return;
    } catch (error) {
      if (error.name === "AbortError") return;       // the player closed the share sheet
    }
  }
  const whole = `${text}\n${url}`;
  let copied = false;
  try {
    await navigator.clipboard.writeText(whole);
    copied = true;
  } catch {
    const shown = box.querySelector(".share-text");
    shown.classList.remove("js-hide");
    shown.open = true;
    const area = shown.querySelector("textarea");
    area.focus();
    area.select();
    try { copied = document.execCommand("copy"); } catch { copied = false; }
  }
  const status = box.querySelector(".share-status");
  if (copied && status) status.textContent = box.dataset.copied;
}

function setUpShare() {
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.(".share-button");
    if (button) shareResult(button.closest(".share"));
  });
}
