// The Agent Avenue board in a browser: draws the 14-space street, its black-market spaces, the
// two pawns, the three card pads and the seat LEDs from /api/layout; shows what /api/state says
// (every LED as the firmware wrote it with a mark for what it asks, the pawns where the sensors
// see them, what lies on each pad, the buzzer, the board's public view, the hands of the side
// that acts) and turns clicks into hand actions (/api/act). The face-down card never reaches
// this page: the down pad shows only that a card lies there, as its LED does.
"use strict";

const C = 380, R = 282, SPACE = 33;
const PAD = { w: 100, h: 124, y: 300 };
const state = { layout: null, since: 0, held: [], selected: null, picked: null, pieces: {},
                slideFrom: null, view: null, live: null };

const MARKS = { pawn: "", go: "↓", leave: "−", market: "", fault: "⚠", acts: "", partner: "",
                want: "+", full: "", pick: "?", refused: "!" };
const LEGEND = [
  ["pawn", "green / blue on a space: that pawn stands here"],
  ["go", "green / blue ↓, blinking: the pawn must go here"],
  ["leave", "red −: a pawn must leave this space"],
  ["market", "dim amber: a black-market space (advanced)"],
  ["fault", "blinking orange ⚠: this sensor reads nonsense"],
  ["acts", "seat LED: the seat that acts"],
  ["partner", "dim seat LED: the team's other seat"],
  ["want", "white + pad: put a card here"],
  ["full", "cyan pad: a card lies here (the same for every card)"],
  ["pick", "yellow ? pads: the other side takes one of these"],
  ["refused", "blinking red ! pad: the card put there was refused"],
];
const PAD_TEXT = { up: "face up", down: "face down", tap: "tap" };

function angle(i, n) { return Math.PI / 2 + 2 * Math.PI * i / n; }

function polar(r, a) { return [C + r * Math.cos(a), C + r * Math.sin(a)]; }

function cardName(kind) {
  if (!kind || !state.layout) return kind || "";
  const found = state.layout.agents.concat(state.layout.market).find(c => c.name === kind);
  return found && found.en ? found.en : kind;
}

function drawSpaces(svg, lay) {
  const markets = new Set(lay.market_spaces.map(String));
  const homes = {};
  for (const side of lay.sides) homes[String(lay.homes[side])] = side;
  el("circle", { cx: C, cy: C, r: R, fill: "none", stroke: "#3b3024", "stroke-width": 30 }, svg);
  for (let i = 0; i < lay.spaces; i++) {
    const name = String(i);
    const [x, y] = polar(R, angle(i, lay.spaces));
    const g = el("g", { class: "loc space", id: "loc-" + name, "data-loc": name }, svg);
    if (markets.has(name)) g.classList.add("market");
    if (homes[name]) { g.classList.add("home"); g.dataset.home = homes[name]; }
    el("circle", { cx: x, cy: y, r: SPACE + 8, class: "led", fill: "none", "data-led": name }, g);
    el("circle", { cx: x, cy: y, r: SPACE, class: "base" }, g);
    el("text", { x: x, y: y - 15, class: "space-number" }, g).textContent = name;
    if (markets.has(name)) el("text", { x: x, y: y + 25, class: "space-tag" }, g).textContent = "market";
    if (homes[name]) {
      const [hx, hy] = polar(R + 52, angle(i, lay.spaces));
      el("text", { x: hx, y: hy + 5, class: "home-label " + homes[name] }, svg).textContent =
        homes[name] + "'s home";
    }
    el("circle", { cx: x, cy: y + 3, r: 15, class: "pawn", visibility: "hidden", "data-pawn": "" }, g);
    el("text", { x: x, y: y + 8, class: "mark", "data-mark": "" }, g);
    // the mode as it is at the click: the action may wait in the queue while the person
    // switches the mode for the next one
    g.addEventListener("click", () => { const m = mode(); queue(() => onSpace(name, m)); });
  }
}

