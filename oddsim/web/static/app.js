// oddsim page: plain JavaScript, no build step, no network beyond this server.
//
// The tabs are data: each <section role=tabpanel data-title> in index.html is a tab, and TABS
// (at the end) says how to read its form, which endpoint answers it and how to draw the answer
// (a summary, shown first and kept in sight on a phone, and the details). A new tab is a new
// section and a new TABS entry.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const SIDES = ["attacker", "defender"];
const DEBOUNCE_MS = 250;
const HISTORY_SIZE = 10;
const HISTORY_SETTLE_MS = 5000;
const LIKELY_ROWS = 8;  // long tables fold to this many likely rows, with "show all"
const OUTCOMES = [  // field, label, CSS colour variable
  ["attacker_win", "attacker wins", "--attacker"],
  ["defender_win", "defender wins", "--defender"],
  ["draw", "draw (both die)", "--draw"],
  ["stalemate", "stalemate", "--stalemate"],
  ["retreat", "retreat", "--retreat"],
];
const PERCENTILES = [0.05, 0.32, 0.5, 0.68, 0.95];

const clientId = sessionStorage.getItem("oddsim-client") ||
  (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
sessionStorage.setItem("oddsim-client", clientId);

const state = { rules: null, edition: null, counts: { attacker: {}, defender: {} },
  controllers: {}, timers: {}, tab: "battle", job: null, linkError: null, pageSeed: {}, drawn: {},
  decimals: savedDecimals() };

function savedDecimals() {
  // the decimals picked in this browser before (0-4), else 2
  try {
    const kept = localStorage.getItem("oddsim-decimals");
    return kept !== null && ["0", "1", "2", "3", "4"].includes(kept) ? Number(kept) : 2;
  } catch (e) { return 2; }  // (storage refused: private mode)
}

// ---------- talking to the server ----------

async function api(path, body, signal, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"), signal,
    headers: { "X-Oddsim-Client": clientId } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = toJson(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `the server answered ${response.status}` }; }
  return { ok: response.ok, status: response.status, data };
}

// A seed is kept as its digits (a string) and written into the JSON text unquoted: a JavaScript
// number would round a seed above 2**53 (9007199254740993 became ...992).
const SEED_DIGITS = /^\d+$/;
const toJson = value => JSON.stringify(value).replace(/([{,])"seed":"(\d+)"/g, "$1\"seed\":$2");
const fromJson = text => JSON.parse(text.replace(/([{,])"seed":(\d+)/g, "$1\"seed\":\"$2\""));

// ---------- formatting ----------

// the decimals the player picked for chances and figures (2 unless changed; kept in this browser)
const DECIMALS = () => state.decimals;
const pct = p => (p === null || p === undefined) ? "—" : `${(100 * p).toFixed(DECIMALS())}%`;
const num = x => (x === null || x === undefined) ? "—" : typeof x !== "number" ? String(x) :
  (Math.abs(x) >= 1000 ? x.toLocaleString(undefined, { maximumFractionDigits: DECIMALS() })
    : (Number.isInteger(x) ? String(x) : x.toFixed(DECIMALS())));
const signed = x => (x > 0 ? "+" : "") + num(x);
// a standard error to its first significant digit (two where it starts with 1 or 2), at least two
// decimals: "0.30", "0.004", never "0.00" (as oddsim.estimates does for the command line)
const errorText = (e, asPct) => {
  const x = asPct ? 100 * e : e;
  if (!(x > 0) || !isFinite(x)) return x.toFixed(2);
  const exponent = Math.floor(Math.log10(x));
  const digits = -exponent + (Math.round(x / 10 ** exponent) < 3 ? 1 : 0);
  return x.toFixed(Math.min(20, Math.max(2, digits)));
};
const UNCOUNTABLE = ["infantry", "artillery", "armor", "armour"];
// a unit type's name as players write it (oddsim.model.names.unit_label): aa_gun -> "AA gun"
function unitName(name, n = 1) {
  const words = String(name).split("_").map(w => (w === "aa" ? "AA" : w));
  if (n !== 1 && words.length && !UNCOUNTABLE.includes(words[words.length - 1])) words[words.length - 1] += "s";
  return words.join(" ");
}
const armyText = counts => Object.entries(counts || {}).filter(([, n]) => n > 0)
  .map(([name, n]) => `${n} ${unitName(name, n)}`).join(", ") || "none";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.setAttribute("style", v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  for (const child of children) if (child) node.append(child);
  return node;
}

function figure(id, label, value, text, se) {
  return el("div", { class: "figure", id: id ? `out-${id}` : null, "data-value": value === null || value === undefined ? "" : String(value) },
    el("div", { class: "label", text: label }), el("div", { class: "value", text }),
    se ? el("div", { class: "se", text: `± ${se}` }) : null);
}

function seOf(data, key, asPct) {
  const se = (data.std_error || {})[key];
  if (!se || typeof se !== "number") return null;
  return errorText(se, asPct) + (asPct ? "%" : "");
}

const withSe = (text, se) => text + (se ? ` ± ${se}` : "");

function errorBox(message) {
  return el("div", { class: "error", role: "alert", text: message });
}

// ---------- tables, folded, and charts (SVG, Okabe-Ito) ----------

function foldedTable(id, head, rows, makeRow, likely = LIKELY_ROWS) {
  // The likely rows first; the rest behind "show all" (rows are sorted, most likely first).
  const body = el("tbody");
  const table = el("table", { id }, head ? el("thead", {}, el("tr", {}, ...head.map(h => h.text === ""
    ? hiddenTh("as a bar") : el("th", { class: h.num ? "num" : null, scope: "col", text: h.text })))) : null, body);
  rows.slice(0, likely).forEach(r => body.append(makeRow(r)));
  if (rows.length <= likely) return table;
  const more = el("button", { type: "button", class: "show-all", text: `show all ${rows.length} rows` });
  more.addEventListener("click", () => { rows.slice(likely).forEach(r => body.append(makeRow(r))); more.remove(); });
  return el("div", { class: "folded" }, table, more);
}

function hiddenTh(text) {
  // a column header seen only by screen readers (a bar's column: no empty header, axe)
  return el("th", { scope: "col", class: text === "as a bar" ? "barcell" : null }, el("span", { class: "visually-hidden", text }));
}

function barCell(p, kind) {
  return el("td", { class: "barcell" }, el("div", { class: `bar ${kind}`, style: `width:${Math.max(0.5, 100 * p)}%` }));
}

function quantile(points, q) {
  // points: [{x, p}] sorted by x; the smallest x whose cumulative chance reaches q
  let cum = 0;
  for (const pt of points) { cum += pt.p; if (cum >= q - 1e-12) return pt.x; }
  return points.length ? points[points.length - 1].x : null;
}

function niceStep(span, count) {
  // a round step (1, 2 or 5 times a power of ten) giving about ``count`` ticks over ``span``
  const raw = Math.max(span, 1e-9) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map(k => k * power).find(k => k >= raw) || 10 * power;
}

const TICK_WIDTH = 40;  // room a tick label needs, in the chart's units (13 px text, up to 5 characters)

function distributionChart(points, { colour, title, xLabel, markers = [0.05, 0.5, 0.95], marks = null, show = num, valueAxis = false }) {
  // A bar per value, with the 5/50/95% values marked: worked out here from the points, or
  // ``marks`` as the server gave them ([{q, x}], the TUV swing's). ``valueAxis``: bars placed
  // by their value (gaps where no value falls) with round ticks, else evenly spaced in order.
  // ``colour``: one colour, or a function of the point; ``show`` writes a value.
  const W = 360, H = 140, L = 40, B = 36, T = 18, R = 6;
  const n = points.length;
  const top = Math.max(...points.map(pt => pt.p), 1e-9);
  const plot = W - L - R;
  const xs = points.map(pt => pt.x);
  const lo = Math.min(...xs), hi = Math.max(...xs);
  let centre, width;
  if (valueAxis && n > 1) {
    const gaps = xs.slice(1).map((x, i) => x - xs[i]).filter(d => d > 0);
    const unit = plot / (hi - lo + Math.min(...gaps));  // chart units per value, half a gap of room each end
    centre = i => L + (xs[i] - lo + Math.min(...gaps) / 2) * unit;
    width = Math.max(1.2, Math.min(...gaps) * unit * 0.8);
  } else {
    const step = plot / Math.max(1, n);
    centre = i => L + i * step + step / 2;
    width = Math.max(0.6, step * 0.8);
  }
  const y = p => T + (H - T - B) * (1 - p / top);
  const at = marks || markers.map(q => ({ q, x: quantile(points, q) }));
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": `${title}: ` + at.map(m => `${Math.round(100 * m.q)}% at ${show(m.x)}`).join(", ") });
  chart.append(svg("title", { text: title }));
  chart.append(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  chart.append(svg("text", { x: 2, y: T + 4, class: "tick", text: pct(top).replace(/\.\d+%/, "%") }));
  points.forEach((pt, i) => {
    chart.append(svg("rect", { x: centre(i) - width / 2, y: y(pt.p), width,
      height: Math.max(0, H - B - y(pt.p)), fill: typeof colour === "function" ? colour(pt) : colour },
    svg("title", { text: `${show(pt.x)}: ${pct(pt.p)}` })));
  });
  const tick = (where, text) => chart.append(svg("text", { x: where, y: H - B + 15, class: "tick", "text-anchor": "middle", text }));
  if (valueAxis && n > 1) {  // round values along a value axis, as many as fit
    const step = niceStep(hi - lo, Math.max(1, Math.floor(plot / TICK_WIDTH)));
    const scale = (centre(n - 1) - centre(0)) / (hi - lo);
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) {
      const where = centre(0) + (v - lo) * scale;
      chart.append(svg("line", { x1: where, y1: H - B, x2: where, y2: H - B + 3, class: "axis" }));
      tick(where, show(Math.round(v * 1e6) / 1e6));
    }
  } else {
    const every = Math.max(1, Math.ceil(TICK_WIDTH / (plot / Math.max(1, n))));
    points.forEach((pt, i) => { if (i % every === 0) tick(centre(i), show(pt.x)); });
  }
  const marked = new Map();  // bar -> its percentiles ("50/95%" where two fall on one bar)
  for (const m of at) {
    const i = points.findIndex(pt => pt.x === m.x);
    if (i >= 0) marked.set(i, [...(marked.get(i) || []), Math.round(100 * m.q)]);
  }
  for (const [i, qs] of marked) {
    const where = centre(i);
    chart.append(svg("line", { x1: where, y1: T - 4, x2: where, y2: H - B, class: "marker",
      "data-percentiles": qs.join(" "), "data-value": String(points[i].x) }));
    chart.append(svg("text", { x: Math.min(W - 20, Math.max(L, where)), y: T - 6, class: "tick marker-label", "text-anchor": "middle", text: `${qs.join("/")}%` }));
  }
  chart.append(svg("text", { x: (L + W) / 2, y: H - 3, class: "tick", "text-anchor": "middle", text: xLabel }));
  return chart;
}

function groupedBars(groups, series, { title, xLabel }) {
  // groups: labels along x; series: [{label, colour, values}] (chances), bars side by side
  const W = 360, H = 150, L = 34, B = 30, T = 10;
  const top = Math.max(...series.flatMap(s => s.values.map(v => v || 0)), 1e-9);
  const slot = (W - L - 4) / groups.length;
  const bw = slot * 0.8 / series.length;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title },
    svg("title", { text: title }), svg("line", { x1: L, y1: H - B, x2: W - 2, y2: H - B, class: "axis" }),
    svg("text", { x: 2, y: T + 4, class: "tick", text: pct(top).replace(/\.\d+%/, "%") }));
  groups.forEach((g, i) => {
    series.forEach((s, j) => {
      const v = s.values[i] || 0;
      const h = (H - T - B) * v / top;
      chart.append(svg("rect", { x: L + i * slot + slot * 0.1 + j * bw, y: H - B - h, width: bw, height: h, fill: s.colour },
        svg("title", { text: `${s.label}, ${g}: ${pct(v)}` })));
    });
    chart.append(svg("text", { x: L + i * slot + slot / 2, y: H - B + 12, class: "tick", "text-anchor": "middle", text: g }));
  });
  chart.append(svg("text", { x: (L + W) / 2, y: H - 3, class: "tick", "text-anchor": "middle", text: xLabel }));
  return chart;
}

const colourOf = name => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#000";

function outcomeBar(data, prefix = "", keys = OUTCOMES) {
  // The win/lose/draw bar and its legend (with ± where Monte Carlo).
  const stack = el("div", { class: "stack", role: "img",
    "aria-label": keys.filter(([k]) => data[k] > 0).map(([k, label]) => `${label} ${pct(data[k])}`).join(", ") });
  const legend = el("div", { class: "legend" });
  for (const [key, label, colour] of keys) {
    const p = data[key] || 0;
    if (p <= 0 && key !== "attacker_win" && key !== "defender_win") continue;
    stack.append(el("span", { style: `width:${100 * p}%;background:var(${colour})`, title: `${label} ${pct(p)}` }));
    legend.append(el("span", { id: `out-${prefix}${key}`, "data-value": String(p) },
      el("span", { class: "key", style: `background:var(${colour})` }), withSe(`${label} ${pct(p)}`, seOf(data, key, true))));
  }
  return [stack, legend];
}

function methodLine(data, ms) {
  const how = data.method === "mc" ? `Monte Carlo, ${num(data.runs)} runs${data.interrupted ? " (stopped early: partial)" : ""}`
    : data.method === "exact" ? "exact" : "";
  return el("div", { class: "status", text: `${how}${how && ms !== undefined ? " · " : ""}${ms === undefined ? "" : `${ms.toFixed(0)} ms`}` });
}

