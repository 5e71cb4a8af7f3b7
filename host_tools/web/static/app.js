// The DOG boards in a browser: draws the board from /api/layout, shows what /api/state says
// (the LEDs as the firmware wrote them with a mark for what each asks, the pieces as the sensors
// would see them, the guidance line) and turns clicks into hand actions (/api/act). Plain DOM
// and SVG: nothing to build, nothing fetched from outside this page's server. common.js holds
// what the Agent Avenue page shares.
"use strict";

const C = 380, R = 300, SPACE = 11;
const state = { layout: null, since: 0, held: [], selected: null, pieces: {}, replay: null,
                slideFrom: null, timer: null, view: null, live: null };

// the mark drawn on a lit location, by what its LED asks (host_tools/games/track/lights.py): the
// firmware gives one colour to several meanings, the mark tells them apart
const MARKS = { movable: "", target: "", knock: "✕", home: "⌂", meet: "◆", steps: "•",
                accepted: "✓", put: "+", take: "−", turn: "↻", exchange: "⇄", put_back: "!",
                fault: "⚠", seat: "" };
const LEGEND = [
  ["seat", "seat LED: the seat to move (menu: the seats in play)"],
  ["movable", "cyan: a piece that may move with the card"],
  ["target", "green: where the lifted piece may go"],
  ["knock", "red ✕: a target that knocks a piece out"],
  ["home", "blue ⌂: a target in home"],
  ["meet", "amber ◆: a target on a meeting point"],
  ["steps", "amber • in the start area: Partner 4 steps left"],
  ["accepted", "green ✓: the move is accepted"],
  ["put", "white +: put a piece here"],
  ["take", "red −: take the piece off here"],
  ["turn", "magenta ↻: turn the piece over"],
  ["exchange", "lavender ⇄: lift it, the piece for here is elsewhere"],
  ["put_back", "blinking red !: refused, put the piece back"],
  ["fault", "blinking orange ⚠: this sensor reads nonsense"],
];

// DOG Royal's ranks, printed on the pieces: drawn as symbols (20x20), the same on the board and
// in the legend, so a rank reads at a glance
const RANK_SYMBOLS = {
  king: "M3 16 L3 6.5 L7 10 L10 3.5 L13 10 L17 6.5 L17 16 Z",
  knight: "M5.5 18 L15.5 18 C15.5 13 17.5 9.5 15.5 6 C14 3.4 11.5 2.4 9 2.8 L7.8 1 L7 3.4 " +
          "C5 4.6 3.4 7.2 2.8 9.8 C2.6 11 3.6 11.6 4.6 11.2 L7.2 10 L9.2 8.6 C9.6 11 8 13 5.5 15 Z",
  citizen: "M10 2.6 A3.3 3.3 0 1 1 9.99 2.6 Z M4.3 17.4 C4.3 12.2 6.8 10.6 10 10.6 " +
           "C13.2 10.6 15.7 12.2 15.7 17.4 Z",
  jester: "M4.5 16.5 L15.5 16.5 L14.6 12.2 C15 8.6 16.4 6.6 18.6 6.2 C15.2 4.4 12.3 6.8 11.3 " +
          "9.6 L10 5.6 L8.7 9.6 C7.7 6.8 4.8 4.4 1.4 6.2 C3.6 6.6 5 8.6 5.4 12.2 Z " +
          "M1.4 4.4 A1.8 1.8 0 1 1 1.39 4.4 Z M18.6 4.4 A1.8 1.8 0 1 1 18.59 4.4 Z " +
          "M10 1.8 A1.8 1.8 0 1 1 9.99 1.8 Z",
};
const RANK_TEXT = {
  king: "king: counts of 1 to 7 only; only a king can take it",
  knight: "knight: passes a piece blocking its own start space",
  citizen: "citizen: jumps on from a special space to the next",
  jester: "jester: may enter its home leaving up to 2 steps unused",
};
const RANK_SIZE = 14;

