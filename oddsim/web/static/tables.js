// Tables that fit their box (issue 35): a table wider than its box drops its bar column, and
// where that is not enough is laid out as cards, a row
// per card with each cell named by its column (style.css: table.cards), instead of being cut
// with a sideways scroll nobody sees. What still overflows sideways (the purchase report, a
// table too wide even as cards) gets a visible cue. Loaded before app.js; it watches the
// tab panels, so every table drawn there (today's and a later helper's) is fitted.
"use strict";

function labelCells(table) {
  // each body cell's column name, for the cards layout (data-label, shown by CSS)
  const head = table.tHead ? Array.from(table.tHead.rows[0]?.cells || []) : [];
  const names = head.map(cell => cell.textContent.trim());
  for (const body of table.tBodies) for (const row of body.rows)
    Array.from(row.cells).forEach((cell, i) => { if (names[i] && !cell.dataset.label) cell.dataset.label = names[i]; });
}

function fitTable(table) {
  // cards where the table, laid out as a table, is wider than its box (and visible to measure)
  const box = table.parentElement;
  if (!box || !table.tHead || box.clientWidth === 0) return;
  labelCells(table);
  table.classList.remove("cards", "tight");
  const wide = () => table.scrollWidth > box.clientWidth + 1;
  if (wide()) table.classList.add("tight");  // first without its bars, headers wrapped
  if (wide()) { table.classList.remove("tight"); table.classList.add("cards"); }
}

const SCROLL_CUE = "scroll sideways to see all of it";

function cueOverflow(node) {
  // a box that scrolls sideways: a shadow at its edge and a line saying so above it
  const over = node.clientWidth > 0 && node.scrollWidth > node.clientWidth + 1;
  node.classList.toggle("overflows", over);
  const cue = node.previousElementSibling && node.previousElementSibling.classList.contains("scroll-cue")
    ? node.previousElementSibling : null;
  if (over && !cue) node.before(Object.assign(document.createElement("p"), { className: "scroll-cue", textContent: SCROLL_CUE }));
  if (!over && cue) cue.remove();
}

function fitAll(root = document) {
  for (const table of root.querySelectorAll("[role=tabpanel]:not([hidden]) .results table, [role=tabpanel]:not([hidden]) .summary table"))
    fitTable(table);
  for (const node of root.querySelectorAll("[role=tabpanel]:not([hidden]) .scroll, [role=tabpanel]:not([hidden]) pre.report"))
    cueOverflow(node);
}

let fitPending = false;
function fitSoon() {
  if (fitPending) return;
  fitPending = true;
  requestAnimationFrame(() => { fitPending = false; fitAll(); });
}

document.addEventListener("DOMContentLoaded", () => {
  const watched = document.querySelector("main");
  if (!watched) return;
  // (a table drawn, rows shown by "show all", a tab opened, a details unfolded)
  new MutationObserver(fitSoon).observe(watched, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden", "open"] });
  window.addEventListener("resize", fitSoon);
  document.addEventListener("toggle", fitSoon, true);
});