// ---------- the edition and its units ----------

async function loadEditions() {
  const { data } = await api("/api/rules");
  const select = $("#edition");
  for (const e of data.editions) select.append(el("option", { value: e.name, text: `${e.name}: ${e.title}` }));
}

async function loadRules(name) {
  if (state.edition === name && state.rules) return;
  const { ok, data } = name.startsWith("game:") ? await api("/api/rules", { game: name.slice(5) })  // game.js
    : await api(`/api/rules/${encodeURIComponent(name)}`);
  if (!ok) throw new Error(data.error);
  state.rules = data;
  state.edition = name;
  $("#edition").value = name;
  buildCounters();
  buildTechs();
}

function rulesOf() {
  // the edition and the player's unit values (--unit-values), as every request that takes a
  // ruleset sends them; a game's battle (game.js) its map's own rules
  if (state.edition && state.edition.startsWith("game:")) return { game: state.edition.slice(5) };
  const values = $("#unit-values").value.trim();
  return values ? { rules: state.edition, unit_values: values } : { rules: state.edition };
}

function isSea() { return $("input[name=kind]:checked").value === "sea"; }

function unitsFor(side) {
  const sea = isSea();
  return state.rules.units.filter(u => (u.domain === "air" || u.domain === (sea ? "sea" : "land"))
    && (side === "defender" || u.can_attack));
}

const BEST_ORDER = ["best", "best: choose each loss (solved exactly)", "best"];  // (best-casualties.js too)

function oolPresets(side) {
  // Orders of loss to pick from: the default (issue 22's: what cannot fire, then what fights far
  // below its price, then the cheapest counting its strength) first, then simple ones.
  const units = unitsFor(side);
  const here = new Set(units.map(u => u.name));
  const strength = u => (side === "attacker" ? u.attack : u.defense);
  const byDefault = state.rules.order_of_loss[side].filter(name => here.has(name));
  const sorted = key => units.slice().sort((a, b) => key(a) - key(b) || a.cost - b.cost).map(u => u.name);
  const air = new Set(units.filter(u => u.domain === "air").map(u => u.name));
  return [
    ["", "default (cheapest for its strength)", byDefault],
    ["cheapest", "cheapest first", sorted(u => u.cost)],
    ["weakest", `weakest first (lowest ${side === "attacker" ? "attack" : "defence"})`, sorted(strength)],
    ["air-last", "default, aircraft last", [...byDefault.filter(n => !air.has(n)), ...byDefault.filter(n => air.has(n))]],
    BEST_ORDER,
    ["own", "your own order (type it below)", null],
  ];
}

const orderText = names => typeof names === "string" ? names : names.map(n => unitName(n)).join(", ");

function showOolPresets() {
  for (const side of SIDES) {
    const select = $(`#ool_${side}-preset`);
    const input = $(`#ool_${side}`);
    const presets = oolPresets(side);
    select.replaceChildren(...presets.map(([value, label]) => el("option", { value, text: label })));
    input.placeholder = orderText(presets[0][2]);
    input.title = `Left empty: ${state.rules.order_of_loss.principle}.`;
    syncPreset(side);
  }
}

function syncPreset(side) {
  // the preset a typed order is, or "your own order"
  const text = $(`#ool_${side}`).value.trim();
  const match = oolPresets(side).find(([value, , names]) => names && (value === "" ? text === "" : orderText(names) === text));
  $(`#ool_${side}-preset`).value = match ? match[0] : "own";
}

function pickPreset(side) {
  const value = $(`#ool_${side}-preset`).value;
  const preset = oolPresets(side).find(([v]) => v === value);
  if (preset[2]) $(`#ool_${side}`).value = value === "" ? "" : orderText(preset[2]);
  else $(`#ool_${side}`).focus();
  schedule("battle");
}

function counterRow(id, unit, n, whose, onChange, label = unitName(unit.name), title = null) {
  // one unit's counter: its name, − , the count, + (onChange(count) on every change)
  const input = el("input", { type: "number", id, min: "0", max: "1000", inputmode: "numeric", value: String(n || 0) });
  input.addEventListener("input", () => onChange(Math.max(0, parseInt(input.value, 10) || 0)));
  const step = d => () => { input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + d));
    input.dispatchEvent(new Event("input", { bubbles: true })); };
  const more = whose === "attacker" || whose === "defender" ? unit.name : `${unit.name} (${whose})`;
  return el("div", { class: "counter" },
    el("label", { class: "name", for: id, title: title || `cost ${unit.cost}, attack ${unit.attack}, defence ${unit.defense}`,
      text: label }, el("span", { class: "visually-hidden", text: ` (${whose})` })),
    el("button", { type: "button", "aria-label": `one less ${more}`, onclick: step(-1), text: "−" }),
    input,
    el("button", { type: "button", "aria-label": `one more ${more}`, onclick: step(1), text: "+" }));
}

function buildCounters() {
  for (const side of SIDES) {
    const box = $(`#${side}-counters`);
    box.replaceChildren();
    for (const unit of unitsFor(side)) {
      box.append(counterRow(`${side}-${unit.name}`, unit, state.counts[side][unit.name], side, n => {
        state.counts[side][unit.name] = n;
        schedule("battle");
      }));
      if (unit.hits > 1) {  // a two-hit unit already hit (a damaged battleship): its own counter
        const key = `damaged ${unit.name}`;
        box.append(counterRow(`${side}-damaged-${unit.name}`, unit, state.counts[side][key], side, n => {
          state.counts[side][key] = n;
          schedule("battle");
        }, `damaged ${unitName(unit.name)}`, `a ${unitName(unit.name)} that has taken a hit (defends and attacks as one, one hit left)`));
      }
    }
  }
  for (const row of $$("#waves .wave")) waveCounters(row);
  buildArmyPickers();  // (forms.js: the other tabs' army counters, for this edition)
  for (const node of $$(".sea-only")) node.hidden = !isSea();
  for (const node of $$(".land-only")) node.hidden = isSea();
  $(".when-value").hidden = $("#retreat-best").value !== "value";
  showOolPresets();
}

function buildTechs() {
  for (const side of SIDES) {
    const box = $(`#${side}-techs`);
    const checked = new Set(checkedTechs(side));
    box.replaceChildren();
    if (!state.rules.technologies.length) box.append("none in this edition");
    for (const tech of state.rules.technologies) {
      const input = el("input", { type: "checkbox", value: tech, checked: checked.has(tech),
        onchange: () => schedule("battle") });
      box.append(el("label", {}, input, tech.replace(/[-_]/g, " ")));
    }
  }
}

const checkedTechs = side => $$(`#${side}-techs input:checked`).map(i => i.value);

// ---------- the battle request: form <-> JSON <-> URL <-> CLI ----------

// Every battle field of the form: [element id, request key ("retreat.x": a RetreatPolicy field),
// kind, where it applies (land, sea or both)]. readBattle, writeBattle and Clear all read it.
const BATTLE_FIELDS = [
  ["ool_attacker", "ool_attacker", "text"],
  ["ool_defender", "ool_defender", "text"],
  ["keep_land", "keep_land", "int", "land"],
  ["dice", "dice", "select"],
  ["attacker_submerge", "attacker_submerge", "select", "sea"],
  ["defender_submerge", "defender_submerge", "select", "sea"],
  ["landed", "landed", "text", "land"],
  ["bombard", "bombard", "text", "land"],
  ["crash_fighters", "crash_fighters", "check", "sea"],
  ["attacker_destroyer_last", "attacker_destroyer_last", "check", "sea"],
  ["defender_destroyer_last", "defender_destroyer_last", "check", "sea"],
  ["counter_attack", "counter_attack", "text"],
  ["in_progress", "in_progress", "check"],
  ["method", "method", "select"],
  ["runs", "runs", "int"],
  ["seed", "seed", "seed"],
  ["retreat-after_round", "retreat.after_round", "int"],
  ["retreat-units_left", "retreat.units_left", "int"],
  ["retreat-below_win", "retreat.below_win", "pct"],
  ["retreat-aircraft_risk", "retreat.aircraft_risk", "pct"],
  ["retreat-strafe", "retreat.strafe", "int"],
  ["retreat-best", "retreat.best", "select"],
  ["retreat-territory_value", "retreat.territory_value", "number"],
];
const KNOWN_BATTLE_FIELDS = new Set(["rules", "attacker", "defender", "sea", "attacker_tech", "defender_tech",
  "retreat", "aa_fired", ...BATTLE_FIELDS.map(f => f[1])]);  // aa_fired: set by the engines when they split a battle by AA
const KNOWN_RETREAT_FIELDS = new Set(BATTLE_FIELDS.filter(f => f[1].startsWith("retreat.")).map(f => f[1].slice(8)));

function fieldRead(input, kind) {
  // a field's value in the request, or undefined where it is left at its default
  if (kind === "check") return input.checked ? true : undefined;
  if (kind === "select") return input.selectedIndex > 0 ? input.value : undefined;  // the first: the default
  const raw = input.value.trim();
  if (raw === "") return undefined;
  if (kind === "text") return raw;
  if (kind === "seed") return SEED_DIGITS.test(raw) ? raw.replace(/^0+(?=\d)/, "") : Number(raw);
  if (kind === "pct") return Number(raw) / 100;
  if (kind === "int" && input.id === "keep_land" && Number(raw) === 0) return undefined;
  return Number(raw);
}

function fieldWrite(input, kind, value) {
  if (kind === "check") input.checked = value === true;
  else if (kind === "select") input.value = value === undefined || value === null ? input.options[0].value : String(value);
  else if (value === undefined || value === null) input.value = "";
  else input.value = String(kind === "pct" ? +(100 * value).toPrecision(12) : value);
}

function applies(where) {
  return !where || where === (isSea() ? "sea" : "land");
}

function readBattle() {
  const req = rulesOf();
  const valid = side => new Set(unitsFor(side).flatMap(u => (u.hits > 1 ? [u.name, `damaged ${u.name}`] : [u.name])));
  for (const side of SIDES) {
    const ok = valid(side);
    const counts = Object.fromEntries(Object.entries(state.counts[side]).filter(([u, n]) => ok.has(u) && n > 0));
    req[side] = Object.entries(counts).map(([name, n]) => `${n} ${name}`).join(", ") || (side === "defender" ? "none" : "");
  }
  if (isSea()) req.sea = true;
  for (const side of SIDES) {
    const techs = checkedTechs(side);
    if (techs.length) req[`${side}_tech`] = techs.join(",");
  }
  const retreat = {};
  for (const [id, key, kind, where] of BATTLE_FIELDS) {
    if (!applies(where) || (key === "retreat.territory_value" && $("#retreat-best").value !== "value")) continue;
    const v = fieldRead($(`#${id}`), kind);
    if (v === undefined) continue;
    if (key.startsWith("retreat.")) retreat[key.slice(8)] = v; else req[key] = v;
  }
  for (const input of $$("#extra-options [data-field]")) {
    const v = fieldRead(input, input.type === "checkbox" ? "check" : input.type === "number" ? "number" : "text");
    if (v === undefined) continue;
    if (input.dataset.retreat) retreat[input.dataset.field] = v; else req[input.dataset.field] = v;
  }
  const waves = readWaves();
  // the retreat and the waves after the other options, the engine's last: the CLI line keeps this order
  const { method, runs, seed, ...rest } = req;
  Object.keys(req).forEach(k => delete req[k]);
  Object.assign(req, rest, Object.keys(retreat).length ? { retreat } : {}, waves.length ? { waves } : {},
    method === undefined ? {} : { method }, runs === undefined ? {} : { runs }, seed === undefined ? {} : { seed });
  return req;
}

async function buildExtraOptions() {
  // Options the server's Battle (and RetreatPolicy) have that this page was not written for.
  const { ok, data } = await api("/api");
  if (!ok) return;
  const box = $("#extra-options");
  const add = (fields, known, retreat) => {
    for (const [name, type] of Object.entries(fields || {})) {
      if (known.has(name) || name.endsWith("_steps")) continue;
      const bool = /\bbool\b/.test(type) && !/int|float|str/.test(type);
      const numeric = /int|float/.test(type) && !/str/.test(type);
      const input = el("input", { id: `extra-${name}`, "data-field": name, "data-retreat": retreat ? "1" : null,
        type: bool ? "checkbox" : numeric ? "number" : "text", step: numeric ? "any" : null, autocomplete: "off" });
      input.addEventListener("input", () => schedule("battle"));
      const label = (retreat ? "Retreat: " : "") + name.replace(/_/g, " ");
      box.append(bool ? el("label", { class: "check" }, input, ` ${label}`) : el("label", {}, label, input));
    }
  };
  add(data.battle_fields, KNOWN_BATTLE_FIELDS, false);
  add(data.retreat_fields, KNOWN_RETREAT_FIELDS, true);
  buildBestCasualties(data.battle_options);  // (best-casualties.js: the Amphibious, Purchase and Plan tabs)
}

function parseArmy(army, side) {
  // A link's army as counters: { counts, bad } where bad is the first token that is no counter on
  // this page (a misspelt unit, a sea unit in a land battle), or null. "1 damaged bb": the
  // damaged battleships' counter.
  const counts = {};
  if (army === undefined || army === null || army === "" || army === "none") return { counts, bad: null };
  const parts = typeof army === "object" && !Array.isArray(army)
    ? Object.entries(army).map(([name, n]) => `${n} ${name}`) : String(army).split(",");
  const shown = new Set(unitsFor(side).map(u => u.name));
  for (const part of parts) {
    const m = part.trim().match(/^(\d+)\s+(damaged\s+)?(.+)$/i);
    const name = m ? resolveUnit(m[3]) : null;
    if (!name || !shown.has(name)) return { counts, bad: part.trim() };
    const damaged = m[2] !== undefined;
    if (damaged && !(state.rules.units.find(u => u.name === name).hits > 1)) return { counts, bad: part.trim() };
    const key = damaged ? `damaged ${name}` : name;
    counts[key] = (counts[key] || 0) + parseInt(m[1], 10);
  }
  return { counts, bad: null };
}