function drawPads(svg, lay) {
  const n = lay.readers.length;
  lay.readers.forEach((pad, j) => {
    const x = C + (j - (n - 1) / 2) * (PAD.w + 18);
    const g = el("g", { class: "loc pad", id: "pad-" + pad, "data-pad": pad, "data-loc": "reader:" + pad }, svg);
    el("circle", { cx: x, cy: PAD.y - 22, r: 11, class: "led", fill: "none", "data-led": "reader:" + pad }, g);
    el("rect", { x: x - PAD.w / 2, y: PAD.y, width: PAD.w, height: PAD.h, rx: 8, class: "base" }, g);
    el("rect", { x: x - PAD.w / 2 + 8, y: PAD.y + 8, width: PAD.w - 16, height: PAD.h - 16, rx: 6,
                 class: "card", visibility: "hidden" }, g);
    el("text", { x: x, y: PAD.y + PAD.h / 2 + 4, class: "pad-card", "data-card": "" }, g);
    el("text", { x: x, y: PAD.y + PAD.h + 18, class: "label" }, g).textContent = PAD_TEXT[pad] || pad;
    el("text", { x: x, y: PAD.y - 18, class: "mark", "data-mark": "" }, g);
    g.addEventListener("click", () => queue(() => onPad(pad)));
  });
  el("text", { x: C, y: PAD.y + PAD.h + 44, class: "label", id: "lifted" }, svg);
}

function drawSeats(svg, lay) {
  // each side's seat LEDs by its home, inside the street
  for (const side of lay.sides) {
    const seats = lay.seat_leds.filter(s => s.startsWith("seat:" + side + "-"));
    const [hx, hy] = polar(R - 95, angle(lay.homes[side], lay.spaces));
    seats.forEach((s, k) => {
      const x = hx + (k - (seats.length - 1) / 2) * 70;
      const g = el("g", { class: "loc seat", "data-loc": s }, svg);
      el("circle", { cx: x, cy: hy, r: 12, class: "led", fill: "none", "data-led": s }, g);
      el("circle", { cx: x, cy: hy, r: 7, class: "base" }, g);
      el("text", { x: x, y: hy + 27, class: "seat-label" }, g).textContent =
        side + " " + (Number(s.split("-").pop()) + 1);
    });
  }
  const bz = el("g", { id: "buzzer", "data-sounding": "false" }, svg);
  el("circle", { cx: 48, cy: 48, r: 22, class: "buzzer-body" }, bz);
  el("text", { x: 48, y: 55, class: "buzzer-note" }, bz).textContent = "♪";
  el("text", { x: 80, y: 53, class: "buzzer-hz", id: "buzzer-hz" }, bz);
}

function drawBoard(lay) {
  const svg = document.getElementById("board");
  drawSpaces(svg, lay);
  drawPads(svg, lay);
  drawSeats(svg, lay);
}

async function act(body) {
  let ans;
  try { ans = await api("/api/act", body); } catch (e) { ans = { ok: false, reason: "the page lost its server" }; }
  say(ans.ok ? "" : (ans.reason || ans.error));
  await refresh();
  return ans;
}

function mode() { return document.querySelector("input[name=mode]:checked").value; }

function slidePath(from, to) {
  // the shorter way along the street (a pawn is slid over the spaces between)
  const n = state.layout.spaces;
  const a = Number(from), b = Number(to);
  const step = ((b - a + n) % n) <= n / 2 ? 1 : -1;
  const path = [];
  for (let i = (a + step + n) % n; path.length < n; i = (i + step + n) % n) {
    path.push(String(i));
    if (i === b) break;
  }
  return path;
}

async function onSpace(name, m) {
  const occupied = !!state.pieces[name];
  if (m === "slide") {
    if (state.slideFrom === null) {
      if (!occupied) return say("slide: click the pawn first");
      state.slideFrom = name;
      return say("slide the pawn on " + name + " to …");
    }
    const from = state.slideFrom;
    state.slideFrom = null;
    const lifted = await act({ op: "lift", at: from });
    if (!lifted.ok) return;
    return act({ op: "slide", id: lifted.id, path: slidePath(from, name) });
  }
  if (occupied) {
    const ans = await act({ op: "lift", at: name });
    if (ans.ok) state.selected = ans.id;
    return;
  }
  const id = state.selected && state.held.some(h => h.id === state.selected)
    ? state.selected : (state.held.length ? state.held[0].id : null);
  if (!id) return say("no pawn in hand: click a pawn to lift it");
  const ans = await act({ op: "place", id: id, at: name });
  if (ans.ok) state.selected = null;
}

