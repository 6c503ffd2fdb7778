// oddsim page: plain JavaScript, no build step, no network beyond this server.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const SIDES = ["attacker", "defender"];
const DEBOUNCE_MS = 250;
const OUTCOMES = [  // field, label, CSS colour variable
  ["attacker_win", "attacker wins", "--attacker"],
  ["defender_win", "defender wins", "--defender"],
  ["draw", "draw (both die)", "--draw"],
  ["stalemate", "stalemate", "--stalemate"],
  ["retreat", "retreat", "--retreat"],
];
const SHOWN = new Set(["battle", "method", "runs", "std_error", "attacker_survivors", "defender_survivors",
  ...OUTCOMES.map(o => o[0]), "takes_territory", "attacker_ipc_lost", "defender_ipc_lost", "tuv_swing",
  "interval_95", "attacker_ipc_lost_distribution", "defender_ipc_lost_distribution",
  "attacker_units_left", "defender_units_left"]);
const KNOWN_BATTLE_FIELDS = new Set(["rules", "attacker", "defender", "sea", "ool_attacker", "ool_defender",
  "keep_land", "attacker_tech", "defender_tech", "dice", "retreat", "attacker_submerge", "defender_submerge",
  "landed", "bombard", "aa_fired"]);  // aa_fired: set by the engines when they split a battle by AA
const KNOWN_RETREAT_FIELDS = new Set(["after_round", "units_left", "below_win", "aircraft_risk"]);

const clientId = sessionStorage.getItem("oddsim-client") ||
  (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
sessionStorage.setItem("oddsim-client", clientId);

const state = { rules: null, edition: null, counts: { attacker: {}, defender: {} },
  controllers: {}, timers: {}, tab: "battle", job: null, linkError: null };

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

const pct = p => (p === null || p === undefined) ? "—" : `${(100 * p).toFixed(2)}%`;
const num = x => (x === null || x === undefined) ? "—" : typeof x !== "number" ? String(x) :
  (Math.abs(x) >= 1000 ? x.toLocaleString() : (Number.isInteger(x) ? String(x) : x.toFixed(2)));
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

function figure(id, label, value, text, se) {
  return el("div", { class: "figure", id: `out-${id}`, "data-value": value === null ? "" : String(value) },
    el("div", { class: "label", text: label }), el("div", { class: "value", text }),
    se ? el("div", { class: "se", text: `± ${se}` }) : null);
}

function errorBox(message) {
  return el("div", { class: "error", role: "alert", text: message });
}

// ---------- the edition and its units ----------

async function loadEditions() {
  const { data } = await api("/api/rules");
  const select = $("#edition");
  for (const e of data.editions) select.append(el("option", { value: e.name, text: `${e.name}: ${e.title}` }));
}

async function loadRules(name) {
  if (state.edition === name && state.rules) return;
  const { ok, data } = await api(`/api/rules/${encodeURIComponent(name)}`);
  if (!ok) throw new Error(data.error);
  state.rules = data;
  state.edition = name;
  $("#edition").value = name;
  buildCounters();
  buildTechs();
}

function isSea() { return $("input[name=kind]:checked").value === "sea"; }

function unitsFor(side) {
  const sea = isSea();
  return state.rules.units.filter(u => (u.domain === "air" || u.domain === (sea ? "sea" : "land"))
    && (side === "defender" || u.can_attack));
}

function showDefaultOrders() {
  // the default order of loss of the units this kind of battle has, and why it is that order
  for (const side of SIDES) {
    const here = new Set(unitsFor(side).map(u => u.name));
    const input = $(`#ool_${side}`);
    input.placeholder = state.rules.order_of_loss[side].filter(name => here.has(name)).join(",");
    input.title = `Left empty: ${state.rules.order_of_loss.principle}.`;
  }
}

function buildCounters() {
  showDefaultOrders();
  for (const side of SIDES) {
    const box = $(`#${side}-counters`);
    box.replaceChildren();
    for (const unit of unitsFor(side)) {
      const id = `${side}-${unit.name}`;
      const input = el("input", { type: "number", id, min: "0", max: "1000", inputmode: "numeric",
        value: String(state.counts[side][unit.name] || 0), "aria-label": `${side} ${unit.name}` });
      input.addEventListener("input", () => {
        const n = Math.max(0, parseInt(input.value, 10) || 0);
        state.counts[side][unit.name] = n;
        schedule("battle");
      });
      const step = d => () => { input.value = String(Math.max(0, (parseInt(input.value, 10) || 0) + d));
        input.dispatchEvent(new Event("input")); };
      box.append(el("div", { class: "counter" },
        el("label", { class: "name", for: id, title: `cost ${unit.cost}, attack ${unit.attack}, defence ${unit.defense}`,
          text: unit.name.replace(/_/g, " ") }),
        el("button", { type: "button", "aria-label": `one less ${unit.name}`, onclick: step(-1), text: "−" }),
        input,
        el("button", { type: "button", "aria-label": `one more ${unit.name}`, onclick: step(1), text: "+" })));
    }
  }
  for (const node of $$(".sea-only")) node.hidden = !isSea();
  for (const node of $$(".land-only")) node.hidden = isSea();
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
      box.append(el("label", {}, input, tech));
    }
  }
}