function starPath(cx, cy, r) {
  // a five-pointed star: the mark of a special space (a shape, so it is never taken for a lit LED)
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + Math.PI * k / 5, rr = k % 2 ? r * 0.45 : r;
    pts.push((cx + rr * Math.cos(a)).toFixed(2) + " " + (cy + rr * Math.sin(a)).toFixed(2));
  }
  return "M" + pts.join(" L") + " Z";
}

function defineSymbols(svg) {
  const defs = el("defs", {}, svg);
  for (const rank of Object.keys(RANK_SYMBOLS)) {
    const sym = el("symbol", { id: "rank-" + rank, viewBox: "0 0 20 20" }, defs);
    el("path", { d: RANK_SYMBOLS[rank] }, sym);
  }
}

function trackAngle(i, n) { return Math.PI / 2 + 2 * Math.PI * i / n; }

function polar(r, a) { return [C + r * Math.cos(a), C + r * Math.sin(a)]; }

function positions(lay) {
  // where each location is drawn: the track on a circle, each home running inward from its
  // colour's start space, the start area just outside behind it, the seat beside it
  const pos = {};
  const n = lay.track;
  for (let i = 0; i < n; i++) pos[String(i)] = polar(R, trackAngle(i, n));
  for (const colour of lay.colours) {
    const a = trackAngle(lay.start[colour], n);
    for (let k = 1; k <= lay.home_spaces; k++) pos[colour + ":h" + k] = polar(R - 30 * k, a);
    for (let k = 1; k <= 4; k++)
      pos[colour + ":s" + k] = polar(R + 34 + 24 * ((k - 1) >> 1), a - 0.075 - 0.075 * ((k - 1) & 1));
    pos["seat:" + colour] = polar(R + 46, a + 0.11);
  }
  return pos;
}