async function onPad(pad) {
  const live = state.live;
  if (!live) return;
  const lies = pad === "up" ? !!live.pads.up : pad === "down" ? live.pads.down : false;
  if (pad !== "tap" && lies) return act({ op: "card_off", reader: pad });
  if (state.picked) {
    const id = state.picked;
    pick(null);  // in hand no more: a card put face down leaves no trace on the page
    return act({ op: "card", id: id, reader: pad });
  }
  if (pad !== "tap" && live.lifted.some(l => l.from === pad))
    return act({ op: "card", id: "lifted", reader: pad });
  say(pad === "tap" ? "pick the card to tap first: from a hand, the offer, a tableau or a deck's top"
                    : "pick a card from a hand first");
}

function pick(id, what) {
  state.picked = state.picked === id ? null : id;
  const box = document.getElementById("picked");
  box.dataset.id = state.picked || "";
  box.textContent = state.picked ? "picked: " + what + ", now click a pad" : "";
  for (const b of document.querySelectorAll("[data-id]"))
    if (b.tagName === "BUTTON" || b.classList.contains("chip"))
      b.classList.toggle("picked", !!state.picked && b.dataset.id === state.picked);
}

function showPieces(pieces) {
  state.pieces = pieces;
  for (const g of document.querySelectorAll("g.space")) {
    const name = g.dataset.loc;
    const p = g.querySelector(".pawn");
    const what = pieces[name] || "";
    p.setAttribute("class", "pawn" + (what ? " " + what : ""));
    p.setAttribute("data-pawn", what);
    p.setAttribute("visibility", what ? "visible" : "hidden");
  }
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

function showPads(pads, lifted, truth) {
  for (const g of document.querySelectorAll("g.pad")) {
    const pad = g.dataset.pad;
    const text = g.querySelector(".pad-card");
    const card = g.querySelector(".card");
    let shown = "", lies = false, face = "";
    if (pad === "up" && pads.up) { shown = cardName(pads.up.card); lies = true; face = "up"; }
    if (pad === "down" && pads.down) {
      shown = truth && truth.down ? "(" + cardName(truth.down) + ")" : "face down";
      lies = true; face = "down";
    }
    if (pad === "tap" && pads.tap) { shown = "a card"; lies = true; face = "tap"; }
    text.textContent = shown;
    text.setAttribute("data-card", pad === "up" && pads.up ? pads.up.card : lies ? face : "");
    card.setAttribute("visibility", lies ? "visible" : "hidden");
    card.setAttribute("class", "card " + face);
  }
  const box = document.getElementById("lifted");
  box.textContent = lifted.length ? "taken off the pads, in a hand: " +
    lifted.map((l, j) => "a card from " + l.from + (truth && truth.lifted ? " (" + cardName(truth.lifted[j]) + ")" : "")).join(", ") : "";
  box.dataset.n = lifted.length;
}

function showBuzzer(b) {
  const g = document.getElementById("buzzer");
  g.dataset.sounding = b.sounding ? "true" : "false";
  document.getElementById("buzzer-hz").textContent = b.sounding ? b.hz + " Hz" : "";
}

function showHeld(held) {
  state.held = held;
  const box = document.getElementById("held");
  if (unchanged(box, [held, state.selected])) return;
  box.textContent = held.length ? "in hand: " : "";
  for (const h of held) {
    const b = document.createElement("button");
    b.textContent = h.piece + " pawn";
    b.className = "pawn-held " + h.piece;
    b.setAttribute("data-held", h.id);
    if (h.id === state.selected) b.classList.add("selected");
    b.addEventListener("click", () => { state.selected = h.id; rebuild(box); showHeld(state.held); });
    box.appendChild(b);
  }
}

function chip(text, attrs, onClick) {
  const s = document.createElement(onClick ? "button" : "span");
  s.className = "chip";
  s.textContent = text;
  for (const k in attrs) s.setAttribute(k, attrs[k]);
  if (attrs["data-id"] && attrs["data-id"] === state.picked) s.classList.add("picked");
  if (onClick) s.addEventListener("click", onClick);
  return s;
}

function showView(live) {
  const view = live.view;
  state.view = view;
  document.body.classList.toggle("advanced", !!view && view.mode === "advanced");
  const body = document.querySelector("#sides tbody");
  const box = document.getElementById("view");
  if (unchanged(box, [view, live.tableaux, live.result, live.acts])) return;
  body.textContent = "";
  document.getElementById("deck").textContent = view ? view.deck : "–";
  document.getElementById("deck").dataset.n = view ? view.deck : "";
  document.getElementById("market-deck").textContent = view && view.mode === "advanced" ? view.market_deck : "–";
  document.getElementById("market-deck").dataset.n = view && view.mode === "advanced" ? view.market_deck : "";
  if (!view) return showResult(null);
  for (const side of state.layout.sides) {
    const tr = document.createElement("tr");
    tr.dataset.side = side;
    // the side that acts now: the one the guidance line names (in the black market the side
    // taking, in the recruit the other side), never another
    if (side === live.acts) tr.classList.add("acts");
    const cells = [];
    for (let k = 0; k < 6; k++) { cells.push(document.createElement("td")); tr.appendChild(cells[k]); }
    cells[0].textContent = side + (view.seats[side] > 1 ? " (2)" : "");
    cells[0].className = "side " + side;
    cells[1].textContent = view.pawns[side];
    cells[1].className = "pawn-at";
    cells[1].dataset.space = view.pawns[side];
    cells[2].className = "agents";
    const agents = view.agents[side];
    for (const a of state.layout.agents) {
      if (!agents[a.name]) continue;
      cells[2].appendChild(chip(cardName(a.name) + " ×" + agents[a.name],
        { "data-agent": a.name, "data-count": agents[a.name] }));
    }
    cells[3].className = "hand-count";
    cells[3].dataset.counts = view.hands[side].join(",");
    cells[3].textContent = view.hands[side].join(" + ");
    cells[4].className = "discards";
    cells[4].dataset.left = view.discards_left[side].join(",");
    cells[4].textContent = view.discards_left[side].join(" + ");
    cells[5].className = "ongoing adv";
    const ongoing = (view.ongoing || {})[side] || [];
    cells[5].dataset.cards = ongoing.join(",");
    for (const m of ongoing) cells[5].appendChild(chip(cardName(m), { "data-card": m }));
    body.appendChild(tr);
  }
  showResult(live.result, view);
}

// the cards the tap pad asks for, where they are picked (the Cards panel): the black market's
// offer, the agents in play an ability names, the tops of the decks, marked when asked for
function showChoices(live) {
  const view = live.view;
  const from = live.tap_from || {};
  for (const c of document.querySelectorAll(".choice"))
    c.classList.toggle("asked", c.dataset.place === from.place);
  const offer = document.getElementById("offer");
  const tableau = document.getElementById("tableau");
  const row = document.getElementById("tableau-row");
  if (unchanged(offer, [view && view.offer, live.offer, live.tableaux, from, state.picked])) return;
  offer.textContent = "";
  tableau.textContent = "";
  row.hidden = from.place !== "tableau";
  if (!view) return;
  if (view.mode === "advanced") {
    (view.offer || []).forEach((m, j) => {
      const phys = live.offer[j];
      const id = phys && phys.card === m ? phys.id : "";
      offer.appendChild(chip(m ? cardName(m) : "—", { "data-card": m || "", "data-id": id },
                             id ? () => pick(id, cardName(m) + " from the offer") : null));
    });
  }
  if (from.place === "tableau") {
    document.getElementById("tableau-label").textContent = from.side + "'s agents";
    for (const c of live.tableaux[from.side] || [])
      tableau.appendChild(chip(cardName(c.card), { "data-card": c.card, "data-id": c.id },
                               () => pick(c.id, cardName(c.card) + " from " + from.side + "'s agents")));
  }
}

function showResult(result, view) {
  const box = document.getElementById("result");
  const winner = result ? result.winner : view && view.winner ? view.winner : "";
  box.hidden = !winner;
  box.dataset.winner = winner;
  box.dataset.reason = result && result.reason ? result.reason : "";
  box.textContent = result && result.text ? result.text : winner ? winner + " wins." : "";
}

function showHands(live) {
  const box = document.getElementById("hands");
  if (unchanged(box, [live.hands, state.picked, live.view ? live.view.seat : null])) return;
  box.textContent = "";
  const view = live.view;
  for (const side of state.layout.sides) {
    for (const row of live.hands[side] || []) {
      const div = document.createElement("div");
      div.className = "hand " + side + (row.cards ? " open" : "");
      div.dataset.side = side;
      div.dataset.seat = row.seat;
      if (row.cards && view && view.seats[side] > 1 && view.seat === row.seat) div.classList.add("lit");
      const label = document.createElement("span");
      label.className = "seat";
      label.textContent = side + (view && view.seats[side] > 1 ? " " + (row.seat + 1) : "") + " (" + row.count + ")";
      div.appendChild(label);
      if (!row.cards) {
        const s = document.createElement("span");
        s.className = "hidden-hand";
        s.textContent = row.count ? "cards face down: not this side's turn" : "no cards";
        div.appendChild(s);
      } else {
        for (const c of row.cards) {
          const b = document.createElement("button");
          b.className = "card" + (c.id === state.picked ? " picked" : "");
          b.textContent = cardName(c.card);
          b.dataset.id = c.id;
          b.dataset.card = c.card;
          b.addEventListener("click", () => pick(c.id, cardName(c.card) + " from " + side + "'s hand"));
          div.appendChild(b);
        }
      }
      box.appendChild(div);
    }
  }
  if (!box.children.length) box.textContent = "no game: no cards dealt";
  document.getElementById("top-deck").disabled = !live.tops.deck;
  document.getElementById("top-market").disabled = !live.tops.market;
}

function showTruth(truth) {
  const box = document.getElementById("truth");
  box.hidden = !truth;
  if (!truth) { box.textContent = ""; return; }
  const hands = Object.keys(truth.hands).map(s => s + ": " + truth.hands[s].map(h => h.map(cardName).join(", ")).join(" | ")).join("; ");
  box.textContent = "REFEREE: face down " + (truth.down ? cardName(truth.down) : "none") +
    "; hands " + hands + "; agent deck top " + cardName(truth.deck_top) +
    "; market deck top " + cardName(truth.market_top) + "; discards " + truth.discards.map(cardName).join(", ");
}

// the status bar: the server's words for the game on the board (who acts is the guidance
// line's to say, once); its phase and active side as attributes for tools
function showStatus(view, status) {
  const s = document.getElementById("status");
  showStatusLine(status);
  if (!view) { s.dataset.phase = "idle"; delete s.dataset.active; return; }
  s.dataset.phase = view.phase;
  s.dataset.active = view.active;
}

// the board's features for the legend, drawn as the board draws them (with its classes on
// "look": a swatch is no space nor pad of the board)
function boardFeatures(lay) {
  const look = (cls, draw) => svg => draw(el("g", { class: "look " + cls }, svg));
  const space = (g, extra) => { el("circle", { cx: 14, cy: 14, r: 11, class: "base" }, g);
                                if (extra) extra(g); };
  const pad = (face, text) => [
    "pad-" + face, text, look("pad-look", g => {
      el("rect", { x: 5, y: 2, width: 18, height: 24, rx: 3, class: "base" }, g);
      if (face !== "up") el("rect", { x: 8, y: 5, width: 12, height: 18, rx: 2,
                                      class: "card " + face }, g);
    })];
  return [
    ["space", "a space of the street, numbered clockwise from green's home",
     look("street", g => space(g))],
    ["home", "a side's home (ringed in its colour): its pawn starts here",
     look("street home", g => space(g, g2 => {
       g2.querySelector(".base").style.stroke = "#2e9a42"; }))],
    ["market", "black-market space (advanced mode): a pawn stopping here takes a card from " +
     "the offer", look("street market", g => space(g))],
    ["pawn", "a side's pawn: green and blue", look("street", g => space(g, g2 =>
      el("circle", { cx: 14, cy: 14, r: 7, class: "pawn blue" }, g2)))],
    pad("up", "up pad: the card played face up"),
    pad("down", "down pad: the card played face down (the page shows only that one lies there)"),
    pad("tap", "tap pad: every other card the board must know (discards, black market, agents " +
        "an ability names)"),
  ];
}

// the board read once (refresh, below, keeps one read in flight at a time)
async function readBoard() {
  let s;
  try {
    s = await api("/api/state?since=" + state.since + (referee() ? "&referee=1" : ""));
  } catch (e) {
    return showGuidance({ kind: "stopped", text: "The page lost its server: is agentboard sim still running?" });
  }
  state.live = s;
  showLeds(s.leds, s.lights);
  showPieces(s.pieces);
  showHeld(s.held);
  showPads(s.pads, s.lifted, s.truth);
  showBuzzer(s.buzzer);
  showView(s);
  showHands(s);
  showChoices(s);
  showTruth(s.truth);
  state.since = showEvents(s.events, state.since);
  showStatus(s.view, s.status);
  showMenu(s.view);
  showGuidance(s.guidance);
  showDevice(s.device);
}

const refresh = oneAtATime(readBoard);

// the menu shows the running game: its mode, and its players when the menu has its seating
// (the board's own menu also seats one green against two blue, which the page does not deal)
function showMenu(view) {
  if (!view) return;
  follow(document.getElementById("mode"), view.mode);
  const lay = state.layout;
  const seating = lay.sides.map(side => view.seats[side]).join(",");
  const players = Object.keys(lay.seats).find(n => lay.seats[n].join(",") === seating);
  follow(document.getElementById("players"), players || null);
}

function fillNewGame(lay) {
  const modes = document.getElementById("mode");
  for (const m of lay.modes) {
    const o = document.createElement("option");
    o.value = o.textContent = m;
    modes.appendChild(o);
  }
  const players = document.getElementById("players");
  for (const n of Object.keys(lay.seats)) {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n + " players (" + lay.seats[n].join(" v ") + ")";
    players.appendChild(o);
  }
}

function newGame() {
  document.getElementById("confirm-new").hidden = true;
  return act({ op: "new_game", mode: document.getElementById("mode").value,
               players: Number(document.getElementById("players").value) });
}

function askNewGame() {
  const v = state.view;
  if (!v || v.phase === "game_over") return newGame();
  document.getElementById("confirm-new-text").textContent = "Start a new " +
    document.getElementById("mode").value + " game? The game on the board ends (its record is replaced).";
  document.getElementById("confirm-new").hidden = false;
}

function init() {
  drawLegend(LEGEND, MARKS);
  api("/api/layout").then(lay => {
    state.layout = lay;
    drawBoard(lay);
    drawFeatures(boardFeatures(lay));
    fillNewGame(lay);
    poll(refresh);
  });
  document.getElementById("referee").addEventListener("change", () => {
    document.getElementById("referee-banner").hidden = !referee();
    refresh();
  });
  for (const b of document.querySelectorAll("button[data-button]"))
    b.addEventListener("click", () => queue(() => act({ op: "press", button: b.dataset.button, ms: Number(b.dataset.ms) })));
  for (const b of [document.getElementById("top-deck"), document.getElementById("top-market")])
    b.addEventListener("click", () => pick(b.dataset.id, b.textContent));
  document.getElementById("new-game").addEventListener("click", askNewGame);
  document.getElementById("new-yes").addEventListener("click", newGame);
  document.getElementById("new-no").addEventListener("click", () => {
    document.getElementById("confirm-new").hidden = true;
  });
  document.getElementById("power-on").addEventListener("click", () => act({ op: "power_on" }));
  document.getElementById("refresh-sensors").addEventListener("click", readSensors);
  document.getElementById("inject").addEventListener("click", () => injectFault(act));
}

init();