function resolveUnit(token) {
  const key = token.trim().toLowerCase().replace(/[- ]/g, "_");
  for (const u of state.rules.units) if (u.name === key || u.aliases.includes(key)) return u.name;
  if (key.endsWith("s")) return resolveUnit(key.slice(0, -1));
  return null;
}

async function writeBattle(req) {
  // Every field of the form from a request: a link, a saved battle, or Clear's empty one.
  state.linkError = null;
  if (req.game !== undefined) {  // a game's battle: its map's rules, while the server keeps the game
    try {
      await loadRules(`game:${req.game}`);
      $("#edition").value = gameEdition(req.game, state.rules.title || state.rules.name);  // (game.js)
    } catch (e) {
      await loadRules(state.edition && !state.edition.startsWith("game:") ? state.edition : "1942-2e");
      state.linkError = `the link's battle comes from a game file: ${e.message}`;
    }
  } else await loadRules(req.rules || state.edition || "1942-2e");
  $(`input[name=kind][value=${req.sea ? "sea" : "land"}]`).checked = true;
  for (const side of SIDES) {
    const { counts, bad } = parseArmy(req[side], side);
    state.counts[side] = counts;
    if (bad !== null && state.linkError === null)
      state.linkError = `the link's ${side} '${req[side]}' has '${bad}', which this page cannot show as `
        + "counters, so it does not answer that battle: change the counters, or ask oddsim battle or "
        + "POST /api/battle";
  }
  const retreat = req.retreat || {};
  for (const [id, key, kind] of BATTLE_FIELDS)
    fieldWrite($(`#${id}`), kind, key.startsWith("retreat.") ? retreat[key.slice(8)] : req[key]);
  for (const input of $$("#extra-options [data-field]")) {
    const v = input.dataset.retreat ? retreat[input.dataset.field] : req[input.dataset.field];
    fieldWrite(input, input.type === "checkbox" ? "check" : "text", v);
  }
  writeWaves(req.waves);
  if ((req.waves || []).length) $("#group-waves").open = true;  // (a link's waves in sight)
  buildCounters();
  for (const side of SIDES) {
    const techs = new Set(String(req[`${side}_tech`] || "").split(",").filter(Boolean));
    for (const box of $$(`#${side}-techs input`)) box.checked = techs.has(box.value);
  }
}

const quote = s => `"${String(s).replace(/(["\\$`])/g, "\\$1")}"`;
const RETREAT_FLAGS = { units_left: "--retreat-units", territory_value: "--territory-value" };

function optionArgs(key, value, flags = {}) {
  // one request field as the command's options: a flag, "--name value", a retreat's options, or
  // a list as its option repeated (flags: the field's option where it is not "--" + its name)
  const flag = flags[key] || "--" + key.replace(/_/g, "-");
  if (Array.isArray(value)) return value.map(v => `${flag} ${quote(v)}`);
  if (key === "retreat") return Object.entries(value).map(([k, v]) => {
    const name = RETREAT_FLAGS[k] || `--retreat-${k.replace(/_/g, "-")}`;
    return v === true ? name : `${name} ${typeof v === "string" ? quote(v) : v}`;
  });
  if (value === true) return [flag];
  return [`${flag} ${typeof value === "string" && key !== "seed" ? quote(value) : value}`];
}

function cliCommand(req) {
  const args = ["oddsim battle"];
  if (req.game !== undefined) args.push(`--rules ${quote(gameRulesFile(req.game))}`);  // game.js
  else if (req.rules !== "1942-2e") args.push(`--rules ${req.rules}`);
  args.push(`-a ${quote(req.attacker)}`, `-d ${quote(req.defender)}`);
  if (req.sea) args.push("--sea");
  let plan = "";
  for (const [key, value] of Object.entries(req)) {
    if (["rules", "game", "attacker", "defender", "sea"].includes(key)) continue;
    if (key === "waves") {
      if (value.every(w => typeof w === "string")) for (const w of value) args.push(`--wave ${quote(w)}`);
      else {  // options per wave: a plan file, each wave with the first battle's order and kept units
        // where it gives none (as the server and --wave read them)
        const inherited = Object.fromEntries(["ool_attacker", "keep_land"].filter(k => req[k] !== undefined).map(k => [k, req[k]]));
        const wave = value.map(w => ({ ...inherited, ...(typeof w === "string" ? { attacker: w } : w) }));
        plan = `cat > waves.json <<'EOF'\n${JSON.stringify({ wave }, null, 1)}\nEOF\n`;
        args.push("--wave-plan waves.json");
      }
    } else args.push(...optionArgs(key, value));
  }
  return plan + args.join(" ");
}

function showBattleCommand(req) {
  // the battle's CLI line, and what to know of it where its rules came from a game file (game.js)
  $("#cli-command").textContent = cliCommand(req);
  $("#cli-note").textContent = gameCliNote(req);
}

function pageSeed() {
  // a seed the page picks for Monte Carlo when none is given: the CLI line and the link carry it
  const words = crypto.getRandomValues(new Uint32Array(2));
  return String(BigInt(words[0]) * 4294967296n + BigInt(words[1]));
}

// ---------- later waves: a row of options each ----------

const WAVE_FIELDS = [  // [request key, label, input type]; the wave's attacker: its counters
  ["ool_attacker", "Order of loss", "text"],
  ["keep_land", "Keep the last land units", "number"],
  ["defender_reinforcements", "Defender reinforcements before it", "text"],
];

function addWave(wave = {}) {
  // a later wave: its attacker on counters (as the first battle's), then its own options
  const box = $("#waves");
  const n = box.children.length + 2;  // the first battle is wave 1
  const row = el("fieldset", { class: "wave" }, el("legend", { text: `Wave ${n}` }));
  const army = typeof wave === "string" ? wave : wave.attacker;
  const { counts, bad } = parseArmy(army, "attacker");
  row.counts = counts;
  if (bad !== null && state.linkError === null)
    state.linkError = `the link's wave ${n} '${army}' has '${bad}', which this page cannot show as counters, `
      + "so it does not answer that battle: change the counters, or ask oddsim battle or POST /api/battle";
  const grid = el("div", { class: "options" });
  for (const [key, label, type] of WAVE_FIELDS) {
    const input = el("input", { id: `wave-${n}-${key}`, "data-key": key, type, autocomplete: "off",
      min: type === "number" ? "0" : null, placeholder: key === "defender_reinforcements" ? "none" : "as the first battle" });
    const value = typeof wave === "string" ? undefined : wave[key];
    input.value = value === undefined || value === null ? "" : String(value);
    input.addEventListener("input", () => schedule("battle"));
    grid.append(el("label", {}, label, input));
  }
  row.append(el("div", { class: "counters wave-counters" }), grid, el("button", { type: "button", class: "remove-wave", text: `Remove wave ${n}`,
    onclick: () => { row.remove(); renumberWaves(); schedule("battle"); } }));
  box.append(row);
  waveCounters(row);
}

function waveCounters(row) {
  // the wave's attacker counters for this kind of battle (land or sea)
  const n = $("legend", row).textContent.replace(/\D/g, "");
  const box = $(".wave-counters", row);
  box.replaceChildren(...unitsFor("attacker").map(unit => counterRow(`wave-${n}-attacker-${unit.name}`, unit,
    row.counts[unit.name], `wave ${n}`, count => { row.counts[unit.name] = count; schedule("battle"); })));
}

function renumberWaves() {
  $$("#waves .wave").forEach((row, i) => {
    const n = i + 2;
    $("legend", row).textContent = `Wave ${n}`;
    $(".remove-wave", row).textContent = `Remove wave ${n}`;
    for (const input of $$(".options input", row)) input.id = `wave-${n}-${input.dataset.key}`;
    waveCounters(row);
  });
}

function waveArmy(row) {
  const shown = new Set(unitsFor("attacker").map(u => u.name));
  return Object.entries(row.counts).filter(([name, k]) => shown.has(name) && k > 0).map(([name, k]) => `${k} ${name}`).join(", ");
}

function readWaves() {
  // each wave with an attacker: its army alone, or a table of the options it gives
  const waves = [];
  for (const row of $$("#waves .wave")) {
    const wave = { attacker: waveArmy(row) };
    for (const input of $$(".options input", row)) {
      const raw = input.value.trim();
      if (raw !== "") wave[input.dataset.key] = input.type === "number" ? Number(raw) : raw;
    }
    if (!wave.attacker) continue;
    waves.push(Object.keys(wave).length === 1 ? wave.attacker : wave);
  }
  return waves;
}

function writeWaves(waves) {
  $("#waves").replaceChildren();
  for (const wave of waves || []) addWave(wave);
}

// ---------- links, history and saved battles ----------

const linkOf = (tab, req) => `#${tab}=${encodeURIComponent(toJson(req))}`;

function saveToUrl(tab, req) {
  // the link is the open tab's: an answer for another (the battle answered after a switch) leaves it
  if (tab !== state.tab) return;
  const hash = linkOf(tab, req);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function linkFields(tab) {
  // a job's tab open (it asks nothing until told): the link is its fields as they stand; the
  // Game tab's is none (its battles open in the Battle tab with their own)
  if (tab === "plan") planRefresh();
  else if (TABS[tab].read) saveToUrl(tab, TABS[tab].read($(`#panel-${tab} form`)));
  else if (location.hash) history.replaceState(null, "", location.pathname + location.search);
}

function readUrl() {
  const m = location.hash.match(/^#(\w+)=(.*)$/);
  if (!m || !TABS[m[1]]) return null;
  try { return { tab: m[1], req: fromJson(decodeURIComponent(m[2])) }; } catch (e) { return null; }
}

async function loadLink(saved) {
  // a link (the page's own URL, a pasted one, a saved battle): its tab with its fields
  supersede(saved.tab);  // (at once: what was asked before must not land while the fields are written)
  $("#unit-values").value = saved.req.unit_values || "";
  if (saved.tab === "battle") await writeBattle(saved.req);
  else {
    if (saved.req.rules) await loadRules(saved.req.rules);
    (TABS[saved.tab].write || writeSimple)(saved.tab, saved.req);
  }
  selectTab(saved.tab);
}

const stored = (key, fallback) => { try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; } };
const store = (key, value) => { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ } };

function remember(tab, req, title) {
  // the last battles answered; one still being changed (answered again within a few seconds)
  // replaces its own entry instead of filling the list with every click on the way
  const hash = linkOf(tab, req);
  let past = stored("oddsim-history", []).filter(h => h.hash !== hash);
  if (past.length && past[0].tab === tab && Date.now() - past[0].when < HISTORY_SETTLE_MS) past = past.slice(1);
  store("oddsim-history", [{ hash, title, tab, when: Date.now() }, ...past].slice(0, HISTORY_SIZE));
  showSaved();
}

function showSaved() {
  const item = (entry, remove) => el("li", {}, el("a", { href: entry.hash, text: entry.name || entry.title }),
    remove ? el("button", { type: "button", class: "forget", "aria-label": `forget ${entry.name}`, text: "×", onclick: remove }) : null);
  const saves = stored("oddsim-saves", []);
  $("#saved-list").replaceChildren(...saves.map(s => item(s, () => {
    store("oddsim-saves", stored("oddsim-saves", []).filter(x => x.name !== s.name)); showSaved(); })));
  if (!saves.length) $("#saved-list").append(el("li", { class: "status", text: "none yet" }));
  const past = stored("oddsim-history", []);
  $("#history-list").replaceChildren(...past.map(h => item(h)));
  if (!past.length) $("#history-list").append(el("li", { class: "status", text: "none yet" }));
}

function saveBattle() {
  // the battle as its link has it: with the page's seed where Monte Carlo answered
  const shown = readUrl();
  const req = shown && shown.tab === "battle" ? shown.req : readBattle();
  const name = $("#save-name").value.trim() || `${req.attacker} vs ${req.defender}`;
  const saves = stored("oddsim-saves", []).filter(s => s.name !== name);
  store("oddsim-saves", [{ name, hash: linkOf("battle", req) }, ...saves]);
  $("#save-name").value = "";
  showSaved();
}

// ---------- computing: debounced, the previous request aborted ----------

function supersede(tab) {
  // the tab's inputs change: a request still out answers what they were, so it is dropped now (not
  // when the next one starts: its answer would land in between), and the answer in sight is marked
  // "stale". A later request's answer always wins; "done" is only ever the answer to the form.
  clearTimeout(state.timers[tab]);
  if (state.controllers[tab]) state.controllers[tab].abort();
  const out = $(`#panel-${tab} .results`);
  if (out && out.dataset.state === "done") out.dataset.state = "stale";
}

function schedule(tab) {
  supersede(tab);
  state.timers[tab] = setTimeout(() => compute(tab), DEBOUNCE_MS);
}

