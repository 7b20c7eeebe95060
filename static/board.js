// The board's pages (templates/tournaments/_board_live.html). Where a panel has more rows than
// it holds, the server has cut them into pages (companion/tournaments/board.py) and marked each
// row with its page (data-page); this turns every panel on together, a page each data-turn
// seconds, and says which page is shown ("2/4"). Without it a screen shows the page the server
// drew (?page=, turned by the board's refresh when asked for).
// The refresh and the turns never fight: a poll asks for the page on screen (?page=, added
// below), so what it swaps in is drawn at that page, and it is shown again at once after a swap.
"use strict";
(() => {
  let tick = null;                  // the pages turned since the board was opened, from ?page=
  const board = () => document.getElementById("board-live");

  const show = () => {
    const live = board();
    if (!live) return;
    if (tick === null) tick = Number(live.dataset.tick) || 0;
    for (const panel of live.querySelectorAll("[data-pages]")) {
      const pages = Number(panel.dataset.pages) || 1;
      const page = tick % pages + 1;
      for (const row of panel.querySelectorAll("[data-page]")) {
        row.classList.toggle("off-page", Number(row.dataset.page) !== page);
      }
      const number = panel.querySelector(".board-page-number");
      if (number) number.textContent = `${page}/${pages}`;
    }
  };

  const seconds = () => Math.max(1, Number(board()?.dataset.turn) || 8);
  const turn = () => {
    tick += 1;
    show();
    setTimeout(turn, seconds() * 1000);
  };

  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt?.id === "board-live" && tick !== null) event.detail.parameters.page = tick + 1;
  });
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("DOMContentLoaded", () => {
    show();
    setTimeout(turn, seconds() * 1000);
  });
})();
