// What both boards' pages share (index.html + app.js draws the DOG boards, avenue.html +
// avenue.js the Agent Avenue board): the JSON API, one action at a time, the message and
// guidance lines, the board's events, the stopped-board banner, the sensor panel and the legend.
// Plain DOM: nothing to build, nothing fetched from outside this page's server.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
let busy = Promise.resolve();

// a person's actions, one after the other: a quick second click (put down right after a
// lift) is read against the board as the first one left it
function queue(fn) {
  busy = busy.then(fn).catch(e => say(String(e)));
  return busy;
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  return r.json();
}

function say(text) { document.getElementById("message").textContent = text || ""; }

function rgb(c) {
  // an LED at low duty still glows in its hue: show the hue at full strength
  const m = Math.max(c[0], c[1], c[2]) || 1;
  return "rgb(" + c.map(v => Math.round(v * 255 / m)).join(",") + ")";
}

// what each list was last built from (kept here, not in the DOM: a page's DOM holds only what
// it shows)
const built = new WeakMap();

function unchanged(box, data) {
  // rebuild a list only when it changed: a button replaced under the pointer loses the click
  const sig = JSON.stringify(data);
  if (built.get(box) === sig) return true;
  built.set(box, sig);
  return false;
}

function rebuild(box) { built.delete(box); }

// an event in words: the server says each in the words of shared_rules/describe.py; one it
// could not say (a server older than this page) is named by its kind, never shown as JSON
function describe(entry) {
  return entry.text || ("The board says: " + String(entry.event.event).replace(/_/g, " ") + ".");
}

const EVENTS_SHOWN = 60;
const GAME_BEGUN = new Set(["new_game", "resumed"]);  // events after which another game runs
let gameSeq = 0;  // the number of the last of them shown

// the board's events after `since`, newest on top; returns the last one's number. An event
// at or below `since` is already in the list: an answer can repeat it (one asked for before
// the last answer came, or a server that does not skip them)
function showEvents(events, since) {
  const list = document.getElementById("events");
  for (const entry of events) {
    const { seq, event } = entry;
    if (seq <= since) continue;
    since = seq;
    if (GAME_BEGUN.has(event.event)) gameSeq = seq;
    const li = document.createElement("li");
    li.textContent = describe(entry);
    li.setAttribute("data-event", event.event);
    li.setAttribute("data-seq", seq);
    list.insertBefore(li, list.firstChild);
  }
  while (list.children.length > EVENTS_SHOWN) list.removeChild(list.lastChild);
  return since;
}

// fn (a poll of the board) with one call in flight at a time: on a loaded machine an answer
// can take longer than the poll interval, and overlapping polls would each show what the
// others show, and an older answer could land after a newer one. A call made while one runs
// runs fn once more when it ends (after an action the board must be read again: an answer
// asked for before the action shows the board as it was) and waits for that.
function oneAtATime(fn) {
  let running = null;
  let again = false;
  async function loop() {
    try {
      do { again = false; await fn(); } while (again);
    } finally {
      running = null;
    }
  }
  const call = () => {
    if (running) { again = true; return running; }
    running = loop();
    return running;
  };
  call.busy = () => running !== null;
  return call;
}

const POLL_MS = 200;

// reads the board every POLL_MS; a tick that finds the last poll still under way is skipped
function poll(refresh) {
  refresh();
  return setInterval(() => { if (!refresh.busy()) refresh(); }, POLL_MS);
}

// a new-game menu shows the game running on the board (its game, its mode, its players):
// set to it when another game begins (the page's, the board's own menu's, one resumed from
// flash) and left alone between, so a choice being made is not undone by the next poll
const followed = new WeakMap();

function follow(select, value) {
  const key = gameSeq + ":" + value;
  if (value === null || value === undefined || followed.get(select) === key) return false;
  followed.set(select, key);
  if (![...select.options].some(o => o.value === String(value))) return false;
  select.value = String(value);
  return true;
}

function showGuidance(g) {
  const box = document.getElementById("guidance");
  box.textContent = g.text;
  box.dataset.kind = g.kind;
}

function showDevice(device) {
  const banner = document.getElementById("stopped-banner");
  banner.hidden = device.running;
  if (!device.running)
    document.getElementById("stopped-text").textContent = "BOARD STOPPED: " +
      (device.reason || "no reason given") + ".";
}

function referee() { return document.getElementById("referee").checked; }

async function readSensors() {
  const s = await api("/api/sensors");
  if (s.ok === false) return say(s.reason);
  const body = document.querySelector("#sensors tbody");
  body.textContent = "";
  s.locations.forEach((loc, i) => {
    const tr = document.createElement("tr");
    for (const v of [loc, s.raw[i], s["class"][i] === null ? "—" : s["class"][i]]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
}

// the status bar: the game on the board in the players' words (the server's)
function showStatusLine(status) {
  document.getElementById("status").textContent = status ? status.text : "";
}

// the board's features: [class of the drawing, text] rows, each with a small drawing of the
// feature as the board draws it (draw(svg) fills the swatch)
function drawFeatures(features) {
  const ul = document.getElementById("features");
  ul.textContent = "";
  for (const [name, text, draw] of features) {
    const li = document.createElement("li");
    li.dataset.feature = name;
    const svg = el("svg", { class: "feature-swatch", viewBox: "0 0 28 28", width: 22, height: 22,
                            "aria-hidden": "true" });
    draw(svg);
    li.appendChild(svg);
    li.appendChild(document.createTextNode(text));
    ul.appendChild(li);
  }
}

// the legend: [meaning, text] rows, each with its mark
function drawLegend(legend, marks) {
  const ul = document.getElementById("legend");
  for (const [meaning, text] of legend) {
    const li = document.createElement("li");
    li.dataset.meaning = meaning;
    const mark = document.createElement("span");
    mark.className = "swatch";
    mark.dataset.meaning = meaning;
    mark.textContent = marks[meaning] || "";
    li.appendChild(mark);
    li.appendChild(document.createTextNode(text));
    ul.appendChild(li);
  }
}

// the fault panel's inject button, as the simulator's fault op takes it
function injectFault(act) {
  const kind = document.getElementById("fault-kind").value;
  const req = { op: "fault", kind: kind };
  const at = document.getElementById("fault-at").value.trim();
  if (at && kind !== "nfc_crc") req.at = at;
  if (kind !== "clear") req.ms = Number(document.getElementById("fault-ms").value);
  return act(req);
}
