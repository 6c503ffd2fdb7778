// The Longest Trench's answers in the game's words (issue 35): how the battle was played, said
// as the rules say it, from the request and the readings the answer used, instead of the
// engine's summary line ("rolls both-first", "face-down support values 1:1,2:1,3:1").
// Loaded before app.js; uses its el().
"use strict";

function faceDownBelief(play) {
  // "face-down support values 1:1,2:1,3:1" (value:weight) as a sentence; null when not used
  const m = /face-down support values ([\d:,]+)/.exec(play || "");
  if (!m) return null;
  const pairs = m[1].split(",").map(p => p.split(":").map(Number));
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  const values = pairs.map(([v]) => String(v));
  const listed = values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}` : values[0];
  const even = pairs.every(([, w]) => w === pairs[0][1]);
  return even ? `A support card lying face down is guessed to be ${listed}, each as likely.`
    : `A support card lying face down is guessed to be ${pairs.map(([v, w]) => `${v} (${Math.round(100 * w / total)}%)`).join(", ")}.`;
}

function trenchPlaySentences(req, data) {
  // [sentence, whether it is a reading the rules leave open] for each rule the answer used
  const r = data.readings || {};
  const greedy = (req.policy || "optimal") === "greedy";
  const said = [
    [greedy ? "Each side places every artillery die, largest first, where it gains the most at once."
      : "Each side places its artillery dice as well as it can.", false],
    ["Both sides roll their artillery dice; the attacker places its dice first, then the defender places its own.", false],
    [(req.information || "hidden") === "full" ? "Support cards lie face up: each side sees them when it places its dice."
      : "Support cards lie face down until the dice are placed.", false],
    [r.dice_fronts === "own" ? "A die may go only on a front where its side has a card." : "A die may go on any front.", false],
    [Number(r.destroy_margin) === 5 ? "A card is destroyed when its front is lost by more than 4."
      : "A card is destroyed when its front is lost by 4 or more.", false],
    [r.tied_front === "defender" ? "A tied front goes to the defender." : "A tied front goes to nobody.", true],
  ];
  if (req.sea) said.push([r.support_fleet === "destroyed" ? "A fleet in a support slot is destroyed with its front's fleet."
    : "A fleet in a support slot survives the loss of its front.", true]);
  const belief = faceDownBelief(data.play);
  if (belief) said.push([belief, true]);
  return said;
}

function trenchPlay(req, data) {
  // the rules the answer used, as a short list; a reading where the rules are silent marked so
  return el("div", { class: "trench-play" }, el("h4", { text: "How this battle is played" }),
    el("ul", {}, ...trenchPlaySentences(req, data).map(([text, reading]) => el("li", {}, text,
      reading ? el("span", { class: "status", text: " (our reading: the rules leave this open)" }) : null))));
}
