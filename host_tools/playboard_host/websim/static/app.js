// Playboard simulator page: draws the board from the layout data and follows the
// simulated board's state (server-sent events from /api/events).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const LONG_MS = 700;   // a pointer held this long on a cell: a long press
let LAYOUT = null;     // /api/layout: the physical board (size, holes, every game's cells)
let STATE = null;      // the last state the server sent
let drawnGame = null;  // the game whose cells are drawn ("game/turned")
let boardChoice = null;  // the game, mode and level the board last reported (the header follows it)
let TURNED = false;    // the board seen from Black / North (you play Black against the engine)
const cellNodes = {};  // cell -> {g, halo, content}
const otherLeds = [];  // {led, halo} of the other games' cells

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function $(id) { return document.getElementById(id); }

// the run's token: a simulator listening beyond this computer prints its page's address
// with ?token=...; every action carries it (the server refuses actions without it)
const TOKEN = new URLSearchParams(location.search).get("token") || "";

async function api(path, body) {
  const headers = {"Content-Type": "application/json"};
  if (TOKEN) headers["X-Playboard-Token"] = TOKEN;
  const opts = body === undefined ? {} : {method: "POST", headers, body: JSON.stringify(body)};
  const r = await fetch(path, opts);
  const data = r.headers.get("Content-Type", "").startsWith("application/json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error(data.error || data || r.statusText);
  return data;
}

function showError(msg) {
  const e = $("error");
  e.hidden = !msg;
  e.textContent = msg || "";
}

// --- the board ------------------------------------------------------------------
const H = () => LAYOUT.size_mm[1];
const W = () => LAYOUT.size_mm[0];
const sx = x => TURNED ? W() - x : x;
const sy = y => TURNED ? y : H() - y;   // layout y runs away from White; SVG y runs down

function drawBoard(game) {
  const svg = $("board");
  svg.textContent = "";
  const [w, h] = LAYOUT.size_mm;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const defs = el("defs", {}, svg);
  const f = el("filter", {id: "glow", x: "-60%", y: "-60%", width: "220%", height: "220%"}, defs);
  el("feGaussianBlur", {stdDeviation: "3.5"}, f);
  el("rect", {x: 4, y: 4, width: w - 8, height: h - 8, rx: 14, fill: "#c8a06a", stroke: "#8a6334",
              "stroke-width": 3}, svg);
  const holes = LAYOUT.holes_mm;
  // the other games' holes, faint: the physical board has them all
  const active = LAYOUT.games[game];
  const used = new Set();
  otherLeds.length = 0;
  for (const c of active.cells) used.add(c[3] + "," + c[4]);
  for (const name in LAYOUT.games) {
    if (name === game) continue;
    for (const c of LAYOUT.games[name].cells) {
      const key = c[3] + "," + c[4];
      if (used.has(key)) continue;
      used.add(key);
      // its LED too (the other game's pads light when pressed or armed)
      if (c[2] >= 0 && (c[5] === "point" || c[5] === "pit")) {
        otherLeds.push({led: c[2], halo: el("circle", {cx: sx(c[3]), cy: sy(c[4]), r: c[5] === "pit" ? 21 : 18,
                                                        fill: "none", filter: "url(#glow)", class: "led other"}, svg)});
      }
      drawHole(svg, c[5], c[3], c[4], holes, "inactive");
    }
  }
  // lines of the Tobit board (adjacent points, from the rules)
  for (const [a, b] of active.edges || []) {
    const ca = active.cells.find(c => c[0] === a), cb = active.cells.find(c => c[0] === b);
    el("line", {x1: sx(ca[3]), y1: sy(ca[4]), x2: sx(cb[3]), y2: sy(cb[4]), class: "line"}, svg);
  }
  for (const k in cellNodes) delete cellNodes[k];
  for (const c of active.cells) {
    const [cell, sensor, led, x, y, kind] = c;
    const g = el("g", {class: "cell", "data-cell": cell, "data-kind": kind, "data-led": led,
                       id: "cell-" + cell, tabindex: sensor >= 0 ? 0 : -1, role: "button"}, svg);
    const halo = kind === "kazan" || kind === "counter"
      ? el("rect", {x: sx(x) - holes[kind][0] / 2 - 4, y: sy(y) - holes[kind][1] / 2 - 4,
                    width: holes[kind][0] + 8, height: holes[kind][1] + 8, rx: 10, fill: "none",
                    filter: "url(#glow)", class: "led", "data-led": led}, g)
      : el("circle", {cx: sx(x), cy: sy(y), r: kind === "pit" ? 21 : 18, fill: "none", filter: "url(#glow)",
                      class: "led", "data-led": led}, g);
    drawHole(g, kind, x, y, holes, "");
    if (kind === "pit") {  // each player numbers their pits 1..N from their own left
      const np = active.cells.filter(c => c[5] === "pit").length / 2;
      const north = cell >= np;
      const above = north !== TURNED;  // each label on its owner's far side of the pit row
      el("text", {x: sx(x), y: sy(y) + (above ? -25 : 29), class: "label"}, g).textContent =
        (north ? "N" : "S") + (cell % np + 1);
    } else if (kind === "point") {  // the point numbers the moves are written in (RULES.md 2.2)
      el("text", {x: sx(x) + 13, y: sy(y) - 12, class: "pointno", "data-point": cell}, g).textContent = cell;
    }
    const content = el("g", {class: "content"}, g);
    cellNodes[cell] = {g, halo, content, kind, x, y};
    if (sensor >= 0) {
      // a long press (held LONG_MS or more) is the board's deliberate press; a shorter one a click
      let timer = null, long = false;
      g.addEventListener("pointerdown", () => {
        long = false;
        clearTimeout(timer);
        timer = setTimeout(() => { long = true; act({op: "press", cell}); }, LONG_MS);
      });
      const cancel = () => clearTimeout(timer);
      g.addEventListener("pointerup", cancel);
      g.addEventListener("pointerleave", cancel);
      g.addEventListener("click", () => {
        if (long) { long = false; return; }
        act({op: "click", cell});
      });
      g.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") act({op: "click", cell}); });
    }
  }
  drawnGame = game + (TURNED ? "/turned" : "");
  svg.setAttribute("data-turned", TURNED ? "1" : "0");
}

function drawHole(parent, kind, x, y, holes, cls) {
  if (kind === "kazan" || kind === "counter") {
    const [w, h] = holes[kind];
    return el("rect", {x: sx(x) - w / 2, y: sy(y) - h / 2, width: w, height: h, rx: 8,
                       class: "hole " + cls}, parent);
  }
  const d = holes[kind] || 16;
  return el("circle", {cx: sx(x), cy: sy(y), r: d / 2, class: "hole " + cls}, parent);
}

function ledColour(hex) {
  return hex && hex !== "000000" ? "#" + hex : null;
}

function render(s) {
  STATE = s;
  const draw = s.draw || s.game;
  TURNED = s.mode === "black" && s.app_state !== "menu";
  if (drawnGame !== draw + (TURNED ? "/turned" : "")) drawBoard(draw);
  // the header follows the board whenever the board's game, mode or level changes (a game
  // started from the board's menu too), never under the user's hand otherwise
  const choice = s.app_state === "menu" ? null : `${s.game}/${s.mode}/${s.level}`;
  if (choice && choice !== boardChoice) {
    $("game").value = s.game;
    fillLevels();
    $("mode").value = s.mode;
    $("level").value = s.level;
    boardChoice = choice;
  }
  // LEDs: each at its cell, in its colour as it glows
  for (const cell in cellNodes) {
    const n = cellNodes[cell];
    const led = +n.g.getAttribute("data-led");
    const col = led >= 0 ? ledColour(s.leds[led]) : null;
    n.halo.setAttribute("fill", n.kind === "kazan" || n.kind === "counter" ? (col || "none") : (col || "none"));
    n.g.setAttribute("data-colour", col || "");
    n.content.textContent = "";
    const {x, y, kind} = n;
    if (kind === "point") {
      const p = s.pieces[cell] || "";
      n.g.setAttribute("data-piece", p);
      if (p) {
        const white = p.toLowerCase() === "w";
        el("circle", {cx: sx(x), cy: sy(y), r: 13, class: p === "?" ? "piece-unknown" : white ? "piece-w" : "piece-b"},
           n.content);
        if (p === "W" || p === "B") el("circle", {cx: sx(x), cy: sy(y), r: 7, class: "crown"}, n.content);
      }
    } else if (s.app_state === "menu") {
      n.g.setAttribute("data-count", "");
    } else {
      const v = s.counts ? s.counts[cell] : 0;
      n.g.setAttribute("data-count", v);
      if (kind === "pit") {
        const shown = Math.min(v, 12);
        for (let i = 0; i < shown; i++) {
          const a = (i / Math.max(shown, 1)) * 2 * Math.PI;
          const r = 9;  // (round the count: a single ball too, never over its "1")
          el("circle", {cx: sx(x) + r * Math.cos(a), cy: sy(y) + r * Math.sin(a), r: 3.6, class: "ball"}, n.content);
        }
        if ((s.tuzdyks || []).includes(+cell)) el("circle", {cx: sx(x), cy: sy(y), r: 15, class: "tuzdyk"}, n.content);
      }
      el("text", {x: sx(x), y: sy(y), class: "count"}, n.content).textContent =
        kind === "pit" ? (s.tuzdyks || []).includes(+cell) ? "X" : v
          : (+cell % 2 === 0 ? "South " : "North ") + (kind === "kazan" ? "kazan " : "captured ") + v;
    }
  }
  for (const o of otherLeds) o.halo.setAttribute("fill", ledColour(s.leds[o.led]) || "none");
  // the panels
  const who = s.game.startsWith("tobit") ? ["White", "Black"] : ["South", "North"];
  let st = s.result !== "*" ? `Game over: ${s.result_text || s.result}` : `${who[s.turn]} to move`;
  if (s.result === "*" && (s.engine || {}).state === "move") st = `The engine plays ${s.engine.move}: make it on the board`;
  if (s.pairing && (s.app_state === "menu" || s.app_state === "over")) {
    // a tournament's pairing kept for the next game: the players, and who the board waits for
    st = (s.app_state === "over" ? st + ". Next: " : "The next game's pairing: ") + s.pairing.line + "; " +
         s.pairing.waiting + " (each player: a deliberate press, here a click, on a pit of their own row:" +
         " White South, Black North)";
  } else if (s.app_state === "menu") {
    // what the board's menu offers (all, or a locked museum menu's own: session._offered)
    const m = s.menu || {};
    // each offered choice with its South pit (the menu's order: state.GAMES, state.MODES)
    const pits = (all, offered, first) =>
      all.map((x, i) => (!offered || offered.includes(x)) ? `${first + i} ${x}` : null).filter(Boolean).join(", ");
    const games = pits(["toguz", "tobit", "tobit4", "tihbat"], m.games, 1);
    const modes = pits(["two", "white", "black", "demo"], m.modes, 6);
    const top = m.top || 9;
    const levels = top > 8 ? `North pits 1-8 the level (pit 8 again: 9 and on, to ${top})`
                           : `North pits 1-${top} the level`;
    st = `The board's menu (now: ${m.game}, ${m.mode}, level ${m.level}): South pits choose the game ` +
         `(${games}) and the mode (${modes}), ${levels}; North pit 9 starts`;
  } else if (s.app_state === "staff") {
    // the staff menu (docs/museum.md; firmware app.staff), not the players' menu
    st = "The staff menu: North pits 1-8 the brightness, South pit 1 the self-test, 2 unlock / lock " +
         "the link, 3 flash and faults, 4 calibration (hall boards), 5 twice: clear the synced games; " +
         "North pit 9 back to the menu" + (s.staff ? ". Now: " + s.staff : "");
  }
  if (s.closed) st = s.closed;  // dark by its opening hours: nothing else applies
  $("status-text").textContent = st + (s.note ? " - " + s.note : "");
  $("hint").textContent = s.hint || "";
  $("hint").hidden = !s.hint;
  const e = s.engine || {};
  $("engine-text").textContent = e.text || "idle";
  $("engine").setAttribute("data-state", e.state || "idle");
  $("engine-move").hidden = !(e.state === "move");
  const ol = $("moves");
  ol.textContent = "";
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.moves[i] + (i + 1 < s.moves.length ? "  " + s.moves[i + 1] : "");
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  const t = $("count-table");
  t.textContent = "";
  $("counts").hidden = !s.counts || s.app_state === "menu";
  if (s.counts) {
    const np = s.game === "toguz" ? 9 : 2;
    const row = (label, cells) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = label;
      tr.appendChild(th);
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = c;
        tr.appendChild(td);
      }
      t.appendChild(tr);
    };
    const pits = side => Array.from({length: np}, (_, i) => {
      const c = side * np + i;
      return (s.tuzdyks || []).includes(c) ? "X" : s.counts[c];
    });
    const store = s.game === "toguz" ? "kazan" : "captured";
    $("counts-title").textContent = s.game === "toguz" ? "Pits and kazans" : "Pits and captured counters";
    row("pit", Array.from({length: np}, (_, i) => i + 1).concat([store]));
    row("North", pits(1).concat([s.counts[2 * np + 1]]));
    row("South", pits(0).concat([s.counts[2 * np]]));
  }
  const lg = $("legend");
  lg.textContent = "";
  for (const [hex, name, meaning, lit] of s.legend || []) {
    const li = document.createElement("li");
    if (lit) li.className = "lit";
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = "#" + hex;
    li.appendChild(sw);
    li.appendChild(document.createTextNode(`${name}: ${meaning}`));
    lg.appendChild(li);
  }
  $("pieces-key").textContent = s.game.startsWith("tobit") && s.app_state !== "menu"
    ? "Pieces: a light disc is White's man, a dark one Black's; a gold ring marks a king (tobit), " +
      "W or B in text. The small numbers are the points the moves are written in (7-14, 8:22)."
    : "";
  $("about-text").textContent = s.about || "";
  $("boardinfo").textContent = (s.port ? `The board's USB serial port: ${s.port} (playboard sync --port ${s.port}). ` : "") +
    (s.flash ? `Its flash: ${s.flash}. ` : "") + (s.library ? `Library: ${s.library}. ` : "") + (s.synced || "");
  const ev = $("events");
  ev.textContent = "";
  for (const line of (s.events || []).slice(-30)) {
    const li = document.createElement("li");
    li.textContent = line;
    ev.appendChild(li);
  }
  ev.scrollTop = ev.scrollHeight;
  $("hand").textContent = s.hand && s.hand.length ? "In hand: " + s.hand.join(" ") : "";
  $("putback").hidden = !(s.hand && s.hand.length);
  $("setup-all").hidden = s.app_state !== "setup";
  const playing = s.app_state === "play" || s.app_state === "setup";
  $("resign").hidden = !playing;
  $("takeback").hidden = !(s.app_state === "play" && s.ply > 0 && s.mode !== "demo");
  $("draw").hidden = !playing || s.mode !== "two";
  showError(s.error || "");
  document.body.setAttribute("data-version", s.version);
  document.body.setAttribute("data-game", s.game);
  document.body.setAttribute("data-ply", s.ply);
}