const checkedTechs = side => $$(`#${side}-techs input:checked`).map(i => i.value);

function forceText(counts) {
  const parts = Object.entries(counts).filter(([, n]) => n > 0).map(([name, n]) => `${n} ${name}`);
  return parts.join(", ");
}

// ---------- the battle request: form <-> JSON <-> URL <-> CLI ----------

function readBattle() {
  const req = { rules: state.edition };
  const sea = isSea();
  const valid = side => new Set(unitsFor(side).map(u => u.name));
  for (const side of SIDES) {
    const ok = valid(side);
    const counts = Object.fromEntries(Object.entries(state.counts[side]).filter(([u, n]) => ok.has(u) && n > 0));
    req[side] = forceText(counts) || (side === "defender" ? "none" : "");
  }
  if (sea) req.sea = true;
  for (const side of SIDES) {
    const ool = $(`#ool_${side}`).value.trim();
    if (ool) req[`ool_${side}`] = ool;
    const techs = checkedTechs(side);
    if (techs.length) req[`${side}_tech`] = techs.join(",");
  }
  const keep = parseInt($("#keep_land").value, 10);
  if (!sea && keep > 0) req.keep_land = keep;
  if ($("#dice").value !== "standard") req.dice = $("#dice").value;
  const retreat = {};
  for (const [key, scale] of [["after_round", 0], ["units_left", 0], ["below_win", 100], ["aircraft_risk", 100]]) {
    const raw = $(`#retreat-${key}`).value.trim();
    if (raw !== "") retreat[key] = scale ? Number(raw) / scale : Number(raw);
  }
  if (Object.keys(retreat).length) req.retreat = retreat;
  if (sea) {
    for (const side of SIDES) {
      const v = $(`#${side}_submerge`).value;
      if (v !== "never") req[`${side}_submerge`] = v;
    }
  } else {
    for (const key of ["landed", "bombard"]) {
      const v = $(`#${key}`).value.trim();
      if (v) req[key] = v;
    }
  }
  for (const input of $$("#extra-options [data-field]")) {
    const v = fieldValue(input);
    if (v === null) continue;
    if (input.dataset.retreat) { req.retreat = req.retreat || {}; req.retreat[input.dataset.field] = v; }
    else req[input.dataset.field] = v;
  }
  if ($("#method").value !== "auto") req.method = $("#method").value;
  const runs = $("#runs").value.trim();
  if (runs !== "") req.runs = Number(runs);
  const seed = $("#seed").value.trim();
  if (seed !== "") req.seed = SEED_DIGITS.test(seed) ? seed.replace(/^0+(?=\d)/, "") : Number(seed);
  return req;
}