async function compute(tab) {
  const spec = TABS[tab];
  if (spec.job) return;
  if (state.controllers[tab]) state.controllers[tab].abort();
  const controller = new AbortController();
  state.controllers[tab] = controller;
  const panel = $(`#panel-${tab}`);
  const out = $(".results", panel);
  const summary = $(".summary", panel);
  if (tab === "battle" && state.linkError) {  // not another battle than the link's
    summary.replaceChildren(errorBox(state.linkError));
    out.replaceChildren();
    out.dataset.state = "error";
    return;
  }
  const req = spec.read($("form", panel));
  const sent = { ...req };
  if (spec.seeded && req.method !== "exact" && req.seed === undefined) sent.seed = pageSeed();
  if (tab === "battle") showBattleCommand(req);
  else showCommand(tab, req);
  saveToUrl(tab, req);
  const missing = spec.missing ? spec.missing(req) : null;
  if (missing) {  // nothing to ask yet: what to do, where the answer stands (issue 35)
    summary.replaceChildren(el("p", { class: "hint", id: `${tab}-hint`, role: "status", text: missing }));
    out.replaceChildren();
    out.dataset.state = "empty";
    return;
  }
  const started = performance.now();
  setStatus(out, "computing…");
  try {
    const { ok, data } = await api(`/api/${spec.endpoint}`, sent, controller.signal);
    if (controller.signal.aborted) return;
    const ms = performance.now() - started;
    if (!ok) { summary.replaceChildren(errorBox(data.error)); out.replaceChildren(); out.dataset.state = "error"; return; }
    const methods = Array.isArray(data.waves) ? data.waves.map(w => w.method)
      : [(data.battle && typeof data.battle === "object" ? data.battle : data).method];
    const mc = methods.includes("mc");
    const asked = mc ? sent : req;  // the page's seed where Monte Carlo answered: the line reproduces it
    if (tab === "battle") showBattleCommand(asked);
    saveToUrl(tab, asked);
    state.drawn[tab] = [data, asked, ms];
    const drawn = spec.render(data, asked, ms);
    summary.replaceChildren(drawn.summary);
    out.replaceChildren(...rulesReadingsLine(data), drawn.details);
    out.dataset.state = "done";
    remember(tab, asked, drawn.title);
    if (spec.after) await spec.after(data, sent, controller.signal);
  } catch (e) {
    if (e.name !== "AbortError") { summary.replaceChildren(errorBox(`no answer from the server: ${e.message}`)); out.replaceChildren(); out.dataset.state = "error"; }
  }
}

function rulesReadingsLine(data) {
  // the one line an Axis & Allies answer's readings of the rules make where they differ from the
  // edition's rulebook (oddsim.results.readings; nothing when none do). The Trench's readings are
  // plain values, shown in its own table.
  const readings = Object.entries((data && data.readings) || {}).filter(([, v]) => v && typeof v === "object");
  if (!readings.length) return [];
  return [el("p", { class: "status readings", text: "readings: " + readings.map(([k, v]) => `${k}=${v.value} (rulebook: ${v.rulebook})`).join("; ") })];
}

function setStatus(out, text) {
  out.dataset.state = "busy";
  let status = $(".status", out);
  if (!status) { status = el("div", { class: "status" }); out.prepend(status); }
  status.textContent = text;
}

// ---------- battle answers ----------

function battleSummary(data, extra) {
  const box = el("div", {}, ...outcomeBar(data));
  const line = el("div", { class: "headline" });
  if (data.takes_territory !== null && data.takes_territory !== undefined)
    line.append(el("span", { id: "out-takes_territory", "data-value": String(data.takes_territory) },
      withSe(`takes ${pct(data.takes_territory)}`, seOf(data, "takes_territory", true))));
  line.append(el("span", { id: "out-tuv_swing", "data-value": String(data.tuv_swing) },
    withSe(`TUV swing ${signed(data.tuv_swing)}`, seOf(data, "tuv_swing"))));
  line.append(el("span", { text: `IPC lost ${num(data.attacker_ipc_lost)} : ${num(data.defender_ipc_lost)}` }));
  if (extra) line.append(extra);
  box.append(line);
  return box;
}

function unitsLeftTotal(data, side) {
  const given = data[`${side}_units_left`];
  if (given && typeof given === "object") return Object.values(given).reduce((a, b) => a + b, 0);
  return (data[`${side}_survivors`] || []).reduce((s, r) => s + (r.units_left || 0) * r.probability, 0);
}

function lossPoints(data, side) {
  // the IPC lost and its chance, in order: the result's distribution, or from its survivors
  const byLoss = new Map();
  const given = data[`${side}_ipc_lost_distribution`];
  if (Array.isArray(given)) for (const r of given) byLoss.set(r.ipc, (byLoss.get(r.ipc) || 0) + r.probability);
  else for (const r of data[`${side}_survivors`] || []) {
    const lost = Math.max(0, Math.round((data[`${side}_ipc_total`] || 0) - r.ipc));
    byLoss.set(lost, (byLoss.get(lost) || 0) + r.probability);
  }
  return Array.from(byLoss.entries()).sort((a, b) => a[0] - b[0]).map(([x, p]) => ({ x, p }));
}

function countPoints(data, side) {
  const byCount = new Map();
  for (const r of data[`${side}_survivors`] || []) byCount.set(r.units_left, (byCount.get(r.units_left) || 0) + r.probability);
  return Array.from(byCount.entries()).sort((a, b) => a[0] - b[0]).map(([x, p]) => ({ x, p }));
}

function percentileLine(points, what) {
  return el("p", { class: "percentiles", text: `${what}: ` +
    PERCENTILES.map(q => `${Math.round(100 * q)}% ${num(quantile(points, q))}`).join(" · ") });
}

function swingChart(data, prefix = "") {
  // The TUV swing's distribution (both sides' losses in the same end state, from the engine), with
  // the server's 5%, median and 95% marks; where the answer has none, why.
  const given = data.tuv_swing_distribution;
  const marks = data.tuv_swing_percentiles;
  if (!Array.isArray(given) || !given.length || !marks)
    return el("p", { id: `out-${prefix}tuv-swing-none`, class: "percentiles", text:
      "TUV swing range: not known for this battle (fighters that crash for want of a carrier change the defender's losses after it), only its average" });
  const points = given.map(r => ({ x: r.swing, p: r.probability }));
  const shown = [5, 50, 95].map(q => ({ q: q / 100, x: marks[String(q)] }));
  const colour = pt => colourOf(pt.x > 0 ? "--attacker" : pt.x < 0 ? "--defender" : "--draw");
  const chart = distributionChart(points, { colour, title: "TUV swing (above 0 the attacker gains)", marks: shown, valueAxis: true,
    xLabel: "TUV swing: defender IPC lost − attacker IPC lost", show: signed });
  chart.setAttribute("id", `out-${prefix}tuv-swing-chart`);
  const line = el("p", { id: `out-${prefix}tuv-swing-marks`, class: "percentiles", text:
    `TUV swing: 5% at ${signed(marks["5"])} · median ${signed(marks["50"])} · 95% at ${signed(marks["95"])}` });
  return el("div", { class: "swing-answer" }, el("h4", { text: "TUV swing" }), chart, line);
}

function casualtiesText(start, row) {
  // the units a survivors row has lost: the army it started with less what is left
  const lost = [];
  for (const [key, n] of Object.entries(start)) {
    if (key.startsWith("damaged ")) continue;
    const had = n + (start[`damaged ${key}`] || 0);
    const left = (row.counts || {})[key] || 0;
    if (had > left) lost.push(`${had - left} ${unitName(key, had - left)}`);
  }
  return lost.join(", ") || "none";
}

function battleDetails(data, prefix = "", armies = null) {
  // (armies: each side's counts as the battle began, for the casualties column)
  // Everything a battle's answer says, for players: figures, charts, folded tables.
  const box = el("div", {});
  box.append(el("h3", { text: data.battle }));
  const figures = el("div", { class: "figures" });
  const add = (key, label, text, se) => figures.append(figure(prefix + key, label, data[key], text, se));
  add("attacker_ipc_lost", "attacker IPC lost", num(data.attacker_ipc_lost), seOf(data, "attacker_ipc_lost"));
  add("defender_ipc_lost", "defender IPC lost", num(data.defender_ipc_lost), seOf(data, "defender_ipc_lost"));
  for (const side of SIDES) {
    const left = unitsLeftTotal(data, side);
    figures.append(figure(`${prefix}${side}_units_left`, `${side}: units left`, left, num(left), null));
  }
  if (data.expected_rounds != null) add("expected_rounds", "rounds, expected", num(data.expected_rounds), seOf(data, "expected_rounds"));
  for (const side of SIDES)
    if (data[`${side}_ipc_total`] != null) add(`${side}_ipc_total`, `${side}'s army`, `${num(data[`${side}_ipc_total`])} IPC`);
  if (data.retreat_round != null) add("retreat_round", "retreats in round (on average)", num(data.retreat_round));
  if (data.objective != null) add("objective", "best retreat: expected score", signed(data.objective));
  if (data.truncated_mass > 0) add("truncated_mass", "left unresolved (cut off)", pct(data.truncated_mass));
  box.append(figures);
  const interval = data.interval_95 || {};
  if (interval.attacker_win) box.append(el("p", { class: "status", text:
    `95% interval: attacker wins ${pct(interval.attacker_win[0])} to ${pct(interval.attacker_win[1])}` }));
  box.append(swingChart(data, prefix));
  if (Array.isArray(data.retreat_plan) && data.retreat_plan.length) {
    box.append(el("h4", { text: "When the best retreat leaves" }),
      foldedTable(`out-${prefix}retreat-plan`, [{ text: "attacker has" }, { text: "defender has" },
        { text: "chance", num: true }, { text: "round", num: true }],
      data.retreat_plan, r => el("tr", {}, el("td", { text: r.attacker }), el("td", { text: r.defender }),
        el("td", { class: "num", text: pct(r.probability) }), el("td", { class: "num", text: num(r.mean_round) }))));
  }
  if (data.casualty_policy && typeof casualtyAdvice === "function") box.append(casualtyAdvice(data.casualty_policy));
  for (const side of SIDES) {
    const colour = colourOf(`--${side}`);
    const losses = lossPoints(data, side);
    const counts = countPoints(data, side);
    const part = el("div", { class: "side-answer" }, el("h4", { text: `${side[0].toUpperCase()}${side.slice(1)}` }));
    const charts = el("div", { class: "charts" });
    if (losses.length) charts.append(el("div", {}, distributionChart(losses, { colour, title: `${side} IPC lost`, xLabel: "IPC lost" }),
      percentileLine(losses, "IPC lost at")));
    if (counts.length) charts.append(el("div", {}, distributionChart(counts, { colour, title: `${side} units left`, xLabel: "units left" }),
      percentileLine(counts, "units left at")));
    part.append(charts);
    const rows = (data[`${side}_survivors`] || []).slice().sort((a, b) => b.probability - a.probability);
    // the chance to keep at least as many units as a row (cumulative, as aacalc2 shows it)
    const atLeast = n => rows.reduce((s, r) => s + (r.units_left >= n ? r.probability : 0), 0);
    const start = armies && armies[side];
    part.append(foldedTable(`out-${prefix}${side}-survivors`, [{ text: "survivors" }, ...(start ? [{ text: "casualties" }] : []),
      { text: "chance", num: true }, { text: "" }, { text: "at least as many", num: true }, { text: "IPC", num: true }], rows,
    r => el("tr", {}, el("td", { text: r.label }), start ? el("td", { class: "casualties", text: casualtiesText(start, r) }) : null,
      el("td", { class: "num", text: withSe(pct(r.probability), r.std_error ? errorText(r.std_error, true) + "%" : null) }),
      barCell(r.probability, side), el("td", { class: "num", text: pct(atLeast(r.units_left)) }),
      el("td", { class: "num", text: num(r.ipc) }))));
    const given = data[`${side}_units_left`];
    if (given && typeof given === "object" && Object.keys(given).length) {
      const se = (data.std_error || {})[`${side}_units_left`] || {};
      part.append(el("table", { id: `out-${prefix}${side}-units-left`, class: "compact" },
        el("caption", { text: "units left, expected by type" }),
        el("tbody", {}, ...Object.entries(given).map(([unit, n]) => el("tr", {}, el("td", { text: unitName(unit, 2) }),
          el("td", { class: "num", text: withSe(num(n), se[unit] ? errorText(se[unit]) : null) }))))));
    }
    box.append(part);
  }
  return box;
}

function counterDetails(data) {
  const box = el("div", {}, el("h3", { text: `Counter-attack by ${data.counter_attack}` }));
  const figures = el("div", { class: "figures" },
    figure("holds", "takes and holds", data.holds, pct(data.holds), seOf(data, "holds", true)),
    figure("holds_if_taken", "holds, once taken", data.holds_if_taken, pct(data.holds_if_taken), seOf(data, "holds_if_taken", true)),
    figure("counter_attacker_ipc_lost", "counter-attacker IPC lost", data.counter_attacker_ipc_lost, num(data.counter_attacker_ipc_lost)),
    figure("stayed_ipc_lost", "IPC lost by the units that stayed", data.stayed_ipc_lost, num(data.stayed_ipc_lost)));
  box.append(figures, foldedTable("out-compositions", [{ text: "the attacker takes it with" }, { text: "chance", num: true },
    { text: "then holds", num: true }], (data.compositions || []).slice().sort((a, b) => b.probability - a.probability),
  r => el("tr", {}, el("td", { text: r.units }), el("td", { class: "num", text: pct(r.probability) }),
    el("td", { class: "num", text: pct(r.holds) }))));
  return box;
}