// Actions go to the board one at a time, in the order they were made (a hand
// lifts, then places: the board must see them in that order).
let queue = Promise.resolve();

function act(body) {
  queue = queue.then(async () => {
    try {
      const s = await api("/api/act", body);
      if (s && s.version !== undefined && (!STATE || s.version >= STATE.version)) render(s);
    } catch (err) {
      showError(String(err.message || err));
    }
  });
  return queue;
}

function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("state", e => {
    $("conn").textContent = "live";
    $("conn").className = "conn live";
    const s = JSON.parse(e.data);
    if (!STATE || s.version >= STATE.version || s.game !== STATE.game) render(s);
  });
  es.onerror = () => {
    $("conn").textContent = "reconnecting";
    $("conn").className = "conn lost";
  };
}

// the level choices of the chosen game (9; Tobit's 11), the choice kept where it fits
function fillLevels() {
  const lv = $("level");
  const g = LAYOUT.games[$("game").value];
  const top = g && g.levels ? g.levels : LAYOUT.levels;
  const was = +lv.value || LAYOUT.default_level;
  lv.textContent = "";
  for (let i = 1; i <= top; i++) {
    const o = document.createElement("option");
    o.value = i;
    o.textContent = i;
    lv.appendChild(o);
  }
  lv.value = Math.min(was, top);
}