function drawBoard(lay) {
  const svg = document.getElementById("board");
  const pos = positions(lay);
  const holes = new Set(lay.holes.map(String));
  const meetings = new Set(lay.meeting_points.map(String));
  const specials = new Set((lay.special_spaces || []).map(String));
  const starts = {};
  for (const c of lay.colours) starts[String(lay.start[c])] = c;
  defineSymbols(svg);
  el("circle", { cx: C, cy: C, r: R, fill: "none", stroke: "#1b3a23", "stroke-width": 18 }, svg);
  const reader = el("g", { id: "reader" }, svg);
  el("rect", { x: C - 55, y: C - 35, width: 110, height: 70, rx: 8, fill: "#222", stroke: "#888" }, reader);
  el("text", { x: C, y: C - 12, class: "label" }, reader).textContent = "NFC reader";
  el("text", { x: C, y: C + 12, class: "label", id: "reader-card" }, reader);
  // track numbers inside the ring, clear of every space; a start space's beside it, outside
  // (its home column runs inward)
  for (let i = 0; i < lay.track; i++) {
    const a = trackAngle(i, lay.track);
    const [x, y] = starts[String(i)] ? polar(R + 25, a + 0.05) : polar(R - 25, a);
    el("text", { x: x, y: y + 3, class: "track-number", "data-number": i }, svg).textContent = i;
  }
  for (const name of lay.locations.concat(lay.colours.map(c => "seat:" + c))) {
    const [x, y] = pos[name];
    const g = el("g", { class: "loc", id: "loc-" + name.replace(":", "_"), "data-loc": name }, svg);
    if (holes.has(name)) g.classList.add("hole");
    if (meetings.has(name)) g.classList.add("meeting");
    if (specials.has(name)) g.classList.add("special");  // DOG Royal: ending here draws a card
    if (starts[name]) g.classList.add("start");
    if (name.includes(":h")) g.classList.add("home");
    if (name.includes(":s")) g.classList.add("spot");
    if (name.startsWith("seat:")) g.classList.add("seat");
    el("circle", { cx: x, cy: y, r: SPACE + 5, class: "led", fill: "none", "data-led": name }, g);
    // meeting points are diamonds: a ring around a space is an LED
    const base = meetings.has(name)
      ? el("rect", { x: x - SPACE, y: y - SPACE, width: 2 * SPACE, height: 2 * SPACE, rx: 3,
                     transform: "rotate(45 " + x + " " + y + ")", class: "base" }, g)
      : el("circle", { cx: x, cy: y, r: SPACE, class: "base" }, g);
    if (starts[name]) base.style.stroke = starts[name];  // over the stylesheet's brown
    if (name.startsWith("seat:")) {
      // the seat's name beside its LED, along the track away from the start area (whose
      // spots lie on the other side), clear of the track numbers
      base.setAttribute("r", 7);
      const a = trackAngle(lay.start[name.slice(5)], lay.track) + 0.11;
      const dx = -Math.sin(a), dy = Math.cos(a);
      const anchor = dx > 0.5 ? "start" : dx < -0.5 ? "end" : "middle";
      const off = anchor === "middle" ? 26 : 20;
      const label = el("text", { x: x + off * dx, y: y + off * dy + 5, class: "seat-label",
                                 "text-anchor": anchor }, g);
      label.textContent = name.slice(5);
      continue;
    }
    if (specials.has(name)) el("path", { d: starPath(x, y, SPACE - 2), class: "star" }, g);
    el("circle", { cx: x, cy: y, r: 7, class: "piece", visibility: "hidden", "data-piece": "" }, g);
    // a ranked piece's rank is printed on it (public): its symbol on the piece
    el("use", { x: x - RANK_SIZE / 2, y: y - RANK_SIZE / 2, width: RANK_SIZE, height: RANK_SIZE,
                class: "rank", "data-rank": "", visibility: "hidden" }, g);
    el("text", { x: x, y: y + 4, class: "mark", "data-mark": "" }, g);
    // the mode and the upside-down box as they are at the click: the action may wait in the
    // queue while the person goes on to set them for the next one
    g.addEventListener("click", () => {
      const how = { mode: mode(), upsideDown: document.getElementById("upside-down").checked };
      queue(() => onLocation(name, how));
    });
  }
}

async function act(body) {
  let ans;
  try { ans = await api("/api/act", body); } catch (e) { ans = { ok: false, reason: "the page lost its server" }; }
  say(ans.ok ? "" : (ans.reason || ans.error));
  await refresh();
  return ans;
}

function mode() { return document.querySelector("input[name=mode]:checked").value; }

async function onLocation(name, how) {
  if (state.replay) return;
  const occupied = !!state.pieces[name];
  const m = how.mode;
  if (m === "flip") return act({ op: "flip", at: name });
  if (m === "slide") {
    if (state.slideFrom === null) {
      if (!occupied) return say("slide: click the piece first");
      state.slideFrom = name;
      return say("slide " + name + " to …");
    }
    const from = state.slideFrom;
    state.slideFrom = null;
    const lifted = await act({ op: "lift", at: from });
    if (!lifted.ok) return;
    return act({ op: "slide", id: lifted.id, path: slidePath(from, name),
                 upside_down: how.upsideDown });
  }
  if (occupied) {
    const ans = await act({ op: "lift", at: name });
    if (ans.ok) state.selected = ans.id;
    return;
  }
  const id = state.selected && state.held.some(h => h.id === state.selected)
    ? state.selected : (state.held.length ? state.held[0].id : null);
  if (!id) return say("no piece in hand: click a piece to lift it");
  const ans = await act({ op: "place", id: id, at: name, upside_down: how.upsideDown });
  if (ans.ok) state.selected = null;
}

function slidePath(from, to) {
  // along the track in the direction of play when both ends are track spaces
  const n = state.layout.track;
  if (!/^\d+$/.test(from) || !/^\d+$/.test(to)) return [to];
  const path = [];
  for (let i = (Number(from) + 1) % n; ; i = (i + 1) % n) {
    path.push(String(i));
    if (i === Number(to) || path.length > n) break;
  }
  return path;
}

