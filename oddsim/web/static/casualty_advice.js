// Best casualties (issue 33): the goal under best play beside the fixed orders, and the advice a
// player uses at the table (which units to lose for each number of hits in round 1). app.js calls
// casualtyAdvice(data.casualty_policy) where an answer carries one; it reads app.js's el().

function casualtyAdvice(policy) {
  const pct = x => `${(100 * x).toFixed(1)}%`;
  const figure = x => (policy.goal === "take" || policy.goal === "win") ? pct(x) : `${x >= 0 ? "+" : ""}${x.toFixed(2)} IPC`;
  const words = { take: "takes the territory", win: "wins", tuv: "TUV swing", value: "value" }[policy.goal];
  const who = [policy.attacker_best && "attacker", policy.defender_best && "defender"].filter(Boolean).join(" and ");
  const box = el("div", { id: "out-casualty-policy", class: "casualty-advice" },
    el("h4", { text: "Best casualties" }),
    el("p", { id: "out-casualty-summary", "data-value": String(policy.value),
      text: `${words} ${figure(policy.value)} with the ${who} choosing each loss; ${figure(policy.fixed_order_value)} by the order of loss` }));
  const table = (id, title, rows, attacker) => {
    if (!rows || !rows.length) return;
    const head = [el("th", { text: "hits" }), el("th", { text: "chance" }), el("th", { text: "lose" })];
    if (attacker) head.push(el("th", { text: "when the defender lost" }));
    box.append(el("h5", { text: title }), el("table", { id },
      el("thead", {}, el("tr", {}, ...head)),
      el("tbody", {}, ...rows.map(r => el("tr", {}, el("td", { class: "num", text: String(r.hits) }),
        el("td", { class: "num", text: pct(r.probability) }), el("td", { text: r.lose }),
        ...(attacker ? [el("td", { text: r.defender_lost || "" })] : []))))));
  };
  table("out-casualty-aa", "AA fire before round 1: the attacker loses", policy.aa, false);
  table("out-casualty-defender", "Round 1: the defender, hit, loses", policy.defender, false);
  table("out-casualty-attacker", "Round 1: the attacker, hit, loses", policy.attacker, true);
  return box;
}
