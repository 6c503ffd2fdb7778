// Best casualties on the Amphibious (its landing), Purchase and Plan tabs (issue 33): beside
// each side's order of loss a choice "best: choose each loss" (the Battle tab's preset,
// BEST_ORDER), which writes "best" into the order's field (the request's ool_attacker / ool_defender, and the CLI line's
// --ool-attacker best); the casualty goal (casualty_goal, --casualty-goal), its choices and help
// as the server declares the option (GET /api's battle_options, from oddsim.model.options), shown
// only while a side chooses; and, with the answer, a line saying which order of loss each side
// took. app.js calls buildBestCasualties(declared) once /api has answered, syncBestCasualties(form)
// after it writes a form (a link, Clear), and lossesLine(...) where it draws an answer.
"use strict";

// each tab with the choice: its casualty goal when none is picked, and whether it can play for
// "value" (the Amphibious form has no field for the territory's value, --casualty-value)
const BEST_TABS = {
  amphibious: { ownGoal: "taking the territory (the default)", value: false },
  purchase: { ownGoal: "the sweep's own goal", value: true },
  plan: { ownGoal: "the plan's own goal", value: true },
};
const isBestOrder = text => String(text || "").trim().toLowerCase() === "best";

function buildBestCasualties(declared) {
  for (const [tab, { ownGoal, value: playsForValue }] of Object.entries(BEST_TABS)) {
    const form = $(`#panel-${tab} form`);
    if (!form || $(".best-choice", form)) continue;
    for (const side of SIDES) {
      const input = $(`[name=ool_${side}]`, form);
      const choice = el("select", { id: `${tab}-ool_${side}-best`, class: "best-choice", "data-side": side },
        el("option", { value: "", text: "by its order of loss" }),
        el("option", { value: BEST_ORDER[0], text: BEST_ORDER[1] }));
      choice.addEventListener("change", () => {
        input.value = choice.value === BEST_ORDER[0] ? BEST_ORDER[2] : "";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      input.closest("label").before(el("label", { class: "best-pick" }, `${side === "attacker" ? "Attacker" : "Defender"}'s casualties `, choice));
    }
    const goal = declared && declared.casualty_goal;
    if (goal && !$("[name=casualty_goal]", form)) {
      const select = el("select", { name: "casualty_goal", title: goal.help },
        el("option", { value: "", text: ownGoal }),
        ...goal.choices.filter(value => value !== "value" || playsForValue)
          .map(value => el("option", { value, text: value })));
      $(`[name=ool_defender]`, form).closest("label").after(
        el("label", { class: "when-best" }, "A side choosing each loss plays for ", select));
    }
    // before the form's own listeners (its CLI line): the goal is cleared once no side chooses
    // (a choice's own input event: its change, next, writes the order)
    form.addEventListener("input", e => { if (!e.target.classList.contains("best-choice")) syncBestCasualties(form); }, true);
    syncBestCasualties(form);
  }
}

function syncBestCasualties(form) {
  // each side's choice as its order's field says; the casualty goal only while a side chooses
  // (the server refuses a casualty goal without one)
  if (!$(".best-choice", form)) return;
  let chooses = false;
  for (const side of SIDES) {
    const best = isBestOrder($(`[name=ool_${side}]`, form).value);
    $(`.best-choice[data-side=${side}]`, form).value = best ? BEST_ORDER[0] : "";
    chooses = chooses || best;
  }
  const goal = $("[name=casualty_goal]", form);
  if (!goal) return;
  goal.closest("label").hidden = !chooses;
  if (!chooses) goal.value = "";
}

function lossesLine(id, req, choosers) {
  // which order of loss each side took: who chose each loss and for what (the server's words,
  // choosers), the others' orders as the request gives them
  const fixed = SIDES.filter(side => !isBestOrder(req[`ool_${side}`])).map(side => {
    const order = String(req[`ool_${side}`] || "").trim();
    return `the ${side} loses by ${order ? `its order ${order}` : "the default order"}`;
  });
  const text = [choosers, ...fixed].filter(Boolean).join("; ");
  return el("p", { id, class: "losses", text: `Order of loss: ${text}.` });
}
