// The typed forms of the other tabs (Amphibious, Raid, Trench, Trench advice, Purchase) made
// quick to enter (issue 35): an army field gets counters (kept in step with its text, which
// stays the request's and the link's), a number field − and + buttons, a card list per front,
// and every tab a "Copy as CLI command" line that prints the same answer. Loaded before app.js:
// these functions use its helpers ($, el, unitName, state, quote...) when they are called.
"use strict";

// an army field's units, by the form's field name: [domains, whether it attacks]
const ARMY_FIELDS = {
  amphibious: { fleet: [["sea"], true], cargo: [["land"], true], defender: [["land", "air"], false],
    sea_defender: [["sea", "air"], false], overland: [["land"], true], air: [["air"], true], sea_air: [["air"], true] },
  purchase: { existing: [["land", "air"], null], against: [["land", "air"], null] },
};

function armyUnits(tab, field, form) {
  const [domains, attacks] = ARMY_FIELDS[tab][field];
  const sea = tab === "purchase" && $("[name=sea]", form).value === "true";
  const wanted = sea ? ["sea", "air"] : domains;
  return state.rules.units.filter(u => wanted.includes(u.domain) && (attacks !== true || u.can_attack || u.transport));
}

function parseCounts(text, units) {
  // "2 inf, 1 bb" as counts of these units; null where a part is none of them
  const counts = {};
  const raw = String(text || "").trim();
  if (raw === "" || raw.toLowerCase() === "none") return counts;
  for (const part of raw.split(",")) {
    const m = part.trim().match(/^(\d+)\s+(.+)$/);
    const name = m ? resolveUnit(m[2]) : null;
    if (!name || !units.some(u => u.name === name)) return null;
    counts[name] = (counts[name] || 0) + parseInt(m[1], 10);
  }
  return counts;
}

function buildArmyPickers() {
  // counters under every army field of the simple tabs, for the edition's units
  if (!state.rules) return;
  for (const [tab, fields] of Object.entries(ARMY_FIELDS)) {
    const form = $(`#panel-${tab} form`);
    for (const field of Object.keys(fields)) {
      const input = $(`[name=${field}]`, form);
      const label = input.closest("label");
      let box = label.nextElementSibling;
      if (!box || !box.classList.contains("army-counters")) {
        box = el("div", { class: "counters army-counters", "data-for": field });
        label.after(box);
        input.addEventListener("input", e => { if (!e.fromCounters) syncCounters(tab, field); });
      }
      const whose = label.firstChild.textContent.trim().toLowerCase();
      box.replaceChildren(...armyUnits(tab, field, form).map(unit => counterRow(`${tab}-${field}-${unit.name}`, unit, 0, whose,
        () => counterToText(tab, field))));
      syncCounters(tab, field);
    }
  }
}

function syncCounters(tab, field) {
  // the counters as the text says (left as they are where the text names other units)
  const form = $(`#panel-${tab} form`);
  const units = armyUnits(tab, field, form);
  const counts = parseCounts($(`[name=${field}]`, form).value, units);
  if (counts === null) return;
  for (const unit of units) {
    const counter = $(`#${tab}-${field}-${unit.name}`);
    if (counter) counter.value = String(counts[unit.name] || 0);
  }
}

function counterToText(tab, field) {
  // the text as the counters say, then the form's own input event (it answers, or its CLI line)
  const form = $(`#panel-${tab} form`);
  const input = $(`[name=${field}]`, form);
  const parts = armyUnits(tab, field, form).map(u => [u.name, parseInt($(`#${tab}-${field}-${u.name}`).value, 10) || 0])
    .filter(([, n]) => n > 0).map(([name, n]) => `${n} ${unitName(name, n)}`);
  input.value = parts.join(", ") || (input.placeholder === "none" || field === "existing" ? "none" : "");
  const event = new Event("input", { bubbles: true });
  event.fromCounters = true;
  input.dispatchEvent(event);
}

