// What each wave leaves (issue 35): "what is left of my army after wave 2, and what defends
// against wave 3", as the wave engine worked them out (oddsim.stages.wave_units), never again on
// the page. app.js's renderWaves adds waveUnits(...)'s figures to each wave's card; this reads
// app.js's el(), num(), pct(), errorText() and unitName().

const WAVE_ROWS_SHOWN = 3;  // the defender's likeliest compositions after a wave (all: --json)

function expectedUnits(units, errors = {}) {
  // expected units by type, "0.26 armor, 1.70 infantry" (Monte Carlo: "0.26 ± 0.003 armor"), or "none"
  return Object.entries(units || {}).map(([name, n]) =>
    `${num(n)}${errors[name] ? ` ± ${errorText(errors[name])}` : ""} ${unitName(name, n)}`).join(", ") || "none";
}

function waveUnits(wave, n, last, item) {
  // the figures of wave n (1 = the first battle): its attacker's expected units left (and where
  // it fights), the defender's expected units after it, and its likeliest compositions then;
  // item(label, text, id, value) makes one figure of the card (app.js)
  if (!wave.attacker_units_left) return [];  // (an answer from before they were reported)
  const given = wave.given_it_fights || {};
  const se = wave.std_error || {};
  const figure = (label, units, errors, id) => {
    const node = item(label, expectedUnits(units, errors || {}), id);
    node.classList.add("wave-units");
    if (id) node.querySelector("dd").dataset.units = JSON.stringify(units);
    return node;
  };
  const rows = wave.defender_survivors || [];
  const shown = rows.slice(0, WAVE_ROWS_SHOWN).map(r => `${r.label === "none" ? "nothing" : r.label} ${pct(r.probability)}`
    + (r.std_error ? ` ± ${errorText(r.std_error, true)}%` : ""));
  if (rows.length > WAVE_ROWS_SHOWN) shown.push(`${rows.length - WAVE_ROWS_SHOWN} less likely`);
  const meets = el("div", { class: "wave-figure wave-units wave-meets" },
    el("dt", { text: last ? "the defender at the end" : `the defender left for wave ${n + 1}` }),
    el("dd", { id: `out-wave-${n}-meets`, "data-rows": JSON.stringify(rows.map(r => [r.label, r.probability])) },
      ...shown.map(text => el("span", { text }))));
  return [
    figure("its units left", wave.attacker_units_left, se.attacker_units_left, `out-wave-${n}-attacker-left`),
    wave.fights < 1 ? figure("its units left, if it fights", given.attacker_units_left,
      (se.given_it_fights || {}).attacker_units_left, `out-wave-${n}-attacker-left-if`) : null,
    figure("the defender keeps", wave.defender_units_left, se.defender_units_left, `out-wave-${n}-defender-left`),
    meets];
}