function renderWaves(data, req, ms) {
  // the first battle and the later waves: what each does, then the whole attack
  const title = `${req.attacker} attack ${req.defender}, then ${data.waves.length - 1} later wave${data.waves.length === 2 ? "" : "s"}`;
  // the whole attack's end, as one battle's outcomes (oddsim.stages.waves.WaveResult)
  const summary = el("div", {}, ...outcomeBar(data), el("div", { class: "headline" },
    el("span", { id: "out-defender_destroyed", "data-value": String(data.defender_destroyed) },
      withSe(`defender destroyed ${pct(data.defender_destroyed)}`, seOf(data, "defender_destroyed", true))),
    data.takes_territory == null ? null : el("span", { id: "out-takes_territory", "data-value": String(data.takes_territory) },
      withSe(`takes ${pct(data.takes_territory)}`, seOf(data, "takes_territory", true))),
    el("span", { id: "out-tuv_swing", "data-value": String(data.tuv_swing) }, withSe(`TUV swing ${signed(data.tuv_swing)}`, seOf(data, "tuv_swing"))),
    el("span", { text: `IPC lost ${num(data.attacker_ipc_lost)} : ${num(data.defender_ipc_lost)}` })));
  const how = Array.from(new Set(data.waves.map(w => w.method).filter(Boolean))).map(m => (m === "mc" ? "Monte Carlo" : m)).join(" and ");
  const box = el("div", {}, el("div", { class: "status", text: `${how} · ${ms.toFixed(0)} ms${data.interrupted ? " (stopped early: partial)" : ""}` }),
    el("h3", { text: title }));
  // a card per wave (what it does) and one for the whole attack, side by side where they fit
  const sePct = (se, key) => (se[key] ? errorText(se[key], true) + "%" : null);
  const item = (label, text, id, value) => el("div", { class: "wave-figure" }, el("dt", { text: label }),
    el("dd", { id, "data-value": value === undefined ? null : String(value), text }));
  const cards = el("div", { id: "out-waves", class: "wave-cards" });
  data.waves.forEach((w, i) => {
    const se = w.std_error || {};
    const given = w.given_it_fights || {};
    cards.append(el("section", { class: "wave-card", "aria-label": `wave ${i + 1}` },
      el("h4", { text: `Wave ${i + 1}${i === 0 ? " (the first battle)" : ""}: ${w.attacker}` }),
      el("dl", {},
        item("reaches the battle", withSe(pct(w.fights), sePct(se, "fights")), `out-wave-${i + 1}-fights`, w.fights),
        item("wins", withSe(pct(w.attacker_win), sePct(se, "attacker_win")), `out-wave-${i + 1}-attacker_win`, w.attacker_win),
        item("wins, if it fights", pct(given.attacker_win), null),
        data.takes_territory == null ? null : w.takes_territory !== undefined  // (the wave engine's)
          ? item("territory taken by now", withSe(pct(w.takes_territory), sePct(se, "takes_territory")), `out-wave-${i + 1}-takes`, w.takes_territory)
          : i === data.waves.length - 1
            ? item("territory taken by now", pct(data.takes_territory), `out-wave-${i + 1}-takes`, data.takes_territory)
            : item("territory taken by now", "…", `out-wave-${i + 1}-takes`),
        item("IPC lost (attacker : defender)", `${num(w.attacker_ipc_lost)} : ${num(w.defender_ipc_lost)}`, null),
        item("IPC lost, if it fights", `${num(given.attacker_ipc_lost)} : ${num(given.defender_ipc_lost)}`, null),
        ...waveUnits(w, i + 1, i === data.waves.length - 1, item))));
  });
  const se = data.std_error || {};
  cards.append(el("section", { class: "wave-card whole", "aria-label": "the whole attack" },
    el("h4", { text: "The whole attack" }),
    el("dl", {},
      item("attacker wins", withSe(pct(data.attacker_win), sePct(se, "attacker_win")), "out-waves-attacker_win", data.attacker_win),
      data.takes_territory == null ? null
        : item("takes the territory", withSe(pct(data.takes_territory), sePct(se, "takes_territory")), "out-waves-takes", data.takes_territory),
      item("defender destroyed", withSe(pct(data.defender_destroyed), sePct(se, "defender_destroyed")), null),
      item("the defender still stands", pct(data.defender_holds), null),
      item("IPC lost (attacker : defender)", `${num(data.attacker_ipc_lost)} : ${num(data.defender_ipc_lost)}`, null),
      item("TUV swing", withSe(signed(data.tuv_swing), seOf(data, "tuv_swing")), null))));
  box.append(cards, el("p", { class: "status", text:
    "wins: the chance this wave wins, over every outcome; if it fights: given it reaches the battle (the defender still stands). "
    + "Units left are averages; a wave that finds the defender gone keeps its whole army." }));
  return { title, summary, details: box };
}

function armiesOf(req) {
  // each side's counts as the battle began (the request's armies), for the casualties column
  return Object.fromEntries(SIDES.map(side => [side, parseArmy(req[side], side).counts]));
}

async function wavesTakenByNow(data, sent, signal) {
  // Each wave's card: the chance the territory is taken by the end of that wave, asked of the
  // server as the same attack cut after that wave (exact answers only: Monte Carlo ones would
  // be other runs). The last wave's is the whole attack's, already shown.
  if (!Array.isArray(data.waves) || data.takes_territory == null || data.waves.some(w => w.method !== "exact")
    || data.waves[0].takes_territory !== undefined) return;  // (each wave's own: its card has it)
  for (let k = 1; k < data.waves.length; k++) {
    const { waves, ...first } = sent;
    const cut = k === 1 ? first : { ...first, waves: waves.slice(0, k - 1) };
    const { ok, data: part } = await api("/api/battle", cut, signal);
    const node = $(`#out-wave-${k}-takes`);
    if (signal.aborted || !node) return;
    node.textContent = ok ? pct(part.takes_territory) : "—";
    if (ok) node.dataset.value = String(part.takes_territory);
  }
}

function renderBattle(data, req, ms) {
  if (Array.isArray(data.waves)) return renderWaves(data, req, ms);
  if (data.counter_attack !== undefined) {  // the battle, then the counter-attack on what took it
    const battle = data.battle;
    const holds = el("span", { id: "out-holds-line", "data-value": String(data.holds) },
      withSe(`takes and holds ${pct(data.holds)}`, seOf(data, "holds", true)));
    return { title: battle.battle, summary: battleSummary(battle, holds),
      details: el("div", {}, methodLine(battle, ms), counterDetails(data), battleDetails(battle, "", armiesOf(req))) };
  }
  return { title: data.battle, summary: battleSummary(data),
    details: el("div", {}, methodLine(data, ms), battleDetails(data, "", armiesOf(req))) };
}

// ---------- other tabs: their forms, and their answers drawn for players ----------

function readSimple(form) {
  const req = form.hasAttribute("data-no-rules") ? {} : rulesOf();
  for (const input of $$("[name]", form)) {
    const raw = input.value.trim();
    if (raw === "") continue;
    const type = input.dataset.type;
    req[input.name] = type === "int" ? Number(raw) : type === "bool" ? raw === "true"
      : type === "seed" && SEED_DIGITS.test(raw) ? raw.replace(/^0+(?=\d)/, "") : type === "seed" ? Number(raw) : raw;
  }
  const retreat = {};  // a retreat's fields (data-retreat): the request's "retreat" table
  for (const input of $$("[data-retreat]", form)) {
    const raw = input.value.trim();
    if (raw !== "") retreat[input.dataset.retreat] = input.type === "number" ? Number(raw) : raw;
  }
  if (Object.keys(retreat).length) {
    const { method, runs, seed, ...rest } = req;  // (the engine's options last, as the CLI line has them)
    return { ...rest, retreat, ...(method === undefined ? {} : { method }), ...(runs === undefined ? {} : { runs }),
      ...(seed === undefined ? {} : { seed }) };
  }
  return req;
}

function writeSimple(tab, req) {
  // a field the request leaves out is empty (a drop-down: its first choice), not the example's
  const form = $(`#panel-${tab} form`);
  form.reset();
  for (const input of $$("[name]", form)) {
    const value = req[input.name];
    if (value !== undefined && value !== null) input.value = String(value);
    else if (input.tagName === "SELECT") input.selectedIndex = 0;
    else input.value = "";
  }
  for (const input of $$("[data-retreat]", form)) fieldWrite(input, input.tagName === "SELECT" ? "select" : "text", (req.retreat || {})[input.dataset.retreat]);
  formWritten(tab);
}

function formWritten(tab) {
  // a simple tab's fields were written (a link, Clear): its counters, fronts and CLI line follow
  refreshFronts($(`#panel-${tab} form`));
  syncBestCasualties($(`#panel-${tab} form`));
  if (tab !== "plan") unfoldGiven($(`#panel-${tab} form`));  // (the plan unfolds its own options)
  buildArmyPickers();
  showCommand(tab);
}

function stageLine(result) {
  return `attacker wins ${pct(result.attacker_win)}` +
    (result.takes_territory != null ? `, takes ${pct(result.takes_territory)}` : "") +
    `, IPC lost ${num(result.attacker_ipc_lost)} : ${num(result.defender_ipc_lost)}`;
}

function renderAmphibious(data, req, ms) {
  const summary = el("div", {}, ...outcomeBar({ attacker_win: data.takes_territory, defender_win: 1 - data.takes_territory,
    std_error: { attacker_win: (data.std_error || {}).takes_territory } }, "amphibious-",
  [["attacker_win", "takes the territory", "--attacker"], ["defender_win", "does not", "--defender"]]),
  el("div", { class: "headline" },
    el("span", { text: withSe(`defenders destroyed ${pct(data.defender_destroyed)}`, seOf(data, "defender_destroyed", true)) }),
    el("span", { text: withSe(`TUV swing ${signed(data.tuv_swing)}`, seOf(data, "tuv_swing")) }),
    el("span", { text: `IPC lost ${num(data.attacker_ipc_lost)} : ${num(data.defender_ipc_lost)}` })));
  const box = el("div", {}, methodLine(data.sea || (data.landings.find(l => l.result) || {}).result || {}, ms),
    el("h3", { text: data.assault }));
  const f = (key, label, isP) => figure(`amphibious-${key}`, label, data[key], isP ? pct(data[key]) : num(data[key]), seOf(data, key, isP));
  box.append(el("div", { class: "figures" }, f("takes_territory", "takes the territory", true),
    f("defender_destroyed", "defenders destroyed", true), f("attacker_ipc_lost_sea", "attacker IPC lost at sea"),
    f("attacker_ipc_lost_land", "attacker IPC lost on land"), f("defender_ipc_lost_sea", "defender IPC lost at sea"),
    f("defender_ipc_lost_land", "defender IPC lost on land"), f("cargo_lost", "cargo sunk with its transports (IPC)")));
  if (data.sea) box.append(el("p", { id: "out-amphibious-sea-explained", class: "status", text:  // (issue 35: 4.06 beside 3.55)
    `Attacker IPC lost at sea ${num(data.attacker_ipc_lost_sea)}: the sea battle's ${num(data.sea.attacker_ipc_lost)} in ships `
    + `and aircraft, plus ${num(data.cargo_lost)} of cargo that sinks with its transports.` }));
  box.append(el("h4", { text: "The sea battle" }));
  if (data.sea) box.append(el("details", {}, el("summary", { text: stageLine(data.sea) }), battleDetails(data.sea, "sea-")));
  else box.append(el("p", { text: "none: no defending ships (or only subs and transports, ignored)" }));
  box.append(el("h4", { text: "The landings" }));
  const landings = data.landings.slice().sort((a, b) => b.probability - a.probability);
  box.append(foldedTable("out-amphibious-landings", [{ text: "transports that arrive", num: true }, { text: "chance", num: true },
    { text: "the land battle" }], landings, l => el("tr", {},
    el("td", { class: "num", text: String(l.transports) }), el("td", { class: "num", text: pct(l.probability) }),
    el("td", { text: l.result ? stageLine(l.result) : "no land battle: nothing lands" }))));
  for (const l of landings.filter(l => l.result))  // each land battle in full, on demand
    box.append(el("details", { class: "stage" }, el("summary", { text: `the land battle when ${l.transports} transport${l.transports === 1 ? "" : "s"} arrive` }),
      battleDetails(l.result, `land${l.transports}-`)));
  return { title: data.assault, summary, details: box };
}

function renderRaid(data, req, ms) {
  const summary = el("div", { class: "headline big" },
    el("span", { id: "out-raid-expected_damage", "data-value": String(data.expected_damage) },
      withSe(`damage ${num(data.expected_damage)} IPC`, seOf(data, "expected_damage"))),
    el("span", { text: withSe(`IPC swing ${signed(data.ipc_swing)}`, seOf(data, "ipc_swing")) }),
    el("span", { text: withSe(`bombers lost ${num(data.bombers_lost)}`, seOf(data, "bombers_lost")) }));
  const box = el("div", {}, methodLine(data, ms), el("h3", { text: data.raid }));
  const f = (key, label) => figure(`raid-${key}`, label, data[key], num(data[key]), seOf(data, key));
  box.append(el("div", { class: "figures" }, f("expected_damage", "damage, expected (IPC)"), f("ipc_swing", "IPC swing for the attacker"),
    f("bombers_lost", "bombers lost"), f("escorts_lost", "escorts lost"), f("interceptors_lost", "interceptors lost")));
  const points = Object.entries(data.damage).map(([x, p]) => ({ x: Number(x), p })).sort((a, b) => a.x - b.x);
  box.append(distributionChart(points, { colour: colourOf("--attacker"), title: "damage", xLabel: "damage (IPC)" }),
    percentileLine(points, "damage at"),
    foldedTable("out-raid-damage", [{ text: "damage (IPC)", num: true }, { text: "chance", num: true }, { text: "" }],
      points, pt => el("tr", {}, el("td", { class: "num", text: num(pt.x) }),
        el("td", { class: "num", text: pct(pt.p) }), barCell(pt.p, "attacker")), 16));  // (by damage: every row where few)
  return { title: data.raid, summary, details: box };
}