function fieldValue(input) {
  if (input.type === "checkbox") return input.checked ? true : null;
  const raw = input.value.trim();
  if (raw === "") return null;
  return input.type === "number" ? Number(raw) : raw;
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
        type: bool ? "checkbox" : numeric ? "number" : "text", step: numeric ? "any" : null, autocomplete: "off",
        placeholder: bool ? null : "—", title: type });
      input.addEventListener("input", () => schedule("battle"));
      const label = (retreat ? "retreat: " : "") + name.replace(/_/g, " ");
      box.append(bool ? el("label", { class: "check" }, input, ` ${label}`) : el("label", {}, label, input));
    }
  };
  add(data.battle_fields, KNOWN_BATTLE_FIELDS, false);
  add(data.retreat_fields, KNOWN_RETREAT_FIELDS, true);
}

function parseArmy(army, side) {
  // A link's army as counters: { counts, bad } where bad is the first token that is no counter on
  // this page ("1 damaged bb", a misspelt unit, a sea unit in a land battle), or null.
  const counts = {};
  if (army === undefined || army === null || army === "" || army === "none") return { counts, bad: null };
  const parts = typeof army === "object" && !Array.isArray(army)
    ? Object.entries(army).map(([name, n]) => `${n} ${name}`) : String(army).split(",");
  const shown = new Set(unitsFor(side).map(u => u.name));
  for (const part of parts) {
    const m = part.trim().match(/^(\d+)\s+(.+)$/);
    const name = m ? resolveUnit(m[2]) : null;
    if (!name || !shown.has(name)) return { counts, bad: part.trim() };
    counts[name] = (counts[name] || 0) + parseInt(m[1], 10);
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
  await loadRules(req.rules || "1942-2e");
  $(`input[name=kind][value=${req.sea ? "sea" : "land"}]`).checked = true;
  state.linkError = null;
  for (const side of SIDES) {
    const { counts, bad } = parseArmy(req[side], side);
    state.counts[side] = counts;
    if (bad !== null && state.linkError === null)
      state.linkError = `the link's ${side} '${req[side]}' has '${bad}', which this page cannot show as `
        + "counters, so it does not answer that battle: change the counters, or ask oddsim battle or "
        + "POST /api/battle";
  }
  buildCounters();
  for (const side of SIDES) {
    $(`#ool_${side}`).value = req[`ool_${side}`] || "";
    const techs = new Set(String(req[`${side}_tech`] || "").split(",").filter(Boolean));
    for (const box of $$(`#${side}-techs input`)) box.checked = techs.has(box.value);
    $(`#${side}_submerge`).value = req[`${side}_submerge`] || "never";
  }
  $("#keep_land").value = String(req.keep_land || 0);
  $("#dice").value = req.dice || "standard";
  const retreat = req.retreat || {};
  for (const [key, scale] of [["after_round", 0], ["units_left", 0], ["below_win", 100], ["aircraft_risk", 100]]) {
    const v = retreat[key];
    $(`#retreat-${key}`).value = v === undefined || v === null ? "" : String(scale ? v * scale : v);
  }
  for (const input of $$("#extra-options [data-field]")) {
    const v = input.dataset.retreat ? retreat[input.dataset.field] : req[input.dataset.field];
    if (input.type === "checkbox") input.checked = v === true;
    else input.value = v === undefined || v === null ? "" : String(v);
  }
  $("#landed").value = req.landed || "";
  $("#bombard").value = req.bombard || "";
  $("#method").value = req.method || "auto";
  $("#runs").value = req.runs === undefined ? "" : String(req.runs);
  $("#seed").value = req.seed === undefined ? "" : String(req.seed);
}

const quote = s => `"${String(s).replace(/(["\\$`])/g, "\\$1")}"`;