function showPieces(pieces, truth, ranks) {
  state.pieces = pieces;
  ranks = ranks || {};
  for (const g of document.querySelectorAll("g.loc")) {
    const name = g.getAttribute("data-loc");
    const p = g.querySelector(".piece");
    if (!p) continue;
    const what = pieces[name] || "";
    p.setAttribute("class", "piece" + (what ? " " + what : "") +
                   (truth && truth[name] && what === "undercover" ? " truth-" + truth[name] : ""));
    p.setAttribute("data-piece", what);
    p.setAttribute("visibility", what ? "visible" : "hidden");
    const r = g.querySelector(".rank");
    const rank = what ? ranks[name] || "" : "";
    r.setAttribute("data-rank", rank);
    if (RANK_SYMBOLS[rank]) r.setAttribute("href", "#rank-" + rank); else r.removeAttribute("href");
    r.setAttribute("visibility", RANK_SYMBOLS[rank] ? "visible" : "hidden");
    g.classList.toggle("ranked", !!RANK_SYMBOLS[rank]);
  }
  document.body.classList.toggle("ranked", Object.keys(ranks).length > 0);
}

function showLeds(leds, lights) {
  for (const c of document.querySelectorAll("circle.led")) {
    const name = c.getAttribute("data-led");
    const v = leds[name];
    const lit = v && (v[0] || v[1] || v[2]);
    c.setAttribute("fill", lit ? rgb(v) : "none");
    c.setAttribute("data-rgb", v ? v.join(",") : "0,0,0");
    const g = c.parentNode;
    const meaning = (lights && lights[name]) || "";
    g.setAttribute("data-meaning", meaning);
    const mark = g.querySelector(".mark");
    if (mark) {
      mark.textContent = MARKS[meaning] || "";
      mark.setAttribute("data-mark", meaning);
    }
  }
  for (const li of document.querySelectorAll("#legend li"))
    li.classList.toggle("lit", Object.values(lights || {}).includes(li.dataset.meaning));
}

function showHeld(held, truth) {
  state.held = held;
  const box = document.getElementById("held");
  if (unchanged(box, [held, truth || null, state.selected])) return;
  box.textContent = held.length ? "in hand: " : "";
  for (const h of held) {
    const b = document.createElement("button");
    b.textContent = h.piece + (truth && truth[h.id] && h.piece === "undercover" ? " (" + truth[h.id] + ")" : "");
    b.setAttribute("data-id", h.id);
    if (h.id === state.selected) b.classList.add("selected");
    b.addEventListener("click", () => { state.selected = h.id; showHeld(state.held, truth); });
    box.appendChild(b);
  }
}