function sidesTable(id, caption, rowLabels, values, errors) {
  // rows (fronts won 0..3, front 1..3) by side: chances with ± where Monte Carlo
  const cell = (side, i) => {
    const v = values[side][i];
    const se = errors && errors[side] ? errors[side][i] : null;
    return el("td", { class: "num", text: v === null || v === undefined ? "—" : withSe(pct(v), se ? errorText(se, true) + "%" : null) });
  };
  return el("table", { id, class: "compact" }, el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, hiddenTh("which"), el("th", { scope: "col", class: "num", text: "attacker" }),
      el("th", { scope: "col", class: "num", text: "defender" }))),
    el("tbody", {}, ...rowLabels.map((label, i) => el("tr", {}, el("th", { scope: "row", text: label }), cell("attacker", i), cell("defender", i)))));
}

function renderTrench(data, req, ms) {
  const se = data.std_error || {};
  const summary = el("div", {}, ...outcomeBar(data, "trench-bar-", [...OUTCOMES.slice(0, 2), ["draw", "draw", "--draw"]]),
    el("div", { class: "headline" }, el("span", { text:
      `victory points, expected: attacker ${num(data.expected_points.attacker)}, defender ${num(data.expected_points.defender)}` })));
  const box = el("div", {}, methodLine(data, ms), el("h3", { text: data.battle }));
  const f = (key, label) => figure(`trench-${key}`, label, data[key], pct(data[key]), seOf(data, key, true));
  box.append(el("div", { class: "figures" }, f("attacker_win", "attacker wins"), f("defender_win", "defender wins"), f("draw", "draw"),
    figure("trench-crushing-attacker", "attacker wins all 3 fronts", data.crushing_victory.attacker, pct(data.crushing_victory.attacker)),
    figure("trench-crushing-defender", "defender wins all 3 fronts", data.crushing_victory.defender, pct(data.crushing_victory.defender))));
  box.append(trenchPlay(req, data));  // (trench-words.js: in the game's words)
  const won = ["0 fronts", "1 front", "2 fronts", "3 fronts"];
  box.append(el("h4", { text: "Fronts won" }), groupedBars(won, SIDES.map(side => ({ label: side, colour: colourOf(`--${side}`),
    values: data.fronts_won[side] })), { title: "fronts won by each side", xLabel: "fronts won" }),
  el("div", { class: "legend", id: "out-trench-fronts-legend" }, ...SIDES.map(side => el("span", {},
    el("span", { class: "key", style: `background:var(--${side})` }), side))),
  sidesTable("out-trench-fronts-won", "chance to win this many fronts", won, data.fronts_won, se.fronts_won));
  const fronts = ["front 1", "front 2", "front 3"];
  box.append(sidesTable("out-trench-cards", "chance a card is destroyed, by front", fronts, data.cards_destroyed, se.cards_destroyed));
  const fleets = data.support_fleets_destroyed;
  if (fleets && SIDES.some(s => fleets[s].some(v => v !== null)))
    box.append(sidesTable("out-trench-fleets", "chance a support-slot fleet is destroyed, by front", fronts, fleets, se.support_fleets_destroyed));
  const joint = data.joint_fronts;
  box.append(el("table", { id: "out-trench-joint", class: "compact" }, el("caption", { text: "fronts won by both: the attacker's (rows) against the defender's (columns)" }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "won" }),
      ...joint[0].map((_, j) => el("th", { scope: "col", class: "num", text: String(j) })))),
    el("tbody", {}, ...joint.map((row, i) => el("tr", {}, el("th", { scope: "row", text: String(i) }),
      ...row.map(p => el("td", { class: "num", text: p > 0 ? pct(p) : "" })))))));
  return { title: data.battle, summary, details: box };
}

// ---------- jobs (purchase sweeps, trench advice): progress and cancel ----------

async function startJob(tab) {
  const spec = TABS[tab];
  const panel = $(`#panel-${tab}`);
  const form = $("form", panel);
  const out = $(".results", panel);
  const req = spec.read(form);
  saveToUrl(tab, req);
  if (spec.cli) $(".cli", form).textContent = spec.cli(req);
  else showCommand(tab, req);
  const { ok, data } = await api(`/api/jobs/${spec.endpoint}`, req);
  if (!ok) { out.replaceChildren(errorBox(data.error)); out.dataset.state = "error"; return; }
  state.job = data.id;
  $(".cancel", form).disabled = false;
  const bar = el("progress", { max: "1", value: "0", "aria-label": `${spec.work} progress` });
  const status = el("div", { class: "status", text: "starting…" });
  out.replaceChildren(status, bar);
  out.dataset.state = "busy";
  const started = performance.now();
  while (state.job === data.id) {
    await new Promise(r => setTimeout(r, 300));
    const poll = await api(`/api/jobs/${data.id}`);
    if (state.job !== data.id) break;  // (another job started meanwhile: its answer is the one to show)
    const job = poll.data;
    if (!poll.ok) { out.replaceChildren(errorBox(job.error)); break; }
    bar.max = String(job.total || 1);
    bar.value = String(job.done);
    status.textContent = `${job.state}: ${num(job.done)} of ${num(job.total)} ${spec.work}`;
    if (job.state === "done") {
      state.drawn[tab] = [job.result, req, performance.now() - started];
      const drawn = spec.render(...state.drawn[tab]);
      $(".summary", panel).replaceChildren(drawn.summary);
      out.replaceChildren(...rulesReadingsLine(job.result), drawn.details); out.dataset.state = "done";
      remember(tab, req, drawn.title);
      break;
    }
    if (job.state === "failed" || job.state === "cancelled") {
      out.replaceChildren(errorBox(job.error || "cancelled")); out.dataset.state = "error"; break;
    }
  }
  if (state.job === data.id) state.job = null;
  $(".cancel", form).disabled = true;
}

const GOAL_WORDS = { take: "takes", clear: "clears", hold: "holds", tuv: "TUV swing", value: "TUV swing + territory", "hold-after": "takes and holds" };

function frontierChart(data, isP) {
  // every ranked purchase by cost and goal; the Pareto frontier joined by a line
  const W = 360, H = 190, L = 52, B = 36, T = 12;
  const points = [...data.rows, ...data.frontier];
  const costs = points.map(r => r.cost), values = points.map(r => r.value);
  const [c0, c1] = [Math.min(...costs), Math.max(...costs)];
  const [v0, v1] = [Math.min(0, ...values), Math.max(...values, 1e-9)];
  const x = c => L + (W - L - 10) * (c1 === c0 ? 0.5 : (c - c0) / (c1 - c0));
  const y = v => T + (H - T - B) * (1 - (v - v0) / (v1 - v0 || 1));
  const fmt = v => (isP ? pct(v) : signed(v));
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": "the Pareto frontier: " + data.frontier.map(r => `${r.purchase} (${r.cost} IPC) ${fmt(r.value)}`).join("; ") },
  svg("title", { text: "purchases by cost and goal" }),
  svg("line", { x1: L, y1: H - B, x2: W - 2, y2: H - B, class: "axis" }), svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }),
  svg("text", { x: (L + W) / 2, y: H - 3, class: "tick", "text-anchor": "middle", text: "cost (IPC)" }));
  // round ticks on both axes, as many as the labels leave room for
  const vStep = niceStep(v1 - v0, 5);
  for (let v = Math.ceil(v0 / vStep) * vStep; v <= v1 + 1e-12; v += vStep) {
    chart.append(svg("line", { x1: L - 3, y1: y(v), x2: L, y2: y(v), class: "axis" }),
      svg("text", { x: L - 5, y: y(v) + 4, class: "tick", "text-anchor": "end", text: isP ? pct(v).replace(/\.0+%/, "%") : signed(Math.round(v * 1e6) / 1e6) }));
  }
  if (c1 > c0) {
    const cStep = Math.max(1, niceStep(c1 - c0, Math.floor((W - L - 10) / TICK_WIDTH)));
    for (let c = Math.ceil(c0 / cStep) * cStep; c <= c1; c += cStep)
      chart.append(svg("line", { x1: x(c), y1: H - B, x2: x(c), y2: H - B + 3, class: "axis" }),
        svg("text", { x: x(c), y: H - B + 15, class: "tick", "text-anchor": "middle", text: String(c) }));
  } else chart.append(svg("text", { x: x(c0), y: H - B + 15, class: "tick", "text-anchor": "middle", text: String(c0) }));
  const front = data.frontier.slice().sort((a, b) => a.cost - b.cost);
  chart.append(svg("polyline", { points: front.map(r => `${x(r.cost)},${y(r.value)}`).join(" "), class: "frontier", stroke: colourOf("--other") }));
  for (const r of data.rows) chart.append(svg("circle", { cx: x(r.cost), cy: y(r.value), r: 3.5, fill: colourOf("--attacker") },
    svg("title", { text: `${r.purchase}: ${r.cost} IPC, ${fmt(r.value)}` })));
  for (const r of front) chart.append(svg("circle", { cx: x(r.cost), cy: y(r.value), r: 4.5, fill: "none", stroke: colourOf("--other"), "stroke-width": 2 },
    svg("title", { text: `on the frontier: ${r.purchase}: ${r.cost} IPC, ${fmt(r.value)}` })));
  return chart;
}

function renderPurchase(data, req, ms) {
  // The ranking (best first, * on the cost-vs-goal Pareto frontier), the frontier and the CLI's report.
  const isP = !["tuv", "value"].includes(data.goal);  // value: TUV swing plus the territory's worth
  const fmt = r => (isP ? pct(r.value) : signed(r.value)) + (r.value_error_text ? ` ${r.value_error_text}` : "");
  const best = data.rows[0];
  const summary = el("div", { class: "headline big" }, best
    ? el("span", { id: "out-purchase-best", "data-value": String(best.value),
      text: `best: ${best.purchase} (${best.cost} IPC), ${GOAL_WORDS[data.goal] || data.goal} ${fmt(best)}` })
    : el("span", { text: "no purchase" }));
  const box = el("div", {}, el("div", { class: "status", text: `${num(data.purchases)} purchases · ${(ms / 1000).toFixed(1)} s` }),
    el("h3", { text: data.describe }), lossesLine("out-purchase-losses", req, data.choosers));
  const top = Math.max(...data.rows.map(r => r.value), 1e-12);
  const rows = el("tbody");
  const table = el("table", { id: "out-purchase-rows" }, el("thead", {}, el("tr", {},
    el("th", { class: "num", scope: "col", text: "rank" }), el("th", { scope: "col", text: "purchase" }), el("th", { class: "num", scope: "col", text: "cost" }),
    el("th", { class: "num", scope: "col", text: GOAL_WORDS[data.goal] || data.goal }), hiddenTh("as a bar"))), rows);
  for (const r of data.rows) {
    rows.append(el("tr", {}, el("td", { class: "num", text: `${r.rank}${r.frontier ? " *" : ""}` }),
      el("td", { text: r.purchase }), el("td", { class: "num", text: String(r.cost) }),
      el("td", { class: "num", text: fmt(r) }),  // Monte Carlo rows with their error, as the report
      el("td", { class: "barcell" }, el("div", { class: "bar attacker",
        style: `width:${Math.max(0.5, 100 * Math.max(0, r.value) / top)}%` }))));
  }
  box.append(table, el("p", { class: "status", text: "* on the Pareto frontier (no cheaper purchase does as well)" }));
  if (data.rows.length) box.append(el("h4", { text: "Cost against goal" }), frontierChart(data, isP),
    el("div", { class: "legend", id: "out-purchase-legend" },
      el("span", {}, el("span", { class: "key dot", style: "background:var(--attacker)" }), "a purchase"),
      el("span", {}, el("span", { class: "key ring", style: "border-color:var(--other)" }), "on the Pareto frontier (no cheaper purchase does as well)")));
  box.append(el("details", {}, el("summary", { text: "the report, as oddsim purchase prints it" }),
    el("pre", { class: "report", text: data.report })));
  return { title: data.describe, summary, details: box };
}

async function cancelJob() {
  if (state.job) await api(`/api/jobs/${state.job}`, undefined, undefined, "DELETE");
}

// ---------- trench advice ----------

function commitmentText(c, front) {
  // one front of a commitment as players say it: "6 + 2" (army and support), "5 + ? (face down)", "no card"
  const card = c.cards[front], support = c.support[front];
  if (card === null) return "no card";
  return support === 0 ? String(card) : `${card} + ${support < 0 ? "? (face down)" : support}`;
}

function commitmentLine(c) {
  return [0, 1, 2].map(f => `front ${f + 1}: ${commitmentText(c, f)}`).join("; ");
}