function cliCommand(req) {
  const flag = name => "--" + name.replace(/_/g, "-");
  const args = ["oddsim battle"];
  if (req.rules !== "1942-2e") args.push(`--rules ${req.rules}`);
  args.push(`-a ${quote(req.attacker)}`, `-d ${quote(req.defender)}`);
  if (req.sea) args.push("--sea");
  for (const [key, value] of Object.entries(req)) {
    if (["rules", "attacker", "defender", "sea", "retreat"].includes(key)) continue;
    if (value === true) args.push(flag(key));
    else args.push(`${flag(key)} ${typeof value === "string" && key !== "seed" ? quote(value) : value}`);
  }
  const retreatFlags = { units_left: "--retreat-units", territory_value: "--territory-value" };
  for (const [key, value] of Object.entries(req.retreat || {})) {
    const name = retreatFlags[key] || `--retreat-${key.replace(/_/g, "-")}`;
    args.push(value === true ? name : `${name} ${typeof value === "string" ? quote(value) : value}`);
  }
  return args.join(" ");
}

function saveToUrl(tab, req) {
  const hash = `#${tab}=${encodeURIComponent(toJson(req))}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function readUrl() {
  const m = location.hash.match(/^#(\w+)=(.*)$/);
  if (!m) return null;
  try { return { tab: m[1], req: fromJson(decodeURIComponent(m[2])) }; } catch (e) { return null; }
}

// ---------- computing: debounced, the previous request aborted ----------

function schedule(tab) {
  clearTimeout(state.timers[tab]);
  state.timers[tab] = setTimeout(() => compute(tab), DEBOUNCE_MS);
}

async function compute(tab) {
  if (state.controllers[tab]) state.controllers[tab].abort();
  const controller = new AbortController();
  state.controllers[tab] = controller;
  const panel = $(`#panel-${tab}`);
  const out = $(".results", panel);
  let req, path;
  if (tab === "battle" && state.linkError) {  // not another battle than the link's
    out.replaceChildren(errorBox(state.linkError));
    out.dataset.state = "error";
    return;
  }
  if (tab === "battle") {
    req = readBattle();
    path = "/api/battle";
    $("#cli-command").textContent = cliCommand(req);
  } else {
    const form = $("form", panel);
    req = readSimple(form);
    path = `/api/${form.dataset.endpoint}`;
  }
  saveToUrl(tab, req);
  const started = performance.now();
  setStatus(out, "computing…");
  try {
    const { ok, data } = await api(path, req, controller.signal);
    if (controller.signal.aborted) return;
    const ms = performance.now() - started;
    if (!ok) { out.replaceChildren(errorBox(data.error)); out.dataset.state = "error"; return; }
    out.replaceChildren(tab === "battle" ? renderBattle(data, req, ms) : renderGeneric(data, ms, tab));
    out.dataset.state = "done";
  } catch (e) {
    if (e.name !== "AbortError") { out.replaceChildren(errorBox(`no answer from the server: ${e.message}`)); out.dataset.state = "error"; }
  }
}

function setStatus(out, text) {
  out.dataset.state = "busy";
  let status = $(".status", out);
  if (!status) { status = el("div", { class: "status" }); out.prepend(status); }
  status.textContent = text;
}

function methodLine(data, ms) {
  const how = data.method === "mc" ? `Monte Carlo, ${num(data.runs)} runs${data.interrupted ? " (stopped early: partial)" : ""}`
    : (data.method || "");
  return el("div", { class: "status", text: `${how}${how ? " · " : ""}${ms.toFixed(0)} ms` });
}

// ---------- battle results ----------

function seOf(data, key, asPct) {
  const se = (data.std_error || {})[key];
  if (!se || typeof se !== "number") return null;
  return errorText(se, asPct) + (asPct ? "%" : "");
}