function addSteppers(root = document) {
  // − and + beside every number field of the simple tabs (a count, a year, a budget)
  for (const input of $$("form.simple input[type=number]", root)) {
    if (input.closest(".stepper") || input.closest(".counter") || input.dataset.type === "seed") continue;  // (a seed: no step)
    const name = (input.closest("label")?.firstChild?.textContent || input.name).trim().toLowerCase();
    const step = d => () => {
      const min = input.min === "" ? -Infinity : Number(input.min), max = input.max === "" ? Infinity : Number(input.max);
      const now = input.value.trim() === "" ? (d > 0 ? Math.max(min, 0) - 1 : Math.max(min, 0) + 1) : Number(input.value);
      input.value = String(Math.min(max, Math.max(min, now + d)));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    const wrap = el("span", { class: "stepper" });
    input.replaceWith(wrap);
    wrap.append(el("button", { type: "button", "aria-label": `less: ${name}`, onclick: step(-1), text: "−" }), input,
      el("button", { type: "button", "aria-label": `more: ${name}`, onclick: step(1), text: "+" }));
  }
}

// ---------- the Longest Trench's cards: a stepper per front ----------

const CARD_LISTS = { trench: ["attacker", "attacker_support", "defender", "defender_support"],
  advise: ["defender", "defender_support"] };

function addFrontSteppers() {
  // three fronts' values under each card list ("5,4,3"; "-" no card; "?" face down), in step
  for (const [tab, fields] of Object.entries(CARD_LISTS)) {
    for (const field of fields) {
      const input = $(`#panel-${tab} [name=${field}]`);
      const label = input.closest("label");
      const support = field.endsWith("support");
      const box = el("div", { class: "fronts", "data-for": field });
      const what = label.firstChild.textContent.trim().replace(/, fronts 1-3$/, "");
      for (let f = 0; f < 3; f++) {
        const front = el("input", { type: "text", inputmode: "numeric", id: `${tab}-${field}-${f + 1}`, size: "2",
          "aria-label": `${what}, front ${f + 1}`, title: support ? "a number, ? face down, empty: none" : "a number, - or empty: no card" });
        front.addEventListener("input", () => frontsToText(input, box));
        const step = d => () => {
          const n = parseInt(front.value, 10);
          front.value = String(Math.max(0, (Number.isNaN(n) ? 0 : n) + d));
          frontsToText(input, box);
        };
        box.append(el("span", { class: "front" }, el("span", { class: "front-name", text: `front ${f + 1}` }),
          el("button", { type: "button", "aria-label": `less: ${what}, front ${f + 1}`, onclick: step(-1), text: "−" }), front,
          el("button", { type: "button", "aria-label": `more: ${what}, front ${f + 1}`, onclick: step(1), text: "+" })));
      }
      label.after(box);
      input.addEventListener("input", e => { if (!e.fromFronts) textToFronts(input, box); });
      textToFronts(input, box);
    }
  }
}

function textToFronts(input, box) {
  const parts = input.value.split(",").map(s => s.trim());
  $$("input", box).forEach((front, i) => { front.value = parts[i] === undefined || parts[i] === "-" ? "" : parts[i]; });
}

function frontsToText(input, box) {
  const support = input.name.endsWith("support");
  const values = $$("input", box).map(front => front.value.trim() || (support ? "0" : "-"));
  input.value = values.every(v => v === (support ? "0" : "-")) && input.value.trim() === "" ? "" : values.join(",");
  const event = new Event("input", { bubbles: true });
  event.fromFronts = true;
  input.dispatchEvent(event);
}

function unfoldGiven(form) {
  // a folded group of fields opens where a link or Clear gave one of them a value
  for (const group of $$("details.group", form))
    if ($$("input, select", group).some(i => i.value !== "" && i.value !== "none" && i.selectedIndex !== 0 && !i.closest(".counter")))
      group.open = true;
}

function refreshFronts(form) {
  // after a reset or a link wrote the text fields
  for (const box of $$(".fronts", form)) textToFronts($(`[name=${box.dataset.for}]`, form), box);
}

// ---------- the CLI line of each simple tab ----------

const SIMPLE_COMMANDS = {  // tab -> the command, and its options where not "--" + the field's name
  amphibious: { command: "oddsim amphibious", flags: {}, bools: { bombard: [null, "--no-bombard"] } },
  raid: { command: "oddsim raid", flags: { tactical_bombers: "--tac-bombers" }, bools: { aa_gun: ["--aa-gun", "--no-aa-gun"] } },
  trench: { command: "oddsim trench", flags: {}, bools: { sea: ["--sea", null] } },
  advise: { command: "oddsim trench advise", flags: {}, bools: { sea: ["--sea", null] } },
  purchase: { command: "oddsim purchase", flags: { max_counts: "--max" }, bools: { sea: ["--sea", null] } },
};
const UNIT_VALUES_OPTION = new Set(["purchase"]);  // the commands with --unit-values

function simpleCommand(tab, req) {
  // the command line that prints this tab's answer (the page's request, option by option)
  const spec = SIMPLE_COMMANDS[tab];
  const args = [spec.command];
  let note = "";
  for (const [key, value] of Object.entries(req)) {
    if (key === "rules") { if (value !== "1942-2e") args.push(`--rules ${value}`); continue; }
    if (key === "unit_values" && !UNIT_VALUES_OPTION.has(tab)) { note = ` # (unit values: not an option of ${spec.command})`; continue; }
    if (key in spec.bools) {
      const flag = spec.bools[key][value === true ? 0 : 1];
      if (flag) args.push(flag);
      continue;
    }
    args.push(...optionArgs(key, value, spec.flags));
  }
  return args.join(" ") + note;
}

function addCliLines() {
  // a "Copy as CLI command" button and its line in every simple tab but the plan (its own)
  for (const tab of Object.keys(SIMPLE_COMMANDS)) {
    const form = $(`#panel-${tab} form`);
    const line = el("pre", { class: "cli", id: `${tab}-cli`, "aria-label": "CLI command" });
    const actions = $(".actions", form);
    actions.append(el("button", { type: "button", class: "copy-cli", text: "Copy as CLI command",
      onclick: e => copy(line.textContent, e.target) }));
    actions.after(line);
    form.addEventListener("input", () => showCommand(tab));
    form.addEventListener("change", () => showCommand(tab));
  }
}

function showCommand(tab, req) {
  if (!SIMPLE_COMMANDS[tab]) return;
  const form = $(`#panel-${tab} form`);
  $(`#${tab}-cli`).textContent = simpleCommand(tab, req || readSimple(form));
}

function wireForms() {
  addSteppers();
  addFrontSteppers();
  addCliLines();
  const purchaseSea = $("#panel-purchase [name=sea]");
  if (purchaseSea) purchaseSea.addEventListener("change", buildArmyPickers);
}