function renderAdvise(data, req, ms) {
  // The ranked commitments (best first) with each one's odds, as oddsim trench advise prints them.
  const best = data.options[0];
  const goal = data.objective === "win" ? "the chance to win" : "the victory points gained";
  const summary = el("div", {}, el("div", { class: "headline big" }, el("span", { text: best
    ? `best: ${commitmentLine(best.attacker)}` : "no commitment" })),
  ...(best ? outcomeBar(best.result, "advise-bar-", [...OUTCOMES.slice(0, 2), ["draw", "draw", "--draw"]]) : []));
  const box = el("div", {}, el("div", { class: "status", text:
    `${num(data.considered)} commitments considered, ${num(data.battles_solved)} distinct battles worked out · ${(ms / 1000).toFixed(1)} s` }),
  el("h3", { text: `Best commitments for ${goal}` }),
  el("p", { class: "status", text: `The defender ${data.defender.startsWith("hand")
    ? "answers each commitment with its strongest cards, placed worst for the attacker" : "has committed the cards given"}.` }),
  trenchPlay(req, data));
  const lost = r => [...r.cards_destroyed.attacker, ...(r.support_fleets_destroyed || { attacker: [] }).attacker]
    .reduce((sum, p) => sum + (p || 0), 0);
  const fronts = c => el("td", {}, ...[0, 1, 2].map(f => el("div", { text: `${f + 1}: ${commitmentText(c, f)}` })));
  const committed = !data.defender.startsWith("hand");  // the same defender cards on every row
  if (committed) box.append(el("p", { text: `The defender's cards: ${commitmentLine(data.options[0]?.defender || { cards: [null, null, null], support: [0, 0, 0] })}.` }));
  const head = ["rank", "attacker's fronts", ...(committed ? [] : ["defender's answer"]), "attacker wins", "draw",
    "defender wins", "victory points gained", "attacker cards lost", "same odds"];
  const table = el("table", { id: "out-advise-options" }, el("caption", { text: "commitments of the attacker's hand, best first (card + support)" }),
    el("thead", {}, el("tr", {}, ...head.map(h => el("th", { scope: "col", class: h.endsWith("fronts") || h.endsWith("answer") ? null : "num", text: h })))),
    el("tbody", {}, ...data.options.map(o => el("tr", {}, el("td", { class: "num", text: String(o.rank) }),
      fronts(o.attacker), ...(committed ? [] : [fronts(o.defender)]),
      ...[o.result.attacker_win, o.result.draw, o.result.defender_win].map(p => el("td", { class: "num", text: pct(p) })),
      el("td", { class: "num", text: signed(o.points_swing) }),
      el("td", { class: "num", text: num(lost(o.result)) }), el("td", { class: "num", text: String(o.equivalents) })))));
  box.append(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the ranked commitments" }, table));
  return { title: best ? commitmentLine(best.attacker) : "trench advice", summary, details: box };
}

// ---------- plan the turn (issue 26): the pool split over targets, or a defence placed ----------

const PLAN_EXAMPLE = {  // the issue's example: what the tab shows first, and what Clear brings back
  pool: "12 inf, 4 art, 4 arm, 3 ftr, 1 bmb",
  targets: ["Ukraine=6 inf, 2 arm, 1 aa", "Belarus=3 inf", "Baltic States=2 inf, 1 art"],
  values: ["Ukraine=3", "Belarus=2", "Baltic States=2"], reach: ["ftr=Ukraine,Belarus", "bmb=Ukraine"], goal: "value", alternatives: 3,
};
const PLAN_GOALS = {  // [goal, what the page calls it, whether it takes a K]; the first is the CLI's default
  attack: [["value", "expected value (TUV swing + value × chance to take)"], ["tuv", "expected TUV swing"],
    ["take-all", "chance to take every target"], ["take-at-least", "chance to take at least K of the targets", true],
    ["hold-after", "chance to take and hold every target (its counter-attack)"]],
  defend: [["hold-all", "chance to hold every territory"], ["hold-at-least", "chance to hold at least K of the territories", true],
    ["value", "value kept (value × chance to hold, net IPCs)"]],
};
const PLAN_CHANCES = new Set(["take-all", "take-at-least", "hold-after", "hold-all", "hold-at-least"]);
const PLAN_LISTS = { counter_attack: "counter_attack", stands: "stands", value: "values" };  // a row's field -> the request's list
const PLAN_FLAGS = { targets: "--target", threats: "--threat", values: "--value", counter_attack: "--counter-attack" };
const PLAN_COLOURS = ["--attacker", "--defender", "--retreat", "--other", "--stalemate", "--takes", "--warn"];
const planDefend = () => $("#plan-mode").value === "true";

function entriesOf(given) {
  // a request's NAME=... list (or mapping) as [name, text] pairs
  if (!given) return [];
  if (!Array.isArray(given)) return Object.entries(given).map(([k, v]) => [k, String(v)]);
  return given.map(e => { const at = String(e).indexOf("="); return at < 0 ? [String(e), ""] : [e.slice(0, at), e.slice(at + 1)]; });
}

function planTargetRow(target = {}) {
  // one target's row: its name, its army (defenders, or in a defence the threat), its value, and
  // its counter-attack (attacks) or the units already there (a defence)
  const box = $("#plan-targets");
  const n = box.children.length + 1;
  const row = el("fieldset", { class: "wave plan-target" }, el("legend"));
  const grid = el("div", { class: "options" });
  const fields = [["name", "Name", "e.g. Ukraine"], ["army", "", "none"], ["value", "Value (IPCs)", "0"],
    ["counter_attack", "Counter-attack (goal: take and hold)", "none"], ["stands", "Already there", "none"]];
  for (const [key, label, placeholder] of fields) {
    const input = el("input", { "data-key": key, autocomplete: "off", placeholder, type: key === "value" ? "number" : null,
      min: key === "value" ? "0" : null, step: key === "value" ? "any" : null, value: target[key] === undefined ? "" : String(target[key]) });
    grid.append(el("label", { "data-for": key }, el("span", { text: label }), input));
  }
  row.append(grid, el("button", { type: "button", class: "remove-wave", onclick: () => { row.remove(); planRenumber(); planRefresh(); } }));
  box.append(row);
  planRenumber();
}

function planRenumber() {
  const defend = planDefend();
  const what = defend ? "Territory" : "Target";
  $("#plan-targets-legend").textContent = defend ? "Threatened territories" : "Targets";
  $("#plan-add-target").textContent = `Add a ${what.toLowerCase()}`;
  $$("#plan-targets .plan-target").forEach((row, i) => {
    $("legend", row).textContent = `${what} ${i + 1}`;
    $(".remove-wave", row).textContent = `Remove ${what.toLowerCase()} ${i + 1}`;
    $("[data-for=army] span", row).textContent = defend ? "Its attackers (the threat)" : "Its defenders";
    $("[data-for=counter_attack]", row).hidden = defend;
    $("[data-for=stands]", row).hidden = !defend;
    for (const input of $$("input", row)) input.id = `plan-target-${i + 1}-${input.dataset.key}`;
  });
}

function planShowMode(goal) {
  // the goals of this side (the one given, else the side's default), its K, and the rows' labels
  const select = $("#plan-goal");
  const goals = PLAN_GOALS[planDefend() ? "defend" : "attack"];
  const [name, k] = String(goal || select.value || "").split(":");
  select.replaceChildren(...goals.map(([value, label]) => el("option", { value, text: label })));
  select.value = goals.some(([value]) => value === name) ? name : goals[0][0];
  if (k) $("#plan-k").value = k;
  planShowK();
  planRenumber();
}

function planShowK() {
  const goal = PLAN_GOALS[planDefend() ? "defend" : "attack"].find(([value]) => value === $("#plan-goal").value);
  $("#plan-k-label").hidden = !(goal && goal[2]);
}

function readPlan(form) {
  // the request oddsim plan's options make, in their order (the CLI line keeps it)
  const simple = readSimple(form);
  const defend = simple.defend === true;
  const req = { rules: simple.rules };
  if (simple.unit_values) req.unit_values = simple.unit_values;
  if (defend) req.defend = true;
  req.pool = simple.pool || "";
  const rows = $$("#plan-targets .plan-target").map(row => Object.fromEntries($$("input", row)
    .map(input => [input.dataset.key, input.value.trim()]))).filter(r => Object.values(r).some(Boolean));
  req[defend ? "threats" : "targets"] = rows.map(r => `${r.name}=${r.army || "none"}`);
  for (const key of ["value", ...(defend ? ["stands"] : ["counter_attack"])]) {
    const given = rows.filter(r => r[key]).map(r => `${r.name}=${r[key]}`);
    if (given.length) req[PLAN_LISTS[key]] = given;
  }
  const reach = String(simple.reach || "").split(";").map(s => s.trim()).filter(Boolean);
  if (reach.length) req.reach = reach;
  const goal = $("#plan-goal").value;
  const takesK = PLAN_GOALS[defend ? "defend" : "attack"].find(([value]) => value === goal)[2];
  req.goal = takesK ? `${goal}:${$("#plan-k").value.trim()}` : goal;
  for (const [key, value] of Object.entries(simple))
    if (!["rules", "defend", "pool", "reach", "retreat"].includes(key)) req[key] = value;
  const retreat = {};
  for (const input of $$("[data-retreat]", form)) {
    const raw = input.value.trim();
    if (raw !== "") retreat[input.dataset.retreat] = input.type === "number" ? Number(raw) : raw;
  }
  if (Object.keys(retreat).length) req.retreat = retreat;
  return req;
}

function writePlan(tab, req) {
  // every field from a request (a link, or Clear's example)
  const defend = req.defend === true;
  writeSimple(tab, { ...req, reach: entriesOf(req.reach).map(([u, t]) => `${u}=${t}`).join("; ") || undefined });
  const rows = entriesOf(defend ? req.threats : req.targets).map(([name, army]) => ({ name, army }));
  for (const key of Object.keys(PLAN_LISTS)) {
    const by = new Map(entriesOf(req[PLAN_LISTS[key]]).map(([name, text]) => [name.trim().toLowerCase(), text]));
    for (const row of rows) if (by.has(row.name.trim().toLowerCase())) row[key] = by.get(row.name.trim().toLowerCase());
  }
  $("#plan-targets").replaceChildren();
  for (const row of rows) planTargetRow(row);
  if (!rows.length) planTargetRow();
  $("#plan-k").value = "2";
  planShowMode(req.goal || (defend ? "hold-all" : "value"));
  for (const input of $$("[data-retreat]", $(`#panel-${tab} form`))) {
    const v = (req.retreat || {})[input.dataset.retreat];
    fieldWrite(input, input.tagName === "SELECT" ? "select" : "text", v);
  }
  const options = $("#plan-battle-options");  // unfolded where the request gives one of them
  options.open = $$("input, select", options).some(input => input.value !== "");
  planRefresh();
}

function planRefresh(edition) {
  // the CLI line and, in the open tab, the link as the fields stand (the edition picked: before
  // its rules have loaded)
  const req = readPlan($("#panel-plan form"));
  const asked = { ...req, rules: edition || req.rules || $("#edition").value };
  $("#plan-cli").textContent = planCommand(asked);
  if (state.tab === "plan") saveToUrl("plan", asked);
}

function planCommand(req) {
  // the oddsim plan line that prints the page's answer
  const args = ["oddsim plan"];
  if (req.rules && req.rules !== "1942-2e") args.push(`--rules ${req.rules}`);
  for (const [key, value] of Object.entries(req)) if (key !== "rules") args.push(...optionArgs(key, value, PLAN_FLAGS));
  return args.join(" ");
}

function wirePlan() {
  const form = $("#panel-plan form");
  $("#plan-add-target").addEventListener("click", () => { planTargetRow(); $("#plan-targets .plan-target:last-child input").focus(); });
  $("#plan-mode").addEventListener("change", () => { planShowMode(); planRefresh(); });
  $("#plan-goal").addEventListener("change", () => { planShowK(); planRefresh(); });
  form.addEventListener("input", planRefresh);
  $("#edition").addEventListener("change", e => planRefresh(e.target.value));
  $(".copy-cli", form).addEventListener("click", e => copy($("#plan-cli").textContent, e.target));
  writePlan("plan", PLAN_EXAMPLE);
}

function splitChart(rows, names, fmt) {
  // a bar per split (the best, then the runners-up): the units it sends to each target, in the
  // Okabe-Ito colours, and those it keeps (grey); its objective at the right
  const W = 360, L = 44, R = 62, RowH = 20, T = 6;
  const H = T + rows.length * RowH + 4;
  const total = Math.max(1, ...rows.map(r => r.sent.reduce((a, b) => a + b, 0) + r.kept));
  const scale = (W - L - R) / total;
  const colour = i => colourOf(PLAN_COLOURS[i % PLAN_COLOURS.length]);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "the best split and the runners-up: "
    + rows.map(r => `${r.label} ${fmt(r.objective)}: ` + names.map((n, i) => `${n} ${r.sent[i]} units`).join(", ")).join("; ") },
  svg("title", { text: "units sent to each target by the best split and the runners-up" }));
  rows.forEach((r, j) => {
    const y = T + j * RowH;
    chart.append(svg("text", { x: 2, y: y + 13, class: "tick", text: r.label }));
    let x = L;
    [...r.sent.map((n, i) => [n, colour(i), names[i]]), [r.kept, colourOf("--draw"), "not sent"]].forEach(([n, fill, name]) => {
      if (n <= 0) return;
      chart.append(svg("rect", { x, y: y + 2, width: n * scale, height: RowH - 6, fill, stroke: "#fff", "stroke-width": 0.5 },
        svg("title", { text: `${r.label}, ${name}: ${n} unit${n === 1 ? "" : "s"}` })));
      x += n * scale;
    });
    chart.append(svg("text", { x: W - 2, y: y + 13, class: "tick", "text-anchor": "end", text: fmt(r.objective) }));
  });
  const legend = el("div", { class: "legend" }, ...[...names.map((n, i) => [n, colour(i)]), ["not sent", colourOf("--draw")]]
    .map(([n, c]) => el("span", {}, el("span", { class: "key", style: `background:${c}` }), n)));
  return el("div", {}, chart, legend);
}