function renderBattle(data, req, ms) {
  const box = el("div", {});
  box.append(methodLine(data, ms), el("h3", { text: data.battle }));
  const stack = el("div", { class: "stack", role: "img",
    "aria-label": OUTCOMES.map(([k, label]) => `${label} ${pct(data[k] || 0)}`).join(", ") });
  const legend = el("div", { class: "legend" });
  for (const [key, label, colour] of OUTCOMES) {
    const p = data[key] || 0;
    if (p <= 0 && key !== "attacker_win" && key !== "defender_win") continue;
    stack.append(el("span", { style: `width:${100 * p}%;background:var(${colour})`, title: `${label} ${pct(p)}` }));
    const se = seOf(data, key, true);
    legend.append(el("span", { id: `out-${key}`, "data-value": String(p) },
      el("span", { class: "key", style: `background:var(${colour})` }), `${label} ${pct(p)}${se ? ` ± ${se}` : ""}`));
  }
  box.append(stack, legend);
  const figures = el("div", { class: "figures" });
  if (data.takes_territory !== null && data.takes_territory !== undefined)
    figures.append(figure("takes_territory", "takes territory", data.takes_territory, pct(data.takes_territory),
      seOf(data, "takes_territory", true)));
  figures.append(
    figure("attacker_ipc_lost", "attacker IPC lost", data.attacker_ipc_lost, num(data.attacker_ipc_lost), seOf(data, "attacker_ipc_lost")),
    figure("defender_ipc_lost", "defender IPC lost", data.defender_ipc_lost, num(data.defender_ipc_lost), seOf(data, "defender_ipc_lost")),
    figure("tuv_swing", "TUV swing (attacker)", data.tuv_swing, signed(data.tuv_swing), seOf(data, "tuv_swing")));
  for (const side of SIDES) {  // expected units left: the result's per-type figures, or from the rows
    const given = data[`${side}_units_left`];
    const rows = data[`${side}_survivors`] || [];
    const left = given && typeof given === "object" ? Object.values(given).reduce((a, b) => a + b, 0)
      : typeof given === "number" ? given : rows.reduce((s, r) => s + (r.units_left ?? r.count ?? 0) * r.probability, 0);
    figures.append(figure(`${side}_units_left`, `${side} units left`, left, num(left), null));
  }
  for (const [key, value] of Object.entries(data)) {  // figures this page does not know yet
    if (SHOWN.has(key) || value === null || value === false || typeof value === "object") continue;
    if (key === "truncated_mass" && value === 0) continue;
    const text = typeof value === "number" ? (value > 0 && value < 1 && /win|chance|prob|retreat/.test(key) ? pct(value) : num(value))
      : String(value);
    figures.append(figure(key, key.replace(/_/g, " "), value, text, seOf(data, key)));
  }
  box.append(figures);
  for (const side of SIDES) {
    const rows = data[`${side}_survivors`] || [];
    box.append(el("h3", { text: `${side} survivors` }), survivorTable(rows, side));
  }
  for (const side of SIDES) {
    box.append(el("h3", { text: `${side} IPC lost: distribution` }), lossTable(data, req, side));
  }
  for (const side of SIDES) {
    const given = data[`${side}_units_left`];
    if (!given || typeof given !== "object") continue;
    const se = (data.std_error || {})[`${side}_units_left`] || {};
    const table = el("table", { id: `out-${side}-units-left` });
    for (const [unit, n] of Object.entries(given))
      table.append(el("tr", {}, el("td", { text: unit.replace(/_/g, " ") }),
        el("td", { class: "num", text: num(n) + (se[unit] ? ` ± ${errorText(se[unit])}` : "") })));
    box.append(el("h3", { text: `${side} units left, expected by type` }), table);
  }
  for (const [key, value] of Object.entries(data)) {  // lists and tables this page does not know yet
    if (SHOWN.has(key) || value === null || typeof value !== "object" || key === "std_error") continue;
    box.append(el("h3", { text: key.replace(/_/g, " ") }), genericValue(value));
  }
  return box;
}

function unitsLabel(units) {
  if (typeof units === "string") return units;
  if (Array.isArray(units)) return units.map(u => typeof u === "object" ? Object.values(u).join(" ") : String(u)).join(", ");
  if (units && typeof units === "object") return Object.entries(units).map(([k, v]) => `${v} ${k}`).join(", ") || "none";
  return String(units);
}

function barRow(label, p, kind, extra) {
  return el("tr", {},
    el("td", { text: label }),
    el("td", { class: "num", text: pct(p) }),
    el("td", { style: "width:40%" }, el("div", { class: `bar ${kind}`, style: `width:${Math.max(0.5, 100 * p)}%` })),
    extra === undefined ? null : el("td", { class: "num", text: extra }));
}

