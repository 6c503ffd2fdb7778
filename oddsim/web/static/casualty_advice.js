// Best casualties (issue 33): the goal under best play beside the fixed orders, and the advice a
// player uses at the table (which units to lose for each number of hits in the battle's first
// round, or the round a battle in progress is at). The attacker's loss depends on the hits it
// scored too (they decide what the defender has left): its table gives, per hits taken, the loss
// after most rolls and the hits scored that call for another; the whole grid (every hits scored
// by every hits taken, after each AA outcome; hits scored after which it loses the same share a
// column) unfolds below it. At sea with submarines ("typed"): per phase, a loss for each group of
// hits (the subs', the aircraft's, the rest's), the attacker's with the hits scored that call for
// another; general fire after the surprise strike's likeliest outcome, and "Every case" unfolds
// each phase's grid after each outcome ("typed_grid"). app.js calls
// casualtyAdvice(data.casualty_policy) where an answer carries one; it reads app.js's el().

function casualtyAdvice(policy) {
  const pct = x => `${(100 * x).toFixed(1)}%`;
  const figure = x => (policy.goal === "take" || policy.goal === "win") ? pct(x) : `${x >= 0 ? "+" : ""}${x.toFixed(2)} IPC`;
  const words = { take: "takes the territory", win: "wins", tuv: "TUV swing", value: "value" }[policy.goal];
  const who = [policy.attacker_best && "attacker", policy.defender_best && "defender"].filter(Boolean).join(" and ");
  const grid = policy.grid || [];
  const afterAA = start => start.aa_hits === 0 ? "after no AA hit"
    : `after ${start.aa_hits} AA hit${start.aa_hits === 1 ? "" : "s"} (${start.aa_lost} lost)`;
  const round = policy.in_progress ? "This round" : grid.length > 1 ? `Round 1, ${afterAA(grid[0])}` : "Round 1";
  const box = el("div", { id: "out-casualty-policy", class: "casualty-advice" },
    el("h4", { text: "Best casualties" }),
    el("p", { id: "out-casualty-summary", "data-value": String(policy.value),
      text: `${words} ${figure(policy.value)} with the ${who} choosing each loss; ${figure(policy.fixed_order_value)} by the order of loss` }));
  const table = (id, title, head, rows) => {
    if (!rows.length) return;
    box.append(el("h5", { text: title }), el("table", { id },
      el("thead", {}, el("tr", {}, ...head.map(text => el("th", { text })))), el("tbody", {}, ...rows)));
  };
  const row = (...cells) => el("tr", {}, ...cells.map(([text, num]) => el("td", { class: num ? "num" : null, text })));
  const hits = r => r.through > r.hits ? `${r.hits}-${r.through}` : String(r.hits);  // (a run: "1-10")
  const plain = rows => (rows || []).map(r => row([hits(r), true], [pct(r.probability), true], [r.lose]));
  table("out-casualty-aa", "AA fire before round 1: the attacker loses", ["hits", "chance", "lose"], plain(policy.aa));
  table("out-casualty-defender", `${round}: the defender, hit, loses`, ["hits", "chance", "lose"], plain(policy.defender));
  // the attacker: a row per hits taken, then one per hits scored that calls for another loss
  const attackerRows = (rows, label) => (rows || []).flatMap(r => [
    row([label(r), true], [r.when_scored.length ? "any other" : "any"], [pct(r.probability), true], [r.lose]),
    ...r.when_scored.map(w => Object.assign(row(["", true],
      [`${w.scored_words} (defender left ${w.defender_left.join(" / ")})`], [pct(w.probability), true], [w.lose]),
      { className: "when-scored" }))]);
  const attackerHead = ["hits taken", "after scoring", "chance", "lose"];
  table("out-casualty-attacker", `${round}: the attacker, hit, loses`, attackerHead, attackerRows(policy.attacker, hits));
  // at sea with submarines: per phase (surprise strike, general fire), a loss per group of hits
  const typed = policy.typed || [];
  const typedGrid = policy.typed_grid || [];
  const title = phase => (typedGrid.find(g => g.phase === phase) || { title: phase }).title;
  const when = policy.in_progress ? "This round" : "Round 1";
  for (const phase of new Set(typed.map(r => r.phase))) {
    for (const side of ["defender", "attacker"]) {
      const rows = typed.filter(r => r.side === side && r.phase === phase);
      const id = `out-casualty-${side}-${phase.replace(" ", "-")}`;
      const head = `${when}, ${title(phase)}: the ${side}, hit, loses`;
      if (side === "defender") table(id, head, ["hits", "chance", "lose"],
        rows.map(r => row([r.hits], [pct(r.probability), true], [r.lose])));
      else table(id, head, attackerHead, attackerRows(rows, r => r.hits));
    }
  }
  if (policy.attacker_best && grid.length) box.append(everyCase(grid, afterAA, pct, t => String(t.hits)));
  if (typedGrid.length > 1 || (policy.attacker_best && typedGrid.length)) {
    box.append(everyCase(typedGrid, g => `${when}, ${g.title}`, pct, t => t.hits.words, policy));
  }
  return box;
}

function everyCase(grid, title, pct, hitsWords, sea) {
  // the whole grid: per state the round (or at sea, the phase) starts in, the attacker's loss for
  // each hits taken (rows) and hits scored (columns; those after which it loses the same, one
  // column: the server's "columns"), with what the defender has left then; at sea, the
  // defender's loss for each hits scored too, where it chooses
  const details = el("details", { id: sea ? "out-casualty-typed-grid" : "out-casualty-grid" },
    el("summary", { text: sea ? "Every case: each phase after each outcome of the surprise strike"
      : "Every case: the attacker's loss by hits scored and hits taken" }));
  const scoredWords = h => typeof h === "number" ? String(h) : h.words;
  grid.forEach((start, s) => {
    if (grid.length > 1 || sea) details.append(el("h5", { text: `${title(start)}: ${pct(start.probability)}` }));
    if (sea && sea.defender_best) {
      const rows = start.scored.filter(c => c.defender_lost !== "none").map(c => el("tr", {},
        el("td", { text: scoredWords(c.hits) }), el("td", { class: "num", text: pct(c.probability) }),
        el("td", { text: c.defender_lost })));
      if (rows.length) details.append(el("div", { class: "scroll" }, el("table", { id: `out-casualty-typed-defender-${s}` },
        el("thead", {}, el("tr", {}, ...["the defender, hit", "chance", "loses"].map(text => el("th", { text })))),
        el("tbody", {}, ...rows))));
    }
    if (!start.attacker.length || !start.taken.length) return;
    const left = c => c.defender_left.length <= 3 ? `: defender left ${c.defender_left.join(" / ")}` : "";
    const head = el("tr", {}, el("th", { text: "hits taken ↓, scored →" }),
      ...start.columns.map(c => el("th", { title: `defender left ${c.defender_left.join(" / ")}`,
        text: `${c.scored_words} (${pct(c.probability)})${left(c)}` })));
    const rows = start.taken.map((t, j) => el("tr", {},
      el("th", { text: `${hitsWords(t)} (${pct(t.probability)})` }),
      ...start.columns.map(c => el("td", { text: start.attacker[c.first][j] }))));
    details.append(el("div", { class: "scroll" },
      el("table", { id: `out-casualty-${sea ? "typed-" : ""}grid-${s}` }, el("thead", {}, head), el("tbody", {}, ...rows))));
  });
  return details;
}