function renderPlan(data, req, ms) {
  // The best split as a table for players, the objective, the runners-up (table and chart) and
  // each unit type's value at the margin, as oddsim plan prints them.
  const defend = data.defend;
  const [goalName, k] = data.goal.split(":");
  const goalLabel = PLAN_GOALS[defend ? "defend" : "attack"].find(([value]) => value === goalName)[1].replace(/\bK\b/, k);
  const fmt = v => (PLAN_CHANCES.has(goalName) ? pct(v) : signed(v));
  const names = Object.keys(data.split);
  const units = t => t.units === "none" ? (defend ? "none placed" : "nothing sent") : t.units;
  const chance = t => (defend ? 1 - t.takes_territory : t.takes_territory);
  const title = `${defend ? "defence" : "attack"}: ${names.join(", ")}`;
  const summary = el("div", {}, el("div", { class: "headline big" }, el("span", { id: "out-plan-objective", "data-value": String(data.objective),
    text: `best ${defend ? "defence" : "split"}: ${goalLabel} ${fmt(data.objective)}` })),
  el("div", { class: "headline" }, ...names.map(n => { const t = data.split[n];
    return el("span", { text: `${n}: ${units(t)}${t.fought ? ` (${defend ? "holds" : "takes"} ${pct(chance(t))})` : ""}` }); })));
  const box = el("div", {}, el("div", { class: "status", text: `exact, ${num(data.battles)} battles solved · ${(ms / 1000).toFixed(1)} s` }),
    el("h3", { text: `The best ${defend ? "defence" : "attack split"} for the ${goalLabel}: ${fmt(data.objective)}` }),
    lossesLine("out-plan-losses", req, data.choosers));
  const holds = goalName === "hold-after";  // (then each target's chance to take and hold its counter-attack)
  const head = [defend ? "territory" : "target", defend ? "units placed" : "units sent", defend ? "chance to hold" : "chance to take",
    ...(holds ? ["takes and holds"] : []), "your IPC lost", "their IPC lost", "TUV swing for you", "value (IPC)"];
  const rows = names.map(n => { const t = data.split[n];
    const there = Object.keys(t.stands || {}).length ? ` (with ${armyText(t.stands)} already there)` : "";
    const fought = t.fought;
    return el("tr", { "data-target": n, "data-units": t.units }, el("th", { scope: "row", text: n }),
      el("td", { class: "units", text: units(t) + there }), el("td", { class: "num", text: fought ? pct(chance(t)) : "no battle" }),
      ...(holds ? [el("td", { class: "num", text: fought ? pct(t.holds) : "—" })] : []),
      el("td", { class: "num", text: fought ? num(defend ? t.defender_ipc_lost : t.attacker_ipc_lost) : "—" }),
      el("td", { class: "num", text: fought ? num(defend ? t.attacker_ipc_lost : t.defender_ipc_lost) : "—" }),
      el("td", { class: "num", text: fought ? signed(defend ? -t.tuv_swing : t.tuv_swing) : "—" }),
      el("td", { class: "num", text: num(t.value) }));
  });
  box.append(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the best split" },
    el("table", { id: "out-plan-split" }, el("caption", { text: `per ${defend ? "territory" : "target"}: its battle's odds with the units ${defend ? "placed there" : "sent"}` }),
      el("thead", {}, el("tr", {}, ...head.map((h, i) => el("th", { scope: "col", class: i > 1 ? "num" : null, text: h })))),
      el("tbody", {}, ...rows))),
  el("p", { id: "out-plan-home", text: `${defend ? "Not placed" : "Not sent"}: ${data.home.units}.` }));
  const count = c => Object.values(c || {}).reduce((a, b) => a + b, 0);
  const pool = names.reduce((s, n) => s + count(data.split[n].counts), 0) + count(data.home.counts);
  const ranked = [{ label: "best", objective: data.objective, split: data.split },
    ...data.alternatives.map((a, i) => ({ label: `${i + 2}.`, objective: a.objective, split: a.split }))]
    .map(r => ({ ...r, sent: names.map(n => count(r.split[n].counts)) }))
    .map(r => ({ ...r, kept: pool - r.sent.reduce((a, b) => a + b, 0) }));
  if (data.alternatives.length) {
    box.append(el("h4", { text: "The runners-up" }), el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the runners-up" },
      el("table", { id: "out-plan-alternatives" }, el("caption", { text: "the next best splits, best first" }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "rank" }), el("th", { scope: "col", class: "num", text: "goal" }),
          ...names.map(n => el("th", { scope: "col", text: n })))),
        el("tbody", {}, ...ranked.map(r => el("tr", {}, el("td", { text: r.label }), el("td", { class: "num", text: fmt(r.objective) }),
          ...names.map(n => el("td", { text: units(r.split[n]) }))))))));
  }
  box.append(el("h4", { text: "Units sent, split by split" }), splitChart(ranked, names, fmt));
  const margins = Object.entries(data.marginal);
  if (margins.length) box.append(el("table", { id: "out-plan-marginal", class: "compact" },
    el("caption", { text: "value at the margin: the goal lost with one unit fewer of each type" }),
    el("tbody", {}, ...margins.map(([unit, v]) => el("tr", {}, el("th", { scope: "row", text: unit }),
      el("td", { class: "num", text: fmt(v) }))))));
  return { title, summary, details: box };
}

// ---------- the tabs ----------

const TABS = {
  battle: { endpoint: "battle", read: () => readBattle(), render: renderBattle, seeded: true, missing: battleMissing,
    after: wavesTakenByNow },
  amphibious: { endpoint: "amphibious", read: readSimple, render: renderAmphibious },
  raid: { endpoint: "raid", read: readSimple, render: renderRaid },
  trench: { endpoint: "trench", read: readSimple, render: renderTrench },
  advise: { endpoint: "advise", read: readSimple, render: renderAdvise, job: true, work: "commitments" },
  purchase: { endpoint: "purchase", read: readSimple, render: renderPurchase, job: true, work: "purchases" },
  plan: { endpoint: "plan", read: readPlan, write: writePlan, reset: () => writePlan("plan", PLAN_EXAMPLE),
    cli: planCommand, render: renderPlan, job: true, work: "targets solved" },
};

function buildTabs() {
  const nav = $("[role=tablist]");
  for (const panel of $$("[role=tabpanel]")) {
    const tab = panel.id.slice(6);
    panel.setAttribute("aria-labelledby", `tab-${tab}`);
    // the tab's heading (for screen readers: h1, then h2 per tab, then the answer's h3)
    panel.prepend(el("h2", { class: "visually-hidden", text: panel.dataset.title }));
    nav.append(el("button", { role: "tab", id: `tab-${tab}`, "aria-controls": panel.id,
      "aria-selected": tab === "battle" ? "true" : "false", tabindex: tab === "battle" ? null : "-1", text: panel.dataset.title }));
  }
}

function selectTab(tab, focus) {
  state.tab = tab;
  for (const button of $$("[role=tab]")) {
    const on = button.id === `tab-${tab}`;
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    if (on && focus) button.focus();
  }
  for (const panel of $$("[role=tabpanel]")) panel.hidden = panel.id !== `panel-${tab}`;
  // the Edition and Unit values ask nothing of a tab that takes no ruleset (the Longest Trench)
  $("header").classList.toggle("no-rules", Boolean($(`#panel-${tab} form[data-no-rules]`)));
  if (!TABS[tab].job) schedule(tab);
  else linkFields(tab);
}

function battleMissing(req) {
  // what the player still has to enter before there is a battle to answer, in the page's words
  if (req.attacker !== "") return null;
  const shown = new Set(unitsFor("attacker").map(u => u.name));
  const elsewhere = Object.entries(state.counts.attacker).some(([name, n]) => n > 0 && !shown.has(name));
  if (elsewhere) return isSea()
    ? "The attacker has no ships or aircraft for a sea battle: add some with the + buttons, or pick Land again."
    : "The attacker has no land units or aircraft for a land battle: add some with the + buttons, or pick Sea again.";
  return "Add the attacking units with the + buttons (and the defenders beside them) to see the odds.";
}

function redraw() {
  // every tab's last answer drawn again (the decimals changed)
  for (const [tab, [data, req, ms]] of Object.entries(state.drawn)) {
    const panel = $(`#panel-${tab}`);
    const out = $(".results", panel);
    if (!["done", "stale"].includes(out.dataset.state)) continue;
    const drawn = TABS[tab].render(data, req, ms);
    $(".summary", panel).replaceChildren(drawn.summary);
    out.replaceChildren(...rulesReadingsLine(data), drawn.details);
    if (TABS[tab].after) TABS[tab].after(data, req, new AbortController().signal);
  }
}

function clearBattle() {
  // every field back to its default, through the same path a link takes
  writeBattle({ rules: state.edition, attacker: "", defender: "none" }).then(() => schedule("battle"));
}

function rulesChanged() {
  // the edition or unit values changed: the open tab answers again, or a job's tab (which asks
  // nothing until told) links its fields with them while the battle answers again
  if (!TABS[state.tab].job) return schedule(state.tab);
  linkFields(state.tab);
  schedule("battle");
}

function wire() {
  const tabs = $$("[role=tab]");
  tabs.forEach((button, i) => {
    // (the open tab clicked again: nothing to do; a Monte Carlo answer is not drawn again anew)
    button.addEventListener("click", () => { if (button.id.slice(4) !== state.tab) selectTab(button.id.slice(4)); });
    button.addEventListener("keydown", e => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (step) selectTab(tabs[(i + step + tabs.length) % tabs.length].id.slice(4), true);
      if (e.key === "Home" || e.key === "End") selectTab(tabs[e.key === "Home" ? 0 : tabs.length - 1].id.slice(4), true);
    });
  });
  $("#edition").addEventListener("change", async e => {
    await loadRules(e.target.value);
    for (const side of SIDES) $(`#ool_${side}`).value = "";
    showOolPresets();
    rulesChanged();
  });
  for (const radio of $$("input[name=kind]")) radio.addEventListener("change", () => { buildCounters(); schedule("battle"); });
  for (const input of $$("#battle-form input, #battle-form select").filter(i => i.type !== "radio" && !i.closest("#group-saved")))
    input.addEventListener("input", () => schedule("battle"));  // counters and techs: their own
  for (const side of SIDES) {
    $(`#ool_${side}-preset`).addEventListener("change", () => pickPreset(side));
    $(`#ool_${side}`).addEventListener("input", () => syncPreset(side));
  }
  $("#retreat-best").addEventListener("change", () => { $(".when-value").hidden = $("#retreat-best").value !== "value"; });
  for (const form of $$("form.simple")) {
    const tab = form.closest("section").id.slice(6);
    const changed = () => (TABS[tab].job ? linkFields(tab) : schedule(tab));
    form.addEventListener("input", changed);
    const clear = el("button", { type: "button", class: "clear", text: "Clear" });
    clear.addEventListener("click", () => { form.reset(); formWritten(tab); if (TABS[tab].reset) TABS[tab].reset(); changed(); });
    const actions = $(".actions", form) || form.appendChild(el("div", { class: "actions" }));
    actions.append(clear, el("button", { type: "button", class: "copy-link", text: "Copy link",
      onclick: e => copy(location.href, e.target) }));
  }
  $("#swap").addEventListener("click", () => {
    [state.counts.attacker, state.counts.defender] = [state.counts.defender, state.counts.attacker];
    const a = $("#ool_attacker").value; $("#ool_attacker").value = $("#ool_defender").value; $("#ool_defender").value = a;
    const techs = SIDES.map(checkedTechs);
    SIDES.forEach((side, i) => { for (const box of $$(`#${side}-techs input`)) box.checked = techs[1 - i].includes(box.value); });
    buildCounters();
    schedule("battle");
  });
  for (const type of ["input", "change", "click"])  // the user's own battle now: no longer the link's
    $("#panel-battle").addEventListener(type, e => {
      if (type !== "click" || e.target.closest("button:not([id^=copy])")) state.linkError = null;
    }, true);
  $("#edition").addEventListener("change", () => { state.linkError = null; }, true);
  $("#unit-values").addEventListener("input", () => {  // (a job's tab: its CLI line; the battle answers again)
    planRefresh();
    rulesChanged();
  });
  $("#clear").addEventListener("click", clearBattle);
  $("#decimals").value = String(state.decimals);
  $("#decimals").addEventListener("change", () => {
    state.decimals = Number($("#decimals").value);
    try { localStorage.setItem("oddsim-decimals", String(state.decimals)); } catch (e) { /* private mode */ }
    redraw();
  });
  $("#copy-cli").addEventListener("click", () => copy($("#cli-command").textContent, $("#copy-cli")));
  $("#copy-link").addEventListener("click", () => copy(location.href, $("#copy-link")));
  $("#save").addEventListener("click", saveBattle);
  wireForms();  // (forms.js: the simple tabs' steppers, fronts and CLI lines)
  $("#add-wave").addEventListener("click", () => { addWave(); $("#waves .wave:last-child .counter input").focus(); });
  wirePlan();
  for (const tab of Object.keys(TABS).filter(t => TABS[t].job)) {
    $(`#panel-${tab} .start`).addEventListener("click", () => startJob(tab));
    $(`#panel-${tab} .cancel`).addEventListener("click", cancelJob);
  }
  window.addEventListener("hashchange", () => {  // a link pasted into this tab, or a saved one clicked
    const saved = readUrl();
    if (saved) loadLink(saved);
  });
}

async function copy(text, node) {
  const label = node.textContent;
  try { await navigator.clipboard.writeText(text); node.textContent = "Copied"; }
  catch (e) { node.textContent = "Select and copy the text below"; }
  setTimeout(() => { node.textContent = label; }, 1500);
}

async function start() {
  buildTabs();
  wire();
  showSaved();
  await Promise.all([loadEditions(), buildExtraOptions()]);
  const saved = readUrl();
  if (saved) {
    if (saved.tab !== "battle") {
      await loadRules(saved.req.rules || "1942-2e");
      state.counts = { attacker: { infantry: 3, artillery: 1, armor: 2 }, defender: { infantry: 4, armor: 1 } };
      buildCounters();
    }
    await loadLink(saved);
  } else {
    await loadRules("1942-2e");
    state.counts = { attacker: { infantry: 3, artillery: 1, armor: 2 }, defender: { infantry: 4, armor: 1 } };
    buildCounters();
    selectTab(state.tab);  // a tab picked while the page loaded stays picked
  }
  if (state.tab !== "battle") schedule("battle");
  document.body.dataset.ready = "true";  // the page has loaded what it needs (tests wait for it)
}

start();