async function start() {
  LAYOUT = await api("/api/layout");
  fillLevels();
  $("level").value = LAYOUT.default_level;
  $("game").addEventListener("change", fillLevels);
  const startNew = () => act({op: "new", game: $("game").value, mode: $("mode").value, level: +$("level").value});
  // a game with moves is never abandoned without asking
  $("new").addEventListener("click", () => {
    if (STATE && STATE.app_state === "play" && STATE.ply > 0 && STATE.mode !== "demo") {
      $("confirm-text").textContent = `The game being played has ${STATE.ply} move${STATE.ply === 1 ? "" : "s"}: ` +
        "a new game abandons it (it stays in the board's records, unfinished).";
      $("confirm-new").hidden = false;
      return;
    }
    startNew();
  });
  $("confirm-yes").addEventListener("click", () => { $("confirm-new").hidden = true; startNew(); });
  $("confirm-no").addEventListener("click", () => { $("confirm-new").hidden = true; });
  $("takeback").addEventListener("click", () => act({op: "takeback"}));
  $("staff").addEventListener("click", () => act({op: "staff"}));
  $("putback").addEventListener("click", () => act({op: "putback"}));
  $("setup-all").addEventListener("click", () => act({op: "setup"}));
  $("resign").addEventListener("click", () => act({op: "resign"}));
  $("menu").addEventListener("click", () => act({op: "menu"}));
  $("draw").addEventListener("click", () => act({op: "draw"}));
  $("engine-move").addEventListener("click", () => act({op: "engine_move"}));
  $("sync").addEventListener("click", () => act({op: "sync"}));
  $("export").addEventListener("click", async () => {
    try {
      const text = await api("/api/record");
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
      a.download = `playboard-${STATE ? STATE.game : "game"}.pgn`;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      showError(String(err.message || err));
    }
  });
  render(await api("/api/state"));
  connect();
}

start().catch(err => showError("can't start: " + (err.message || err)));
