// The Game tab (issue 32): a TripleA game's battles, from the file oddsim serve --game serves
// (GET /api/game) or one picked or dropped here (POST /api/game, its bytes as base64), each
// battle opening in the Battle tab with its armies filled in and the map's own rules (the
// edition "game:TOKEN", which app.js's loadRules and rulesOf send as {game: TOKEN}).
//
// It uses app.js's helpers ($, el, api, state, TABS, selectTab, loadRules, writeBattle, pct,
// signed); app.js's CLI line and links read gameRulesFile, gameCliNote and gameEdition.
"use strict";

const GAME_FILE_BYTES = 8 * 1024 * 1024;  // the server's cap on a game file (oddsim.triplea.document)
const game = { token: null, listing: null, request: null, files: {} };  // files: token -> the file's name

// A battle of a game names its rules by the game's token, which only this server knows: the CLI
// line names the game file instead (as the page was given it: a picked file by its name, the
// file `oddsim serve --game` serves by the path it was given), and a note says where it runs.
const GAME_FILE_PLACEHOLDER = "GAME_FILE.xml";

function gameRulesFile(token) {
  // the game file of a game's battle for --rules, quoted by the caller; a placeholder where the
  // page was never given it (a link opened in another page)
  return game.files[token] || GAME_FILE_PLACEHOLDER;
}

function gameCliNote(req) {
  // what a player must know of a game battle's CLI line and link ("" for an edition's battle)
  if (req.game === undefined) return "";
  const file = game.files[req.game];
  const where = file ? `--rules names the game file as this page was given it (${file}): run the line `
    + "where that file is, or put its path there."
    : `Put the path of the game file this battle came from in place of ${GAME_FILE_PLACEHOLDER} `
    + "(this page was not given its name).";
  return `${where} The link opens this battle only while this server keeps the game (until it stops).`;
}

function gameEdition(token, title) {
  // the edition select's entry for a game's rules (added once)
  const edition = `game:${token}`;
  const select = $("#edition");
  if (![...select.options].some(o => o.value === edition)) select.append(el("option", { value: edition, text: `Game: ${title}` }));
  return edition;
}

TABS.game = { job: true };  // (picking the tab computes nothing: a file does)

function gameStatus(text, isError) {
  const box = $("#game-summary");
  box.replaceChildren(isError ? el("div", { class: "error", text }) : el("p", { class: "status", text }));
}

async function listGame(body) {
  // the listing of a game: GET (the served one) when body is undefined, else POST
  if (game.request) game.request.abort();
  const request = new AbortController();
  game.request = request;
  gameStatus("Reading the game and answering its battles…");
  let answer;
  try {
    answer = await api("/api/game", body, request.signal);
  } catch (e) {
    if (e.name !== "AbortError") gameStatus(`the server did not answer: ${e.message}`, true);
    return;
  } finally {
    if (game.request === request) game.request = null;
  }
  const { ok, status, data } = answer;
  if (!ok) {
    if (body === undefined && status === 404) gameStatus("Pick or drop a game file to list its battles.");
    else gameStatus(data.error || `the server answered ${status}`, true);
    return;
  }
  showGame(data);
}