function survivorTable(rows, side) {
  const table = el("table", { id: `out-${side}-survivors` });
  const top = rows.slice().sort((a, b) => b.probability - a.probability).slice(0, 12);
  for (const r of top) table.append(barRow(unitsLabel(r.label ?? r.units ?? r.counts), r.probability, side,
    `${num(r.ipc)} IPC`));
  const rest = rows.slice(12).reduce((s, r) => s + r.probability, 0);
  if (rows.length > 12) table.append(barRow(`${rows.length - 12} other outcomes`, rest, "other"));
  return table;
}

function startIpc(req, side) {
  const { counts } = parseArmy(req[side], side);
  return Object.entries(counts).reduce((s, [name, n]) =>
    s + n * (state.rules.units.find(u => u.name === name) || { cost: 0 }).cost, 0);
}

function lossTable(data, req, side) {
  const byLoss = new Map();
  const given = data[`${side}_ipc_lost_distribution`];
  if (Array.isArray(given)) {  // the result carries it
    for (const r of given) byLoss.set(r.ipc, (byLoss.get(r.ipc) || 0) + r.probability);
  } else {  // from the survivors and the army's IPC value
    const start = startIpc(req, side);
    for (const r of data[`${side}_survivors`] || []) {
      const lost = Math.max(0, Math.round(start - r.ipc));
      byLoss.set(lost, (byLoss.get(lost) || 0) + r.probability);
    }
  }
  const table = el("table", { id: `out-${side}-ipc-loss` });
  for (const [lost, p] of Array.from(byLoss.entries()).sort((a, b) => a[0] - b[0]))
    table.append(barRow(`${lost} IPC`, p, side));
  return table;
}

// ---------- other tabs: forms read generically, results drawn generically ----------

function readSimple(form) {
  const req = form.hasAttribute("data-no-rules") ? {} : { rules: state.edition };
  for (const input of $$("[name]", form)) {
    const raw = input.value.trim();
    if (raw === "") continue;
    const type = input.dataset.type;
    req[input.name] = type === "int" ? Number(raw) : type === "bool" ? raw === "true" : raw;
  }
  return req;
}

function nestedValue(value) {
  // A battle's result inside another result (an amphibious stage): its headline, details on demand.
  const head = "attacker_win" in value
    ? `attacker wins ${pct(value.attacker_win)}` + (value.takes_territory != null ? `, takes ${pct(value.takes_territory)}` : "")
    : `${Object.keys(value).length} figures`;
  return el("details", {}, el("summary", { text: head }),
    el("pre", { class: "report", text: JSON.stringify(value, null, 1) }));
}

function genericValue(value, depth = 0) {
  if (value === null || typeof value !== "object") return document.createTextNode(typeof value === "number" ? num(value) : String(value));
  if (depth >= 1 && !Array.isArray(value) && Object.values(value).some(v => v !== null && typeof v === "object"))
    return nestedValue(value);
  if (Array.isArray(value)) {
    if (value.length && typeof value[0] === "object" && value[0] !== null && !Array.isArray(value[0])) {
      const keys = Object.keys(value[0]);
      const table = el("table", {}, el("tr", {}, ...keys.map(k => el("th", { text: k.replace(/_/g, " ") }))));
      for (const row of value.slice(0, 30))
        table.append(el("tr", {}, ...keys.map(k => el("td", { class: typeof row[k] === "number" ? "num" : "" },
          typeof row[k] === "object" && row[k] !== null ? genericValue(row[k], depth + 1) :
          (typeof row[k] !== "number" ? String(row[k]) : k === "probability" ? pct(row[k]) : num(row[k]))))));
      return table;
    }
    return document.createTextNode(value.map(v => typeof v === "number" ? num(v) : JSON.stringify(v)).join(", "));
  }
  const entries = Object.entries(value);
  if (entries.length && entries.every(([, v]) => typeof v === "number") && entries.every(([, v]) => v >= 0 && v <= 1)) {
    const table = el("table", {});
    for (const [k, v] of entries) table.append(barRow(k, v, "attacker"));
    return table;
  }
  const table = el("table", {});
  for (const [k, v] of entries) table.append(el("tr", {}, el("th", { text: k.replace(/_/g, " ") }), el("td", {}, genericValue(v, depth + 1))));
  return table;
}