function seatOrder(keys) {
  const order = state.layout ? state.layout.colours : [];
  return keys.slice().sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

function showHands(hands, view) {
  // hot-seat: every hand is shown; only the seat to move, in a phase that takes a card,
  // can tap one (the server refuses the others too)
  const box = document.getElementById("hands");
  const toMove = view ? view.to_move : null;
  const open = !!view && (view.phase === "await_card" || view.phase === "round_end");
  if (unchanged(box, [hands, toMove, open])) return;
  box.textContent = "";
  if (!Object.keys(hands).length) box.textContent = "no game: no cards dealt";
  for (const seat of seatOrder(Object.keys(hands))) {
    const div = document.createElement("div");
    div.className = "hand" + (seat === toMove ? " to-move" : "");
    div.setAttribute("data-seat", seat);
    const s = document.createElement("span");
    s.className = "seat";
    s.textContent = seat + " (" + hands[seat].length + ")";
    div.appendChild(s);
    for (const c of hands[seat]) {
      const b = document.createElement("button");
      b.textContent = c.card;
      b.className = "card " + c.state;
      b.setAttribute("data-id", c.id);
      b.setAttribute("data-card", c.card);
      b.setAttribute("data-state", c.state);
      const playable = open && seat === toMove && c.state === "hand";
      b.disabled = !playable;
      b.title = c.state === "in_play" ? "on the reader: in play" : c.state === "played" ? "played" :
        seat !== toMove ? "not " + seat + "'s turn" : playable ? "tap it on the reader" : "no card now";
      b.addEventListener("click", () => queue(() => act({ op: "card", id: c.id })));
      div.appendChild(b);
    }
    box.appendChild(div);
  }
}

// a game's name for a person, as the rules core titles it
function title(game) { return (state.layout.titles || {})[game] || game; }

// the status bar: the server's words for the game on the board; its phase, the seat to move
// and its game as attributes for tools
function showStatus(view, status) {
  const s = document.getElementById("status");
  state.view = view;
  showStatusLine(status);
  if (!view) {
    s.dataset.phase = "idle";
    delete s.dataset.toMove;
    delete s.dataset.game;
    return;
  }
  s.dataset.phase = view.phase;
  s.dataset.toMove = view.to_move;
  s.dataset.game = view.game;
}

// the board read once (refresh, below, keeps one read in flight at a time)
async function readBoard() {
  if (state.replay) return;
  let s;
  try {
    s = await api("/api/state?since=" + state.since + (referee() ? "&referee=1" : ""));
  } catch (e) {
    return showGuidance({ kind: "stopped", text: "The page lost its server: is agentboard sim still running?" });
  }
  if (state.replay) return;
  state.live = s;
  showLeds(s.leds, s.lights);
  showPieces(s.pieces, s.truth, s.ranks);
  showHeld(s.held, s.held_truth);
  showHands(s.hands, s.view);
  state.since = showEvents(s.events, state.since);
  showStatus(s.view, s.status);
  showMenu(s.view);
  showGuidance(s.guidance);
  showDevice(s.device);
  document.getElementById("reader-card").textContent = s.reader || "";
}

const refresh = oneAtATime(readBoard);

// replay mode: the whole page shows the replayed turn (board, status bar, guidance line, the
// board's words), nothing of the live board (LEDs, hands, pieces in hand, the reader, the
// tools that act on it); back to the live board, all of it is live again
async function loadRecord(file) {
  let rec;
  try { rec = JSON.parse(await file.text()); } catch (e) { return say("not a JSON file"); }
  const ans = await api("/api/replay", rec);
  if (!ans.ok) return say(ans.reason);
  state.replay = { turns: ans.turns };
  const slider = document.getElementById("replay-turn");
  slider.max = ans.turns;
  slider.value = 0;
  document.getElementById("replay-panel").open = true;
  document.getElementById("replay-controls").hidden = false;
  document.getElementById("replay-banner").hidden = false;
  document.body.classList.add("replaying");
  say("");
  const hands = document.getElementById("hands");
  hands.textContent = "Replay: a record keeps the cards played, not the hands.";
  rebuild(hands);
  showHeld([], null);
  document.getElementById("reader-card").textContent = "";
  showReplay(0);
}

function replayWords(b) {
  // the turn shown, in words: its move and what it caused, or the start
  const mine = b.said.filter(x => x.turn === b.turn).map(x => x.text);
  const done = b.winners.length ? " The game is over." :
    " " + b.to_move.charAt(0).toUpperCase() + b.to_move.slice(1) + " moves next.";
  return (b.turn ? "Turn " + b.turn + " of " + b.turns + ": " + mine.join(" ") :
    "The start of the game, before turn 1 of " + b.turns + ".") + done;
}

async function showReplay(k) {
  const b = await api("/api/replay/" + k + (referee() ? "?referee=1" : ""));
  if (b.ok === false) return say(b.reason);
  if (!state.replay) return;  // left replay mode meanwhile
  document.getElementById("replay-turn").value = k;
  const what = "turn " + b.turn + " of " + b.turns;
  document.getElementById("replay-label").textContent = what;
  document.getElementById("replay-text").textContent = "REPLAY of a recorded game, " + what +
    ". This is not the live board: clicks on it do nothing.";
  showStatusLine({ text: "Replay: " + b.title + ", " + b.players + " players · after " + what });
  showGuidance({ kind: "replay", text: replayWords(b) });
  const list = document.getElementById("replay-events");
  list.textContent = "";
  for (const x of b.said) {
    const li = document.createElement("li");
    li.textContent = x.text;
    li.dataset.turn = x.turn;
    list.insertBefore(li, list.firstChild);
  }
  showLeds({}, {});
  showPieces(b.pieces, b.truth, b.ranks);
}

function exitReplay() {
  state.replay = null;
  document.getElementById("replay-controls").hidden = true;
  document.getElementById("replay-banner").hidden = true;
  document.getElementById("replay-events").textContent = "";
  document.getElementById("record-file").value = "";
  document.body.classList.remove("replaying");
  rebuild(document.getElementById("hands"));
  rebuild(document.getElementById("held"));
  refresh();
}

function gameRunning() {
  const v = state.view;
  return !!v && v.phase !== "game_over";
}

function newGame(players) {
  document.getElementById("confirm-new").hidden = true;
  const game = document.getElementById("game").value;
  return act(game ? { op: "new_game", game: game, players: players } : { op: "new_game", players: players });
}

function fillPlayers() {
  // the player counts the chosen game has on this board, the most first (as the board's menu)
  const games = state.layout.games || {};
  const counts = games[document.getElementById("game").value] || [2, 3, 4];
  const sel = document.getElementById("players");
  sel.textContent = "";
  for (const n of counts) {
    const o = document.createElement("option");
    o.value = o.textContent = String(n);
    sel.appendChild(o);
  }
  sel.value = String(Math.max(...counts));
}

function gameOption(game, parent) {
  const o = document.createElement("option");
  o.value = game;
  o.textContent = title(game);
  parent.appendChild(o);
}

// the game the page was started for first and chosen; the other games this board plays
// apart, under a heading that says so (the same cards play them: the board's own menu
// offers them too)
function fillGames(lay) {
  const sel = document.getElementById("game");
  const names = Object.keys(lay.games || {}).sort();
  const others = names.filter(g => g !== lay.game);
  if (names.includes(lay.game)) gameOption(lay.game, sel);
  if (others.length) {
    const group = document.createElement("optgroup");
    group.label = "other games this board plays";
    for (const g of others) gameOption(g, group);
    sel.appendChild(group);
  }
  sel.value = names.includes(lay.game) ? lay.game : names[0];
  sel.hidden = names.length < 2;  // a board with one game needs no choice
  sel.addEventListener("change", fillPlayers);
  fillPlayers();
}

// the menu shows the running game: its game and its number of players
function showMenu(view) {
  if (!view) return;
  if (follow(document.getElementById("game"), view.game)) fillPlayers();
  follow(document.getElementById("players"), view.players);
}

function askNewGame() {
  const players = Number(document.getElementById("players").value);
  if (!gameRunning()) return newGame(players);
  document.getElementById("confirm-new-text").textContent = "Start a new " + players +
    "-player game of " + title(document.getElementById("game").value) +
    "? The game on the board ends (its record is replaced).";
  document.getElementById("confirm-new").hidden = false;
}

// the board's features for the legend, drawn as the board draws them: those this board has
function boardFeatures(lay) {
  const spot = (g, x, y, r, cls) => el("circle", { cx: x, cy: y, r: r, class: cls || "base" }, g);
  // (drawn with the board's classes on "look", not "loc": a swatch is no location)
  const one = (cls, extra) => svg => {
    const g = el("g", { class: "look " + cls }, svg);
    spot(g, 14, 14, 11);
    if (extra) extra(g);
  };
  const out = [
    ["space", "a space of the track: its number, clockwise, the way pieces move", one("")],
    ["start", "a colour's start space, ringed in its colour: pieces come into play here",
     one("start", g => { g.querySelector(".base").style.stroke = lay.colours[0]; })],
    ["spot", "start area: the four spots behind a start space, for the pieces not in play",
     svg => { const g = el("g", { class: "look spot" }, svg);
              for (const [x, y] of [[8, 8], [20, 8], [8, 20], [20, 20]]) spot(g, x, y, 5.5); }],
    ["home", "home: the spaces running inward from a start space; every piece in wins",
     svg => { const g = el("g", { class: "look home" }, svg);
              for (const y of [5, 14, 23]) spot(g, 14, y, 4.5); }],
  ];
  if (lay.holes.length) {
    out.push(["hole", "hole: a piece on it is undercover (upside down)", one("hole")]);
    out.push(["undercover", "an undercover piece: its colour is hidden",
              one("", g => spot(g, 14, 14, 7, "piece undercover"))]);
  }
  if (lay.meeting_points.length)
    out.push(["meeting", "meeting point: a piece ending here pulls the nearest piece behind " +
              "it onto the hole behind", svg => {
                const g = el("g", { class: "look meeting" }, svg);
                el("rect", { x: 4, y: 4, width: 20, height: 20, rx: 3, class: "base",
                             transform: "rotate(45 14 14)" }, g); }]);
  if ((lay.special_spaces || []).length)
    out.push(["special", "special space (DOG Royal): a move ending here draws a card; a " +
              "citizen may jump on to the next", one("special",
                g => el("path", { d: starPath(14, 14, 9), class: "star" }, g))]);
  if ((lay.games || {})["dog-royal"])
    for (const rank of Object.keys(RANK_SYMBOLS))
      out.push(["rank-" + rank, RANK_TEXT[rank], one("ranked", g => {
        spot(g, 14, 14, 10, "piece " + lay.colours[0]);
        el("use", { href: "#rank-" + rank, x: 4, y: 4, width: 20, height: 20, class: "rank" }, g);
      })]);
  return out;
}

function init() {
  drawLegend(LEGEND, MARKS);
  api("/api/layout").then(lay => {
    state.layout = lay;
    drawBoard(lay);
    drawFeatures(boardFeatures(lay));
    fillGames(lay);
    state.timer = poll(refresh);
  });
  document.getElementById("referee").addEventListener("change", () => {
    document.getElementById("referee-banner").hidden = !referee();
    if (state.replay) showReplay(Number(document.getElementById("replay-turn").value)); else refresh();
  });
  for (const b of document.querySelectorAll("button[data-button]"))
    b.addEventListener("click", () => queue(() => act({ op: "press", button: b.dataset.button, ms: Number(b.dataset.ms) })));
  document.getElementById("new-game").addEventListener("click", askNewGame);
  document.getElementById("new-yes").addEventListener("click", () =>
    newGame(Number(document.getElementById("players").value)));
  document.getElementById("new-no").addEventListener("click", () => {
    document.getElementById("confirm-new").hidden = true;
  });
  document.getElementById("power-on").addEventListener("click", () => act({ op: "power_on" }));
  document.getElementById("refresh-sensors").addEventListener("click", readSensors);
  document.getElementById("inject").addEventListener("click", () => injectFault(act));
  document.getElementById("record-file").addEventListener("change", e => loadRecord(e.target.files[0]));
  const slider = document.getElementById("replay-turn");
  slider.addEventListener("input", () => showReplay(Number(slider.value)));
  document.getElementById("replay-prev").addEventListener("click", () => showReplay(Math.max(0, Number(slider.value) - 1)));
  document.getElementById("replay-next").addEventListener("click", () => showReplay(Math.min(state.replay.turns, Number(slider.value) + 1)));
  document.getElementById("replay-exit").addEventListener("click", exitReplay);
}

init();