function base64Of(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function sendGameFile(file) {
  if (!file) return;
  if (file.size > GAME_FILE_BYTES) {
    gameStatus(`${file.name} is ${(file.size / 1e6).toFixed(1)} MB, over the ${(GAME_FILE_BYTES / 1e6).toFixed(1)} MB `
      + "a game file may have: give a map's own game file (the largest are about 2.7 MB)", true);
    return;
  }
  const attacker = $("#game-attacker").value;
  await listGame({ game_base64: base64Of(await file.arrayBuffer()), name: file.name,
    ...(attacker ? { attacker } : {}) });
}

function sideText(players, army) {
  const who = (players || []).map(p => p === null ? "no player" : p).join(" and ");
  return army ? `${who}: ${army}` : who;
}

function showGame(data) {
  game.token = data.game;
  game.listing = data;
  game.files[data.game] = data.name;
  const select = $("#game-attacker");
  const chosen = data.attacker || "";
  select.replaceChildren(el("option", { value: "", text: "not named: sea zones are listed without odds" }),
    ...data.players.map(p => el("option", { value: p, text: p })));
  select.value = chosen;
  const answered = data.battles.filter(b => b.refused === null).length;
  const left = data.battles.length - answered;
  $("#game-summary").replaceChildren(el("p", { class: "headline big",
    text: `${data.title || data.name}, round ${data.round}${data.rules === (data.title || data.name) ? "" : ` (${data.rules})`}: `
      + `${answered} battle${answered === 1 ? "" : "s"}`
      + ` answered${left ? `, ${left} not` : ""}` }));
  const rows = data.battles.map(b => {
    const kind = b.sea ? "sea" : `land, ${b.owner === null ? "no player" : b.owner}`;
    const place = el("td", {}, el("strong", { text: b.territory }), ` (${kind})`);
    if (b.refused !== null) {
      const who = b.attacker_players ? `${sideText(b.attacker_players, b.attacker_army)} attack ${sideText(b.defender_players, b.defender_army)}: ` : "";
      return el("tr", { class: "refused" }, place, el("td", { colspan: "6", text: who + b.refused }));
    }
    const se = key => (b.std_error && b.std_error[key]) ? ` ± ${pct(b.std_error[key])}` : "";
    const open = el("button", { type: "button", class: "open-battle", text: "Open",
      "aria-label": `Open the battle in ${b.territory} in the Battle tab` });
    open.addEventListener("click", () => openGameBattle(b));
    const notes = [...(b.attacker_tech.length ? [`attacker tech ${b.attacker_tech.join(", ")}`] : []),
      ...(b.defender_tech.length ? [`defender tech ${b.defender_tech.join(", ")}`] : []), ...b.notes];
    // (data-label: each cell's heading, which tables.js shows where the table is laid out as cards)
    return el("tr", { "data-territory": b.territory }, place,
      el("td", { "data-label": "Attacker" }, sideText(b.attacker_players, b.attacker_army),
        ...(notes.length ? [el("br"), el("small", { text: notes.join("; ") })] : [])),
      el("td", { "data-label": "Defender", text: sideText(b.defender_players, b.defender_army) }),
      el("td", { "data-label": "Attacker wins", class: "attacker-win", text: pct(b.attacker_win) + se("attacker_win") }),
      el("td", { "data-label": "Takes it",
        text: b.takes_territory === null ? "—" : pct(b.takes_territory) + se("takes_territory") }),
      el("td", { "data-label": "TUV swing",
        text: `${signed(b.tuv_swing)}${b.runs ? ` (Monte Carlo, ${b.runs.toLocaleString("en")} runs)` : ""}` }),
      el("td", {}, open));
  });
  const head = el("tr", {}, ...["Territory", "Attacker", "Defender", "Attacker wins", "Takes it", "TUV swing", ""]
    .map(text => el("th", { text })));
  $("#game-results").replaceChildren(data.battles.length
    ? el("table", { id: "game-battles" }, el("thead", {}, head), el("tbody", {}, ...rows))
    : el("p", { text: "No territory holds units of players at war." }));
}

async function openGameBattle(battle) {
  // the battle in the Battle tab: the map's rules as its edition, the board's armies and techs
  const edition = gameEdition(game.token, game.listing.title || game.listing.name);
  await loadRules(edition);
  const req = { rules: edition, attacker: battle.attacker_army, defender: battle.defender_army };
  if (battle.sea) req.sea = true;
  if (battle.attacker_tech.length) req.attacker_tech = battle.attacker_tech.join(",");
  if (battle.defender_tech.length) req.defender_tech = battle.defender_tech.join(",");
  await writeBattle(req);
  selectTab("battle");
}

function wireGame() {
  const drop = $("#game-drop");
  $("#game-file").addEventListener("change", e => sendGameFile(e.target.files[0]));
  drop.addEventListener("dragover", e => { e.preventDefault(); drop.classList.add("dragging"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
  drop.addEventListener("drop", e => {
    e.preventDefault();
    drop.classList.remove("dragging");
    sendGameFile(e.dataTransfer.files[0]);
  });
  $("#game-attacker").addEventListener("change", e => {
    if (game.token) listGame({ game: game.token, ...(e.target.value ? { attacker: e.target.value } : {}) });
  });
  listGame(undefined);
}

wireGame();