function renderGeneric(data, ms, tab) {
  const box = el("div", {});
  box.append(methodLine(data, ms));
  const title = data.battle || data.raid || data.describe;
  if (title) box.append(el("h3", { text: title }));
  const figures = el("div", { class: "figures" });
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== "number" && value !== true) continue;  // "interrupted: false" says nothing
    if (key === "runs") continue;
    const isP = value >= 0 && value <= 1 && /win|draw|takes|destroyed|chance|crushing/.test(key);
    figures.append(figure(`${tab}-${key}`, key.replace(/_/g, " "), value, isP ? pct(value) : num(value), seOf(data, key, isP)));
  }
  box.append(figures);
  for (const [key, value] of Object.entries(data)) {
    if (value === null || typeof value !== "object" || key === "std_error" || key === "rows") continue;
    box.append(el("h3", { text: key.replace(/_/g, " ") }), genericValue(value));
  }
  if (data.report) box.append(el("pre", { class: "report", text: data.report }));
  return box;
}

// ---------- purchase: a job with progress and cancel ----------

async function startPurchase() {
  const panel = $("#panel-purchase");
  const form = $("form", panel);
  const out = $(".results", panel);
  const req = readSimple(form);
  saveToUrl("purchase", req);
  const { ok, data } = await api("/api/purchase", req);
  if (!ok) { out.replaceChildren(errorBox(data.error)); out.dataset.state = "error"; return; }
  state.job = data.id;
  $(".cancel", form).disabled = false;
  const bar = el("progress", { max: "1", value: "0", "aria-label": "sweep progress" });
  const status = el("div", { class: "status", text: "starting…" });
  out.replaceChildren(status, bar);
  out.dataset.state = "busy";
  const started = performance.now();
  while (state.job === data.id) {
    await new Promise(r => setTimeout(r, 300));
    const poll = await api(`/api/jobs/${data.id}`);
    const job = poll.data;
    if (!poll.ok) { out.replaceChildren(errorBox(job.error)); break; }
    bar.max = String(job.total || 1);
    bar.value = String(job.done);
    status.textContent = `${job.state}: ${num(job.done)} of ${num(job.total)} purchases`;
    if (job.state === "done") { out.replaceChildren(renderPurchase(job.result, performance.now() - started)); out.dataset.state = "done"; break; }
    if (job.state === "failed" || job.state === "cancelled") {
      out.replaceChildren(errorBox(job.error || "cancelled")); out.dataset.state = "error"; break;
    }
  }
  if (state.job === data.id) state.job = null;
  $(".cancel", form).disabled = true;
}

function renderPurchase(data, ms) {
  // The ranking (best first, * on the cost-vs-goal Pareto frontier) and the CLI's report.
  const box = el("div", {}, el("div", { class: "status", text: `${num(data.purchases)} purchases · ${(ms / 1000).toFixed(1)} s` }),
    el("h3", { text: data.describe }));
  const isP = !["tuv", "value"].includes(data.goal);  // value: TUV swing plus the territory's worth
  const table = el("table", { id: "out-purchase-rows" }, el("tr", {},
    el("th", { class: "num", text: "rank" }), el("th", { text: "purchase" }), el("th", { class: "num", text: "cost" }),
    el("th", { class: "num", text: data.goal }), el("th", { text: "" })));
  const best = Math.max(...data.rows.map(r => r.value), 1e-12);
  for (const r of data.rows) {
    table.append(el("tr", {}, el("td", { class: "num", text: `${r.rank}${r.frontier ? " *" : ""}` }),
      el("td", { text: r.purchase }), el("td", { class: "num", text: String(r.cost) }),
      el("td", { class: "num", text: (isP ? pct(r.value) : signed(r.value))
        + (r.value_error_text ? ` ${r.value_error_text}` : "") }),  // Monte Carlo rows only, as the report
      el("td", { style: "width:30%" }, el("div", { class: "bar attacker",
        style: `width:${Math.max(0.5, 100 * Math.max(0, r.value) / best)}%` }))));
  }
  box.append(table, el("p", { class: "status", text: "* on the Pareto frontier (no cheaper purchase does as well)" }),
    el("details", {}, el("summary", { text: "the report, as oddsim purchase prints it" }),
      el("pre", { class: "report", text: data.report })));
  return box;
}

async function cancelPurchase() {
  if (state.job) await api(`/api/jobs/${state.job}`, undefined, undefined, "DELETE");
}

// ---------- tabs, keyboard, wiring ----------

function selectTab(tab, focus) {
  state.tab = tab;
  for (const button of $$("[role=tab]")) {
    const on = button.id === `tab-${tab}`;
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    if (on && focus) button.focus();
  }
  for (const panel of $$("[role=tabpanel]")) panel.hidden = panel.id !== `panel-${tab}`;
  if (tab !== "purchase") schedule(tab);
}

function wire() {
  const tabs = $$("[role=tab]");
  tabs.forEach((button, i) => {
    button.addEventListener("click", () => selectTab(button.id.slice(4)));
    button.addEventListener("keydown", e => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (step) selectTab(tabs[(i + step + tabs.length) % tabs.length].id.slice(4), true);
    });
  });
  $("#edition").addEventListener("change", async e => {
    await loadRules(e.target.value);
    for (const side of SIDES) $(`#ool_${side}`).value = "";
    schedule(state.tab === "purchase" ? "battle" : state.tab);
  });
  for (const radio of $$("input[name=kind]")) radio.addEventListener("change", () => { buildCounters(); schedule("battle"); });
  for (const input of $$("#battle-form input, #battle-form select").filter(i => i.type !== "radio"))
    input.addEventListener("input", () => schedule("battle"));  // counters and techs: their own
  for (const form of $$("form.simple:not([data-job])"))
    form.addEventListener("input", () => schedule(form.closest("section").id.slice(6)));
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
  $("#clear").addEventListener("click", () => { state.counts = { attacker: {}, defender: {} }; buildCounters(); schedule("battle"); });
  $("#copy-cli").addEventListener("click", () => copy(cliCommand(readBattle()), "#copy-cli"));
  $("#copy-link").addEventListener("click", () => copy(location.href, "#copy-link"));
  $("#panel-purchase .start").addEventListener("click", startPurchase);
  $("#panel-purchase .cancel").addEventListener("click", cancelPurchase);
}

async function copy(text, button) {
  const node = $(button);
  const label = node.textContent;
  try { await navigator.clipboard.writeText(text); node.textContent = "Copied"; }
  catch (e) { node.textContent = "Select and copy the text below"; }
  setTimeout(() => { node.textContent = label; }, 1500);
}

function writeSimple(tab, req) {
  const form = $(`#panel-${tab} form`);
  for (const [key, value] of Object.entries(req)) {
    const input = $(`[name=${key}]`, form);
    if (input) input.value = String(value);
  }
}

async function start() {
  wire();
  await Promise.all([loadEditions(), buildExtraOptions()]);
  const saved = readUrl();
  if (saved && saved.tab === "battle") {
    await writeBattle(saved.req);
  } else {
    await loadRules((saved && saved.req.rules) || "1942-2e");
    state.counts = { attacker: { infantry: 3, artillery: 1, armor: 2 }, defender: { infantry: 4, armor: 1 } };
    buildCounters();
    if (saved) writeSimple(saved.tab, saved.req);
  }
  selectTab(saved && $(`#tab-${saved.tab}`) ? saved.tab : "battle");
  if (state.tab !== "battle") schedule("battle");
}

start();
