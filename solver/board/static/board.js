// stich board: the page. State lives here (the board's id, the moves, the cursor into them, the objective, the
// view mode); the server answers each question from the board's start and the moves, so every request stands alone.
"use strict";

const S = {
  client: Math.random().toString(36).slice(2, 12),
  board: null, moves: [], cursor: 0, objective: null, mode: "dd",
  view: null, values: null, curve: null, curveKey: null, curveWidth: null, tableWidth: null, games: [],
  requests: {},  // kind -> AbortController of the request in flight
  graphDot: null,  // the graph's point the arrow keys chose (its one tab stop)
  boardVariant: {},  // the board's --variant flags, by game (/api/start)
  server: null,  // the token of this start of the server (/api/start): a reload keeps uploads of the same start only
  bestAhead: 0,  // the presses of space kept while the values were searched, each a best card once they are in
  stepError: false,  // the error shown is a step's (showStepError): the next position shown takes it away
  stepStopping: false,  // that error is the server's refusal as it stops (its "stopping"): nothing is asked again
  shownAt: null,  // the cursor of the table shown (S.view): behind S.cursor while the next position is on its way
};
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
  S.stepError = false;
}

// A step's error (a position, its values) is about that position: the next one shown takes it away, where one stayed
// over a table that had moved on. What the start or an upload said stays until another board is opened.
function showStepError(message, stopping = false) {
  showError(message);
  S.stepError = Boolean(message);
  S.stepStopping = Boolean(message) && stopping;
  if (message) S.bestAhead = 0;  // the spaces kept were for a line that stopped here
}

// "thinking…" is for the eye (aria-hidden, outside the status region), not to be read out at every card: the
// regions being filled say so with aria-busy instead, which holds their news until the result is in.
function busy(kind, on) {
  if (on) busy.kinds.add(kind); else busy.kinds.delete(kind);
  $("thinking").hidden = busy.kinds.size === 0;
  $("status").setAttribute("aria-busy", String(busy.kinds.has("values")));
  $("odds").setAttribute("aria-busy", String(busy.kinds.has("odds")));
  $("graph").setAttribute("aria-busy", String(busy.kinds.has("curve")));
  document.body.dataset.busy = busy.kinds.size ? "yes" : "no";
}
busy.kinds = new Set();

// One request per kind at a time: a newer one aborts the older (the server stops its search too).
async function ask(kind, url, body, { raw = false } = {}) {
  if (S.requests[kind]) S.requests[kind].abort();
  const control = new AbortController();
  S.requests[kind] = control;
  const options = { method: body === undefined ? "GET" : "POST", signal: control.signal, headers: {} };
  if (body instanceof FormData) options.body = body;
  else if (body !== undefined) {
    options.body = JSON.stringify(Object.assign({ client: S.client }, body));
    options.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {  // no answer at all
    throw aborted(error) ? error : noAnswer();
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    let field = null;  // the form field at fault (the Deal dialog's), where the server names one
    let stopping = false;  // refused because the server is stopping (app.py's "stopping")
    try {
      const answer = await response.json();
      message = answer.error || answer.reason || message;
      field = answer.field || null;
      stopping = answer.stopping === true;
    } catch (e) { /* not JSON */ }
    const error = new Error(message);
    error.status = response.status;
    error.field = field;
    error.stopping = stopping;
    throw error;
  }
  return raw ? response : response.json();
}

const aborted = (error) => error && error.name === "AbortError";

// A server that stopped, or a connection that dropped, before or during an answer: the browser's own words ("Failed
// to fetch", "network error") say nothing to a player.
const noAnswer = () => new Error(`no answer from the board at ${location.host}: is stich board still running? `
  + "Start it again and reload this page");

// The JSON lines of a streamed answer, each as it arrives.
async function* jsonLines(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let read;
    try { read = await reader.read(); } catch (error) { throw aborted(error) ? error : noAnswer(); }
    const { done, value } = read;
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      yield JSON.parse(line);
    }
  }
}
const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

// --- opening records ----------------------------------------------------------------------------------------------

// The list is the page's one record of what it opened: a reload's memory is read off it (remember), so an upload,
// paste or deal listed once is kept once. `named`: a file named on the command line (the server lists it again).
function addRecords(boards, group, named = false) {
  const select = $("records");
  let optgroup = [...select.querySelectorAll("optgroup")].find((g) => g.label === group);
  for (const board of boards) {
    if (select.querySelector(`option[value="${board.id}"]`)) continue;  // the same text again: its boards are listed
    // the group made for a record it gets: a named file uploaded under its name adds no empty one
    if (!optgroup) {
      optgroup = el("optgroup", { label: group });
      if (!named) optgroup.dataset.opened = "yes";
      select.append(optgroup);
    }
    const kept = { id: board.id, label: board.label, game: board.game, contract_words: board.contract_words,
      moves: board.moves, fingerprint: board.fingerprint, record_fingerprint: board.record_fingerprint };
    optgroup.append(el("option", { value: board.id, "data-moves": JSON.stringify(board.moves),
      "data-label": board.label, "data-fingerprint": board.fingerprint,
      "data-record-fingerprint": board.record_fingerprint, "data-record": JSON.stringify(kept) },
    `${board.label}: ${board.game} ${board.contract_words}`));  // the rule book's name, "Wenz Tout"
  }
}

// The record `id` with its own Play section, or with `moves` and the `cursor` into them (a reload's).
function openBoard(id, moves = null, cursor = null) {
  const option = [...$("records").options].find((o) => o.value === id);
  S.board = id;
  S.moves = moves || (option ? JSON.parse(option.dataset.moves) : []);
  S.cursor = cursor === null ? S.moves.length : cursor;
  S.objective = null;
  S.bestAhead = 0;
  S.shownAt = null;
  S.curveKey = null;
  if (option) $("records").value = id;
  showError("");
  refresh();
}

// Opens what an upload, a paste or a deal gave; a refusal goes to `refused` (the page's bar unless the caller says
// it where it was asked). True once opened.
async function loaded(promise, group, refused = (error) => showError(error.message)) {
  try {
    const answer = await promise;
    addRecords(answer.boards, group);
    openBoard(answer.open);
    // the records that are not boards, each with its line and column: the others are open
    if (answer.refused && answer.refused.length) showError(answer.refused.join("\n"));
    return true;
  } catch (error) {
    if (!aborted(error)) refused(error);
    return false;
  }
}

// --- the table ------------------------------------------------------------------------------------------------------

// A card's tooltip: its token, and for a card the game calls by a name (Kratzen's Weli) that name and what it is
const cardTitle = (card) => card.label ? `${card.name}: the ${card.label}, ${card.about}` : card.name;

function cardNode(card, extra = "") {
  // an image with a name for a screen reader, a button where the card can be played (renderTable)
  // its name in words as the server sends it ("Tarock 21, the Mond (T21)": a face alone reads "X I X" or "G ♥")
  const node = el("div", { class: `card c-${card.colour} ${card.label ? "named" : ""} ${extra}`, role: "img",
    "aria-label": card.spoken, dataset: { card: card.name, spoken: card.spoken }, title: cardTitle(card) },
  el("span", { class: "face" }, card.face));
  if (card.sign) node.append(el("span", { class: "sign" }, card.sign));
  if (card.label) node.append(el("span", { class: "label" }, card.label));  // the Weli says so on its face
  return node;
}

// A seat's name for a screen reader, from the view: "Seat 4 · defender · 0 tricks · 0 points, to play"; where every
// seat plays for itself "Seat 2 · 1 trick (+3 chips)", the chips with their unit.
function seatName(view, hand, role) {
  const chips = seatChips(view, hand.seat, true);
  const taken = view.per_seat ? plural(hand.tricks, "trick") + (chips ? ` (${chips})` : "")
    : `${plural(hand.tricks, "trick")} · ${plural(hand.points, "point")}`;
  const turn = view.to_move === hand.seat ? ", to play" : "";
  return [`Seat ${hand.seat}`, role, taken].filter(Boolean).join(" · ") + turn;
}

// The arrow keys among the cards to play (the one tab stop moves with the focus); Home and End to the first and last.
const CARD_STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

function cardKeys(card, key) {
  if (!(key in CARD_STEPS) && key !== "Home" && key !== "End") return false;
  const cards = [...card.closest(".hand").querySelectorAll(".card.legal")];
  const at = cards.indexOf(card);
  const to = key === "Home" ? 0 : key === "End" ? cards.length - 1
    : (at + CARD_STEPS[key] + cards.length) % cards.length;  // round from the last card to the first
  card.tabIndex = -1;
  cards[to].tabIndex = 0;
  cards[to].focus();
  S.rovingCard = cards[to].dataset.card;
  return true;
}

function seatPlace(seat, seats) {
  // seat 1 at the bottom, the others clockwise around an ellipse (in playing order)
  const angle = Math.PI / 2 + (seat - 1) * 2 * Math.PI / seats;
  return { x: Math.cos(angle), y: Math.sin(angle) };
}

// Whether the sides are shown: double dummy, or in single dummy when the seat to move knows its partner's seat (the
// called card was played, or it is the partner itself); a Normal game's forehand does not know hers.
function sidesKnown(view) {
  return S.mode === "dd" || view.partner_public || view.partner.includes(view.to_move);
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function roleOf(view, hand) {
  if (hand.declarer) return view.declarer_title;  // the game's own word: Kratzen's attacker
  if (view.per_seat) return "";
  if (!sidesKnown(view)) return "";
  return view.partner.includes(hand.seat) ? "partner" : "defender";
}

const rootFontSize = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

function renderTable() {
  const view = S.view, table = $("table");
  table.querySelectorAll(".seat").forEach((node) => node.remove());
  const viewer = view.to_move || view.declarer;
  const rooms = [];  // how far the centre's lines may reach each side: to the lower side seats' inner edges
  for (const hand of view.hands) {
    const place = seatPlace(hand.seat, view.seats);
    const side = Math.abs(place.x) > 0.5 && hand.cards.length > 5;  // a hand at the table's side: in two rows
    const seatNode = el("div", { class: "seat" + (view.to_move === hand.seat ? " to-move" : "") + (side ? " side" : ""),
      id: `seat-${hand.seat}`, dataset: { seat: hand.seat } });
    const left = `calc(50% + ${place.x.toFixed(4)} * var(--seat-x))`;  // 35% of the width, a short window's 42%
    seatNode.style.left = left;
    // from the middle towards the table's edge: 39% of its height, a short window's table to half a seat's height
    // from its edge (--seat-y)
    seatNode.style.top = `calc(50% + ${place.y.toFixed(4)} * var(--seat-y))`;
    const role = roleOf(view, hand);
    const chips = seatChips(view, hand.seat);
    // a count's word spelled out, as Kratzen's "1 trick", but for a short window's side seats, whose spelled-out
    // label reached into the trick: there the style sheet shows the short word instead ("3 tr · 45 pts")
    const counted = (count, word, short) => [`${count} `,
      el("span", { class: "long" }, count === 1 ? word : `${word}s`), el("span", { class: "short" }, short)];
    const taken = view.per_seat ? [plural(hand.tricks, "trick") + (chips ? ` (${chips})` : "")]
      : [...counted(hand.tricks, "trick", "tr"), " · ", ...counted(hand.points, "point", "pts")];
    const who = el("div", { class: "who", title: chipsTitle(view, hand.seat) }, `Seat ${hand.seat}`,
      el("span", { class: "role" }, role ? ` · ${role}` : ""), " · ", ...taken);
    seatNode.append(who);
    seatNode.setAttribute("role", "group");  // a screen reader names the hand by its seat, and says whose turn it is
    seatNode.setAttribute("aria-label", seatName(view, hand, role));
    const handNode = el("div", { class: "hand" });
    // half the cards a row (the cards' width is the style sheet's: it follows the browser's font size)
    if (side) handNode.style.width = `calc(${Math.ceil(hand.cards.length / 2)} * (var(--card-width) + 3px) - 3px)`;
    const hidden = S.mode === "sd" && hand.seat !== viewer;
    for (const card of hand.cards) {
      if (hidden) {
        handNode.append(el("div", { class: "card back", role: "img", "aria-label": "a hidden card" }));
        continue;
      }
      const node = cardNode(card, card.legal ? "legal" : "");
      if (card.legal) {  // a button for the keyboard too: the arrow keys reach it (cardKeys), Enter or space plays it
        node.addEventListener("click", () => play(card.name));
        node.tabIndex = -1;
        node.setAttribute("role", "button");
      }
      handNode.append(node);
    }
    const legal = [...handNode.querySelectorAll(".card.legal")];
    if (legal.length) {
      // one tab stop for the cards to play (a roving tabindex, as WAI-ARIA's toolbar pattern has it): the card last
      // chosen with the arrow keys, else the first
      (legal.find((node) => node.dataset.card === S.rovingCard) || legal[0]).tabIndex = 0;
      handNode.setAttribute("role", "toolbar");
      handNode.setAttribute("aria-label", `the cards seat ${hand.seat} can play`);
    }
    seatNode.append(handNode);
    table.append(seatNode);
    if (Math.abs(place.x) > 0.5) {
      // a seat at the table's side stays on the table however narrow it is (a tablet's): its middle at least half its
      // width (its hand's or its label's, measured; in rem, as they grow with the font) and a margin from the edge;
      // a guessed label of 13rem put a short window's six-seat hands on the pot line
      const halfWidth = seatNode.offsetWidth / 2 / rootFontSize();  // rem
      const half = `${(halfWidth + 0.5).toFixed(3)}rem`;
      seatNode.style.left = `clamp(${half}, ${left}, calc(100% - ${half}))`;
      // a side seat below the middle is level with the centre's lines (five or six seats): the lines end a quarter rem
      // short of its inner edge, where the seat is from the middle less its half width
      if (place.y > 0.01) {
        const inner = `min(${Math.abs(place.x).toFixed(4)} * var(--seat-x), 50% - ${half})`;
        rooms.push(`calc(${inner} - ${(halfWidth + 0.25).toFixed(3)}rem)`);
      }
    }
  }
  // the centre as wide as the table leaves it between those seats (its 17.5rem at most): at 1,024 pixels held sideways
  // or 641-720 upright a fixed 17.5rem lay under six seats' side hands
  if (rooms.length) table.style.setProperty("--centre-room", `min(${[...new Set(rooms)].join(", ")})`);
  else table.style.removeProperty("--centre-room");
  S.tableWidth = Math.round(table.getBoundingClientRect().width);  // the layout the side seats were measured in
  if (S.focusNext) {  // a card played from the keyboard: the keys go on with the next seat's cards
    S.focusNext = false;
    // after the last card the table itself, not the page's start: Backspace there takes the card back to its seat
    (table.querySelector('.card.legal[tabindex="0"]') || table).focus();
  }
  const trick = $("trick");
  trick.replaceChildren();
  let shown = view.trick, winner = null;
  if (!shown.length && view.history.length) {  // the last trick stays on the table until the next card
    const last = view.history[view.history.length - 1];
    shown = last.cards; winner = last.winner;
  }
  // the trick's cards around the centre, each towards its seat: five or six seats need a wider ring, or the cards
  // of neighbouring seats cover each other
  // (in rem, as the cards are: a larger font makes larger cards and a wider ring)
  const ring = view.seats > 4 ? { x: 4.375, y: 4.125 } : { x: 3.875, y: 3 };
  table.style.setProperty("--trick-y", `${ring.y}rem`);
  for (const card of shown) {
    const place = seatPlace(card.seat, view.seats);
    const node = cardNode(card, card.seat === winner ? "winner" : "");
    node.dataset.seat = card.seat;  // a phone stacks the hands: each card of the trick says whose it is
    node.title = `seat ${card.seat}: ${cardTitle(card)}`;
    node.setAttribute("aria-label", `seat ${card.seat} played ${card.spoken}` +
      (card.seat === winner ? ", which won the trick" : ""));
    node.style.left = `${place.x * ring.x}rem`;
    node.style.top = `${place.y * ring.y}rem`;
    trick.append(node);
  }
  const centre = $("centre");
  centre.replaceChildren();
  const settled = view.settlement;  // what it pays, as stich score says it, once the play settles the deal
  if (view.is_over) centre.append(el("div", {}, "The deal is over."));
  else centre.append(el("div", {}, `Seat ${view.to_move} to play`));
  if (settled) {
    // settled before the end (a lost Tout ends the deal at its lost trick): the score's note says so
    if (!view.is_over) for (const note of settled.notes) centre.append(el("div", { class: "hint settled" }, note));
    const { payments, pot } = settlementText(view, false);
    centre.append(el("div", { class: "hint", id: "payments" }, `pays (${view.score_unit}): ${payments}`,
      // kept on one line: on a phone "48" was left alone on the next
      ...(pot === null ? [] : ["\u00a0· ", el("span", { class: "pot-change" }, pot)])));
  }
  if (winner !== null && !view.is_over) centre.append(el("div", { class: "hint" }, `seat ${winner} won the last trick`));
  if (view.pot && !view.is_over) centre.append(el("div", Object.assign({ class: "pot", id: "pot" },
    view.pot.start || view.pot.given ? {} : { title: `pot ${POT_NONE}` }), potText(view.pot)));
}

const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

// A Kratzen seat's chips beside its tricks (RULES.md 3.4): in play what its tricks took from the pot ("+6"); once the
// deal is settled its payment, which also counts a missed target paid into the pot ("net -2"): the tricks' "+6"
// beside a payment of -2 was read as the payment. "" where the deal pays no chips.
function seatChips(view, seat, unit = false) {
  if (!view.pot || !view.pot.start) return "";
  const chips = (n) => unit ? ` ${Math.abs(n) === 1 ? "chip" : "chips"}` : "";
  if (view.settlement) {
    const payment = view.settlement.payments[seat - 1];
    return `net ${signed(payment)}${chips(payment)}`;
  }
  const won = view.pot.won[seat - 1];
  return view.pot.per_trick ? `+${won}${chips(won)}` : "";
}

// The seat label's tooltip once a Kratzen deal is settled: how the payment adds up
function chipsTitle(view, seat) {
  if (!view.pot || !view.pot.start || !view.settlement) return "";
  const won = view.pot.won[seat - 1], paid = won - view.settlement.payments[seat - 1];
  return `its tricks took ${plural(won, "chip")} from the pot` +
    (paid ? `; its missed target paid ${plural(paid, "chip")} into it` : "") +
    `: ${signed(view.settlement.payments[seat - 1])} in all`;
}

// What a Kratzen record without a pot is told, in the contract panel and the pot line's tooltip: its pot is 0, as
// stich show and score say it (docs/scoring.md), with the way to give one
const POT_NONE = "0 chips, no [Pot] tag: a record's [Pot] tag, or the Deal form's pot, gives one";

// The pot in the middle of a Kratzen table: what is left of it and what a trick takes from it (RULES.md 3.4)
function potText(pot) {
  const left = pot.left === pot.start ? `pot ${plural(pot.start, "chip")}` : `pot ${pot.left} of ${pot.start} chips`;
  // what it pays in stich show's and score's words; the way to a pot of 0 is the contract panel's (POT_NONE): on
  // the table it sat on seat 1's label (two lines more). A no-break space before "·": a wrapped line starts with
  // what the pot pays, not with the dot
  return `${left}\u00a0· ${pot.pays}`;
}

// A side's figure in the contract panel, its number and unit on one line ("0 card points" broke after its 0 at 320
// pixels); a payment's "net" may stand above its chips, where a pot of millions leaves no room beside them.
function figureCell(text) {
  const net = text.startsWith("net ") ? "net " : "";
  return el("td", {}, net, el("span", { class: "figure" }, text.slice(net.length)));
}

// Variant flags' text with a line break allowed after each "=" and "_" (<wbr>): a narrow panel breaks
// "sagotrick=mond_skus_pagat" between its words, where it broke it anywhere ("mond_sk" / "us_pagat")
function flagWords(text) {
  return text.split(/(?<=[=_])/).flatMap((part, index) => (index ? [el("wbr"), part] : [part]));
}

function renderContract() {
  const view = S.view;
  const box = $("contract");
  // the sides' tricks and card points would give a secret partner away (the board audit): each seat's are on the table
  const rows = !view.per_seat && !sidesKnown(view) ? [] : view.sides.map((side) => el("tr", {},
    el("td", {}, view.per_seat ? side.name : `${side.name} (${side.seats.join("+")})`),
    figureCell(plural(side.tricks, "trick")),
    figureCell(side.points !== null ? plural(side.points, "card point") : seatChips(view, side.seats[0], true))));
  const partner = view.per_seat ? null : !view.partner.length ? "none (alone)"
    : sidesKnown(view) ? `seat ${view.partner.join(", ")}` : `not known to seat ${view.to_move} yet`;
  // the suit's sign beside the contract's letter ("Trump G ♠"), as the cards show it
  const suit = view.contract_suit;
  const contract = el("span", {}, `${view.game} ${view.contract_words}`,
    suit ? el("span", { class: `contract-sign c-${suit.colour}`, id: "contract-sign" }, ` ${suit.sign}`) : "");
  const facts = [["Contract", contract], [capital(view.declarer_title), `seat ${view.declarer}`]];
  // the card the bid called the partner by (Zwanzigerrufen's tarock, a Rufer's ace): the bid says it aloud
  if (view.called) facts.push(["Called", view.called.spoken]);
  if (partner) facts.push(["Partner", partner]);
  if (view.announcements) facts.push(["Announced", view.announcements]);
  // the flags this deal is played under, and where the board's --variant touched them (over a record's own
  // [Variant], a named file's or an upload's alike, as in every command)
  if (view.variant || view.variant_note) {
    facts.push(["Variant", el("span", {}, ...flagWords(view.variant || "the rules' defaults"),
      view.variant_note ? el("span", { class: "hint", id: "variant-note" }, ...flagWords(` · ${view.variant_note}`))
        : "")]);
  }
  // the board's own --variant, each game's: every deal of that game it serves is played so
  const boardFlags = Object.entries(S.boardVariant).map(([game, flags]) => `${game} ${flags}`).join("; ");
  if (boardFlags) {
    facts.push(["Board's --variant", el("span", { id: "board-variant" }, ...flagWords(boardFlags),
      el("span", { class: "hint" }, " · every deal of its game, uploads and deals too, over a record's own " +
        "[Variant]"))]);
  }
  // how to give a pot, where the record gave none (a [Pot "0"] tag, the Deal form's 0, is a pot of 0 on purpose)
  if (view.pot && !view.pot.start && !view.pot.given) facts.push(["Pot", POT_NONE]);
  // a [Pot] that does not read: the deal has no pot and nothing is settled, only the fault is said (stich check's)
  if (view.pot_error) facts.push(["Pot", `none · ${view.pot_error}`]);
  document.title = `${view.label} · stich board`;  // two tabs of the board say their deals in the tab bar
  box.replaceChildren(el("div", { class: "title", id: "title" }, view.label),
    view.event ? el("div", { class: "hint" }, view.event) : "",
    el("table", {}, ...facts.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", { colspan: 2 }, v))), ...rows));
}

function renderObjectives() {
  const select = $("objective");
  const names = S.view.objectives.map((o) => o.name);
  if (!S.objective || !names.includes(S.objective)) S.objective = S.view.default_objective;
  // each shown by the name players use ("Schneider against"), sent by its identifier
  select.replaceChildren(...S.view.objectives.map((o) =>
    el("option", { value: o.name, title: o.description },
      o.yes_no && !S.view.per_seat ? `${o.title} (yes/no)` : o.yes_no ? `${o.title} (count, target)` : o.title)));
  select.value = S.objective;
}

// The play list: each card a step of the line to return to, by a click or from the keyboard (one tab stop, the
// card shown; Enter or space goes to a card, ↑ ↓ a trick back or on, ← → Home End step as elsewhere, and the focus
// follows the card shown; drawn again, the list keeps the focus it had).
function renderPlay() {
  const list = $("play");
  const focused = list.contains(document.activeElement);
  list.replaceChildren();
  const seats = S.view.seats;
  const grades = {};  // single dummy grades nothing: a grade is double dummy, it knows the hidden hands
  if (S.curve && S.mode !== "sd") for (const card of S.curve.cards) grades[card.number] = card;
  // who led each trick shown: the graph's cards know, and in single dummy the table's tricks (a board starts at the
  // deal's first lead, so the line's trick k is the table's k-th, or the one on the table)
  const leaderOf = (index) => {
    if (grades[index + 1]) return grades[index + 1].seat;
    if (S.mode !== "sd") return null;
    const trick = Math.floor(index / seats);
    return trick < S.view.history.length ? S.view.history[trick].leader : S.view.leader;
  };
  let item = null;
  S.moves.forEach((name, index) => {
    if (S.mode === "sd" && index >= S.cursor) return;  // single dummy: the line's later cards would show the hands
    if (index % seats === 0) {
      item = el("li"); list.append(item);
      const lead = leaderOf(index);
      if (lead) item.append(el("span", { class: "leader", title: `seat ${lead} led` }, `S${lead}`), " ");
    }
    const classes = [index + 1 === S.cursor ? "current" : "", index >= S.cursor ? "ahead" : "",
      grades[index + 1] ? grades[index + 1].grade : ""].join(" ");
    const grade = grades[index + 1] ? grades[index + 1].grade : "ok";
    const about = grades[index + 1] ? describeGrade(grades[index + 1]) : name;
    const stop = index + 1 === S.cursor || (S.cursor === 0 && index === 0);
    const span = el("span", { class: `${classes} move`, title: about, role: "button", tabindex: stop ? "0" : "-1",
      "aria-label": `card ${index + 1}: ${grades[index + 1] ? about : name}${index >= S.cursor ? ", not yet played" : ""}`,
      dataset: { move: index + 1 }, onclick: () => goTo(index + 1), onmousedown: leaveFocus }, name);
    if (index + 1 === S.cursor) span.setAttribute("aria-current", "step");
    if (GRADE_MARKS[grade]) {  // the grade in a sign too, not in the underline's colour alone
      span.append(el("abbr", { class: "grade", title: grade }, GRADE_MARKS[grade]));
    }
    item.append(span, " ");
  });
  if (focused) list.querySelector('.move[tabindex="0"]')?.focus();
}

// A pointer on a play-list card takes no focus there and leaves none elsewhere, as on text: Space then plays a best
// card and the arrows step through the play, not the list's trick by trick (the keyboard's Tab still reaches it).
function leaveFocus(e) {
  e.preventDefault();
  document.activeElement?.blur();
}

// The grades as annotators mark moves (chess's ?!, ? and ??), for the eye that does not tell the colours apart
const GRADE_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const DOT_SIZES = { ok: 3.2, inaccuracy: 4.2, mistake: 5.2, blunder: 6.4 };  // and in the graph's dots, by size

function describeGrade(card) {
  let text = `${card.card} by seat ${card.seat}: ${card.grade}`;
  // the measure is a plural ("tricks", "chips", "game units"): one trick's cost said "cost 1 tricks"
  if (card.cost) text += `, cost ${card.cost} ${Math.abs(card.cost) === 1 ? card.measure.replace(/s$/, "") : card.measure}`;
  const handed = card.bonuses_handed_over || [];
  const thrown = card.bonuses_lost.filter((name) => !handed.includes(name));
  // a Kratzen seat's one bonus is its own trick target, which it misses (its JSON name is "target")
  const lost = thrown.filter((name) => name !== "target");
  // the bonuses by the names players use (the API's titles; the identifiers are for programs)
  const titled = (names) => names.map((name) => card.bonus_titles?.[name] ?? name).join(", ");
  if (thrown.includes("target")) text += ", missed target";
  if (lost.length) text += `, lost ${titled(lost)}`;
  if (handed.length) text += `, handed over ${titled(handed)}`;
  if (card.grade !== "ok") text += ` (best: ${card.best_cards.join(" ")})`;
  return text;
}

// The buttons say they do nothing now with aria-disabled, not disabled: a disabled button loses the focus, so ★ best
// pressed with Enter dropped it to the page while the next values were searched, and ◀ at the start did too.
const unavailable = (id) => $(id).getAttribute("aria-disabled") === "true";
const BEST_TITLE = "Play a best card: step through the optimal line (space)";

function renderButtons() {
  const available = (id, on) => $(id).setAttribute("aria-disabled", on ? "false" : "true");
  for (const id of ["first", "undo"]) available(id, S.cursor > 0);
  for (const id of ["redo", "last"]) available(id, S.cursor < S.moves.length);
  const again = canAskAgain();  // no values to play by: the button asks them again, as space does
  const playable = afterRefusal() ? Boolean(bestOfShownTable())
    : S.values && S.values.best && S.values.best.length && !S.view.is_over && S.mode !== "sd";
  available("best", again || playable);
  $("best").textContent = again ? "★ ask again" : "★ best";
  $("best").title = again ? "Ask the values of this position again (space)" : BEST_TITLE;
  $("best").setAttribute("aria-label", again ? "Ask the values again" : "Play a best card");
  $("keys-best").hidden = S.mode === "sd";  // single dummy values no card best: space does nothing there
  $("keys-graph").hidden = S.mode === "sd";  // nor draws a graph to choose a point in
}

// --- values on the cards --------------------------------------------------------------------------------------------

// What an objective's numbers count (the board audit: "score: 4 for 1+3" said neither what nor whose).
const UNITS = { points: "card points", tricks: "tricks" };
const unitOf = (objective) => objective === "score" ? S.view.score_unit : UNITS[objective];
const amount = (objective, total) => unitOf(objective) ? `${total} ${unitOf(objective)}` : String(total);
const seatsText = (seats) => `${String(seats).includes("+") ? "seats" : "seat"} ${seats}`;

function valueText(values, total) {
  // a count with a target (a seat's tricks) shows the count, coloured by the target; Valat and the like yes or no
  if (values.yes_no && !S.view.per_seat) return total >= values.target ? "✓" : "✗";
  return String(total);
}

// A yes/no badge's sign for good or bad for the player to move, beside its colour (the line of values says which is
// which): colour alone says nothing to an eye that does not tell green from red
const MOODS = { good: "▲", bad: "▼" };

function goodFor(values, total) {
  // a yes/no answer is good or bad for the player to move: the objective's side wants it met, the other side not
  return (total >= values.target) === Boolean(values.mover_maximises);
}

function markCard(name, total, values, best) {
  const node = document.querySelector(`#seat-${S.view.to_move} .card[data-card="${name}"]`);
  if (!node) return;
  node.querySelector(".value")?.remove();
  const mood = values.yes_no ? (goodFor(values, total) ? "good" : "bad") : null;
  const badge = el("span", { class: "value" + (mood ? ` ${mood}` : "") }, valueText(values, total));
  if (mood) badge.append(el("span", { class: "mood" }, MOODS[mood]));  // good or bad in a sign, not in colour alone
  if (values.objective) badge.title = `${name}: ${values.yes_no && !S.view.per_seat ? valueText(values, total)
    : amount(values.objective, total)} for ${seatsText(values.maximiser)}`;
  node.append(badge);
  node.classList.toggle("best", best);
  // the value and the best card, which the eye takes from the badge and the outline, said in the card's name
  const said = values.yes_no && !S.view.per_seat ? (total >= values.target ? "yes" : "no")
    : amount(values.objective, total).replace(/^(-?1) (.+)s$/, "$1 $2");  // "1 trick", not "1 tricks"
  const colour = values.yes_no ? `, ${goodFor(values, total) ? "good" : "bad"} for seat ${S.view.to_move}` : "";
  node.setAttribute("aria-label", `${node.dataset.spoken}: ${said}` +
    (values.maximiser ? ` for ${seatsText(values.maximiser)}` : "") + colour + (best ? ", a best card" : ""));
  node.dataset.value = total;
}

function renderValues() {
  const values = S.values;
  const summary = $("summary");
  if (!values) {
    // single dummy values no card: the line says the odds once they are in (set only when it changes, or a screen
    // reader hears them again at every redraw)
    const said = S.mode === "sd" ? oddsWords(S.odds) : "";
    if (summary.textContent !== said) summary.textContent = said;
    summary.title = "";
    renderButtons();
    return;
  }
  if (values.kind === "values") {
    if (S.mode === "dd" && !S.view.is_over) {
      for (const [name, total] of Object.entries(values.cards)) markCard(name, total, values, values.best.includes(name));
    }
    const made = values.total >= values.target ? "yes" : "no";
    const what = !values.yes_no ? `${values.title}: ${amount(values.objective, values.total)}`
      : S.view.per_seat ? `${values.title}: ${values.total} (target ${values.target}: ${made})`
      : `${values.title}: ${made}`;
    // the numbers on the cards are the objective's side's: say when the player to move wants them low (a yes/no
    // answer is no number: that player plays against it, "the least" of a ✓/✗ read as nothing)
    const wants = values.mover_maximises || S.view.is_over ? ""
      : ` · seat ${S.view.to_move} plays ${values.yes_no && !S.view.per_seat ? "against it" : "for the least"}`;
    const moods = values.yes_no && !S.view.is_over
      ? ` · ${MOODS.good} good, ${MOODS.bad} bad for seat ${S.view.to_move}` : "";
    // the search's time is for the eye: hidden from a screen reader, to which the status region would say it at
    // every card
    const took = values.seconds === null ? "" : ` · ${values.seconds < 1 ? Math.round(values.seconds * 1000) + " ms"
      : values.seconds.toFixed(1) + " s"}`;
    summary.replaceChildren(...(S.mode === "sd" ? [] : [`${what} for ${seatsText(values.maximiser)}${wants}${moods}`,
      el("span", { class: "took", "aria-hidden": "true" }, took)]));
    summary.title = values.description;
  } else if (values.kind === "slow") {
    summary.textContent = `a long search: card by card (${Object.keys(values.partial || {}).length}/${values.cards})`;
  } else if (values.kind === "stopped" || values.kind === "error") {
    const again = canAskAgain();  // said where ★ asks again
    summary.textContent = `${values.reason || values.error}${again ? " · ★ ask again searches once more" : ""}`;
  }
  renderButtons();
}

async function loadValues() {
  S.ready = false;
  S.values = null;
  const asked = S.cursor;
  const position = { board: S.board, moves: S.moves.slice(0, asked), objective: S.objective };
  busy("values", true);
  let mine = null;
  try {
    const answer = ask("values", "/api/values", position, { raw: true });
    mine = S.requests.values;
    const partial = {};
    for await (const message of jsonLines(await answer)) {
      if (mine.signal.aborted) return;  // a line read before the abort: the values of a position left
      if (message.kind === "card") {
        partial[message.card] = message.value;
        if (S.mode === "dd") markCard(message.card, message.value, S.values || {}, false);
        S.values = Object.assign(S.values || {}, { partial });
      } else if (message.kind === "slow") {
        S.values = Object.assign(message, { partial });
      } else if (message.kind !== "thinking") {
        S.values = message;
        // ready for the table shown only: values of another position would play (kept spaces) from the wrong one
        if (S.requests.values === mine && S.cursor === asked && S.shownAt === asked) {
          S.ready = true;
          if (S.stepError) showError("");  // a values error before (an objective asked again) is outlived
          if (S.clicked) { S.roundTrip = performance.now() - S.clicked; S.clicked = null; }
          // only values choose a best card: a search stopped or refused drops the kept spaces and says why
          if (S.bestAhead && message.kind === "values") { playBestAhead(); return; }
          S.bestAhead = 0;
        }
      }
      renderValues();
    }
  } catch (error) {
    if (!aborted(error)) showStepError(error.message, error.stopping);
  } finally {
    if (S.requests.values === mine) { busy("values", false); renderButtons(); }
  }
}

// --- the evaluation graph -------------------------------------------------------------------------------------------

async function loadCurve(again = true) {
  // single dummy draws no graph (renderCurve): not asked, and one on its way is stopped (the server stops its search
  // too), the odds have the analysis thread to themselves
  if (S.mode === "sd") {
    if (S.requests.curve) S.requests.curve.abort();
    busy("curve", false);
    $("curve-state").textContent = "";
    renderCurve(); renderPlay(); return;
  }
  const by = S.objective === "score" ? "score" : "points";  // the graph follows the score while cards are valued by it
  const key = `${S.board}|${by}|${S.moves.join(" ")}`;
  if (S.curve && key === S.curveKey) { renderCurve(); return; }
  S.curve = null;
  S.curveKey = null;  // the key of the graph shown, none now: a question still on its way is asked again
  renderCurve();
  busy("curve", true);
  $("curve-state").textContent = "computing…";
  const asked = ask("curve", "/api/curve", { board: S.board, moves: S.moves, objective: by });
  const mine = S.requests.curve;
  try {
    S.curve = await asked;
    S.curveKey = key;
    $("curve-state").textContent = "";
  } catch (error) {
    if (aborted(error)) return;
    // the card values of the same click stop the graph of the moves before it: if they stopped this one, ask again
    if (again && error.status === 409 && error.message.startsWith("replaced") && S.requests.curve === mine) {
      return loadCurve(false);
    }
    // a graph the time limit stopped says so (a newer question's stop says nothing: its own graph follows)
    $("curve-state").textContent = error.status === 409 && error.message.startsWith("replaced") ? ""
      : error.status === 409 ? `stopped: ${error.message}` : error.message;
  } finally {
    if (S.requests.curve === mine) busy("curve", false);
  }
  renderCurve();
  renderPlay();
}

// a window turned or resized into another width seats the table again: the side seats' clamps and the centre's room
// were measured in the layout before (a phone turned sideways kept the upright layout's 12rem clamp)
new ResizeObserver(() => {
  const width = Math.round($("table").getBoundingClientRect().width);
  if (!S.view || !width || width === S.tableWidth) return;
  const focused = document.activeElement?.closest?.("#table") ? document.activeElement.dataset.card : null;
  renderTable(); renderValues(); markOdds();  // the cards drawn anew carry their values and odds again
  if (focused) $("table").querySelector(`.card[data-card="${focused}"]`)?.focus();
}).observe(document.getElementById("table"));

// the graph's margins (its numbers' on the left) and the least width of a point's column: WCAG 2.5.8's 24 pixels
const CURVE_LEFT = 30, CURVE_PAD = 10, POINT_TARGET = 24;

// a finger's pointer (a touch screen): the graph's points get columns of 24 pixels, the graph scrolling in its frame
// where that is wider than the panel; a mouse's sees the whole deal at a glance, its points reached at 24 pixels
// through the play list and the arrow keys too (WCAG 2.5.8's "equivalent" exception)
const COARSE_POINTER = matchMedia("(pointer: coarse)");

// the width the graph's frame gives its drawing, the panel's (the graph is drawn wider where it scrolls in it): its
// own, but for its padding (2 pixels a side) and the graph's border (1), so that the drawing is at one to one
const graphFrameWidth = () => Math.max($("graph-frame").clientWidth - 6, 0);

// the width the graph of ``cards`` cards is drawn at: its own pixels, the frame's (400 while it has no width yet),
// and at least what gives each point a column of 24 pixels for a finger, of 1 for a mouse: a mouse's graph fits the
// narrowest panel (a floor of 200 scrolled it in a frame under 206 pixels), and a frame narrower than the margins'
// 40 pixels no longer draws it backwards (columns of negative width)
const curveDrawWidth = (cards) => Math.max(graphFrameWidth() || 400,
  CURVE_LEFT + CURVE_PAD + (COARSE_POINTER.matches ? POINT_TARGET : 1) * Math.max(cards, 1));

// a window that changes the frame's width (a phone turned, the panels going under the table) draws the graph again;
// a finger's graph wider than the frame draws the same, so its resizes do not
new ResizeObserver(() => {
  if (!S.curve || !graphFrameWidth()) return;
  if (curveDrawWidth(S.curve.curve.length - 1) !== S.curveWidth) renderCurve();
  else fitGraph();  // the same drawing, in a frame now narrower (or wider) than it
}).observe(document.getElementById("graph-frame"));

// a mouse plugged into a tablet, or a touch screen's emulation turned on: the graph fits its panel or scrolls in it
COARSE_POINTER.addEventListener("change", () => { if (S.curve) renderCurve(); });

// the graph as wide as its drawing where that is wider than its frame (it scrolls there), else the frame's width
function fitGraph() {
  $("graph").style.width = S.curveWidth > graphFrameWidth() ? `${S.curveWidth + 2}px` : "";  // and its border
}

const SD_NO_GRAPH = "The graph and the grades are double dummy (they know every hand): the double-dummy view " +
  "shows them, the odds above are what this seat can know";

function renderCurve() {
  const svg = $("graph");
  const curve = S.curve;
  const focused = svg.contains(document.activeElement);  // a point of it had the focus: the new one takes it
  svg.replaceChildren();
  const note = $("curve-note");
  // every point of the graph, the one of the position shown too, and every grade is double dummy: they know the
  // hidden hands (the play audit: a defender read the declarers' +4 and a card's "best: T21" off it)
  svg.style.display = S.mode === "sd" ? "none" : "";
  if (S.mode === "sd") { note.textContent = SD_NO_GRAPH; return; }
  if (!curve || !S.view) { note.textContent = ""; return; }
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attrs) => { const n = document.createElementNS(ns, tag); for (const k in attrs) n.setAttribute(k, attrs[k]); return n; };
  const points = curve.curve;  // the value at the start and after each card
  // card points and tricks run from 0 to the deal's; the score (game units) from its least to its greatest, with 0
  const scored = curve.measure !== "points" && curve.measure !== "tricks";
  const least = scored ? Math.min(0, ...points) : 0;
  const most = scored ? Math.max(0, ...points) : curve.measure === "points" ? S.view.points_in_deal : S.view.tricks_in_deal;
  // drawn in the graph's own pixels: a viewBox of a fixed width stretched the numbers and the dots (ellipses) as wide
  // as a tablet's panel
  const n = Math.max(curve.curve.length - 1, 1);
  const width = curveDrawWidth(n), height = 170, pad = CURVE_PAD, left = CURVE_LEFT;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  S.curveWidth = width;
  fitGraph();
  const x = (i) => left + (width - left - pad) * i / n;
  const y = (v) => height - pad - (height - 2 * pad) * (v - least) / Math.max(most - least, 1);
  const label = (value, at) => { const t = make("text", { x: 2, y: at }); t.textContent = value; svg.append(t); };
  label(most, pad + 4);
  label(least, height - pad + 3);
  // the line the game is won at or above (61 or 45 points, RULES.md 2.4 and 1.1: 60 and 44 lose; the attacker's 2
  // tricks; the score's 0 where its sign decides), where it is on the graph's scale; else the score's 0, unnamed
  const target = curve.game === "target";
  const winning = curve.winning && curve.winning.value >= least && curve.winning.value <= most ? curve.winning : null;
  const mark = winning ? winning.value : scored && least < 0 && most > 0 ? 0 : null;
  // an ending's line is the whole deal's, on the ending's own cards, as stich postmortem says
  const wonAt = winning ? `${winning.name} ${winning.name === "target" ? "made" : "won"} at \u2265 ${winning.value}` +
    (scored ? ` ${S.view.score_unit}` : "") + (curve.whole_deal === false ? " (on the ending's own cards)" : "") : "";
  // the points' targets, a finger's and a mouse's: each point's whole column, from halfway to the point before to
  // halfway to the next (a finger's at least 24 pixels: curveDrawWidth), the graph's height, where the dots themselves are 6 to
  // 13 pixels across; drawn under the dashed line, whose tooltip a mouse shows (the curve, the trick ends and the
  // numbers let a tap through)
  const step = (width - left - pad) / n;
  points.forEach((value, index) => {
    const hit = make("rect", { class: "hit", x: x(index) - step / 2, y: 0, width: step, height, "data-index": index,
      "aria-hidden": "true" });
    hit.addEventListener("click", () => goTo(index));
    svg.append(hit);
  });
  if (mark !== null) {
    const line = make("line", { class: "game-line", x1: left, x2: width - pad, y1: y(mark), y2: y(mark) });
    if (winning) { const title = make("title", {}); title.textContent = wonAt; line.append(title); }
    // a finger's tap on the line goes to the column under it, as beside it (no column shown, a mouse: nothing)
    line.addEventListener("click", (event) => {
      const hit = document.elementsFromPoint(event.clientX, event.clientY).find((n) => n.classList.contains("hit"));
      if (hit) goTo(Number(hit.dataset.index));
    });
    svg.append(line);
    // at the top or bottom of the scale the axis's own number already says it
    if (mark !== most && mark !== least) label(mark, y(mark) + 3);
  }
  for (const end of curve.trick_ends) svg.append(make("line", { class: "trick-end", x1: x(end), x2: x(end), y1: pad, y2: height - pad }));
  svg.append(make("polyline", { class: "line", points: points.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  // the cards after which the game (Kratzen: the attacker's target) changed hands, ringed, as the post-mortem names them
  const changed = {};
  const whose = seatsText(curve.declaring_side.join("+"));
  for (const change of curve.game_changes || []) {
    changed[change.number] = `${curve.game} ${change.won ? (target ? "made" : "won") : (target ? "missed" : "lost")}`;
  }
  points.forEach((value, index) => {
    if (changed[index]) svg.append(make("circle", { class: "game-change", cx: x(index), cy: y(value), r: 9 }));
  });
  // the dots are one tab stop (a roving tabindex): the point the arrow keys last chose while the graph has the focus,
  // else the position shown; drawn again, the graph keeps the focus it had
  const stop = Math.min(focused && S.graphDot !== null ? S.graphDot : S.cursor, points.length - 1);
  const valueUnit = scored ? S.view.score_unit : UNITS[curve.measure] ?? curve.measure;
  points.forEach((value, index) => {
    const card = index ? curve.cards[index - 1] : null;
    // what the dot is, in words: the card, its grade and the value after it, its name and tooltip both (its <title>:
    // an aria-label beside it made the same words its description too, read twice)
    const said = (card ? `card ${index}: ${describeGrade(card)}; ${value} ${valueUnit} after it`
      : `the start: ${value} ${valueUnit}`) + ` for ${whose}` + (changed[index] ? `; ${changed[index]}` : "") +
      (index > S.cursor ? "; not yet played" : "");
    const dot = make("circle", { class: `dot ${card ? card.grade : ""} ${index === S.cursor ? "current" : ""} ${index > S.cursor ? "after" : ""}`,
      cx: x(index), cy: y(value), r: card ? DOT_SIZES[card.grade] ?? 5 : 3.2, "data-index": index,
      role: "button", tabindex: index === stop ? "0" : "-1" });
    if (index === S.cursor) dot.setAttribute("aria-current", "step");
    const title = make("title", {});
    title.textContent = said;
    dot.append(title);
    dot.addEventListener("click", () => goTo(index));
    dot.addEventListener("mousedown", leaveFocus);  // a click leaves the arrows to the play, as on the play list
    dot.addEventListener("focus", () => { S.graphDot = index; });
    svg.append(dot);
  });
  S.graphDot = stop;
  if (focused) svg.querySelector('.dot[tabindex="0"]')?.focus();
  else {  // a graph that scrolls in its frame shows the position shown's point
    const frame = $("graph-frame");
    if (frame.scrollWidth > frame.clientWidth) frame.scrollLeft = x(Math.min(S.cursor, n)) - frame.clientWidth / 2;
  }
  const mistakes = curve.cards.filter((c) => c.grade !== "ok");
  const turns = Object.keys(changed).map(Number).map((i) => `${i} (${curve.cards[i - 1].card}: ${changed[i]})`);
  const measure = scored ? `score (${S.view.score_unit})` : UNITS[curve.measure] ?? curve.measure;
  // the note's parts, each said where it has something to say (a line of no cards yet has no count: it said "; ;")
  const parts = [`${measure} of ${whose} under best play from each point`];
  // the library's count of the cards that lost value in this measure (a bonus lost at no cost counted apart)
  if (curve.lost_line) {
    parts.push(curve.lost_line + (mistakes.length
      ? " (coloured and larger by grade; in the play list ?! an inaccuracy, ? a mistake, ?? a blunder)" : ""));
  }
  // by the score the rings may be read on the card points' line, not the dashed one (Zwanzigerrufen's 45)
  if (turns.length) {
    parts.push(`${curve.game} changed hands after card ${turns.join(", ")} (ringed` +
      (curve.points_winning ? `; the ${curve.points_winning.name}: ${curve.points_winning.value} card points)` : ")"));
  }
  if (winning) parts.push(`dashed: ${wonAt}`);
  // a lost Tout played on: stich score scores it where it ended, the graph grades the cards after as if it went on
  if (curve.settled_after) {
    parts.push(`the rules end this deal ${curve.settled_after.card ? `after card ${curve.settled_after.card}` +
      ` (trick ${curve.settled_after.trick})` : "before its first card"}: the cards after that are graded as if it went on`);
  }
  // card points of a contract whose score does not count them (a Tout, a Sie): the library's words
  if (curve.points_note) parts.push(curve.points_note);
  note.textContent = parts.join("; ");
}

// The arrow keys among the graph's points (the one tab stop moves with the focus), Home and End to the first and last;
// Enter or space goes to the focused point (the keydown handler in start), as a click does.
function graphKeys(dot, key) {
  if (!(key in CARD_STEPS) && key !== "Home" && key !== "End") return false;
  const dots = [...$("graph").querySelectorAll(".dot")];
  const at = dots.indexOf(dot);
  const to = key === "Home" ? 0 : key === "End" ? dots.length - 1
    : Math.max(0, Math.min(at + CARD_STEPS[key], dots.length - 1));  // a line: it stops at its ends
  dot.setAttribute("tabindex", "-1");
  dots[to].setAttribute("tabindex", "0");
  dots[to].focus();
  return true;
}

// --- single dummy ---------------------------------------------------------------------------------------------------

async function loadOdds() {
  const box = $("odds");
  box.hidden = S.mode !== "sd";
  box.dataset.done = "no";
  if (S.mode !== "sd" || !S.view || S.view.is_over) {
    if (S.requests.odds) S.requests.odds.abort();
    busy("odds", false);
    box.replaceChildren();
    return;
  }
  box.replaceChildren(el("h2", {}, `Odds for seat ${S.view.to_move}`),
    el("div", { class: "hint", id: "odds-sampling" }, "sampling the unseen cards…"));
  S.odds = null;  // a stop before the first odds says nothing of an earlier question's
  busy("odds", true);
  const asked = ask("odds", "/api/odds", { board: S.board, moves: S.moves.slice(0, S.cursor), samples: 100 }, { raw: true });
  const mine = S.requests.odds;
  let ended = false;
  // what went wrong, in place of "sampling…" where no odds came (an ending's refusal said it still sampled)
  const said = (text) => { $("odds-sampling")?.remove(); box.append(el("div", { class: "error" }, text)); };
  try {
    for await (const message of jsonLines(await asked)) {
      if (S.requests.odds !== mine) break;
      ended = message.kind !== "progress" && message.kind !== "thinking";
      if (message.kind === "progress" || message.kind === "odds") {
        S.odds = message;
        renderOdds(message);
        if (message.kind === "odds") renderValues();  // the status line says them
      } else if (message.kind === "stopped" || message.kind === "error") {
        // the odds so far stay on the table, said to be partial
        const why = message.reason || message.error;
        said(S.odds && S.odds.kind === "progress" ? `stopped after ${S.odds.samples} of ${S.odds.of} deals: ${why}`
          : why);
      }
    }
    // an answer cut off (the server stopped, the connection dropped) is not the odds over every deal
    if (!ended && S.requests.odds === mine) said("the answer was cut off");
  } catch (error) {
    if (!aborted(error)) said(error.message);
  } finally {
    if (S.requests.odds === mine) { busy("odds", false); box.dataset.done = "yes"; }
  }
}

function renderOdds(odds) {
  const pct = (p) => `${(100 * p).toFixed(1)}%`;
  const tenth = (x) => (Math.abs(x) < 0.05 ? 0 : x).toFixed(1);  // a payment rounding to 0 is "0.0", not "-0.0"
  const scored = odds.score_mean !== null && odds.score_mean !== undefined;  // the score where the deal has one
  const measure = UNITS[odds.measure] ?? odds.measure;
  // a figure and its interval are one piece the panel's layout never breaks, as stich's table cells join them with
  // no-break spaces (solver/games/outcome.py FIGURE_SPACE): a span kept on one line, its spaces no-break ones
  const figure = (text) => el("span", { class: "figure" }, text.replaceAll(" ", "\u00a0"));
  // a mean and its 95% interval; an interval of no width says only that no other value was met in these samples,
  // not a certainty (stich analyse's words, which may wrap)
  // (a payment signed, as the table's "pays" line signs one, and its unit after it: stich analyse's "mean payment
  // +1.20 chips (95%: +0.40 to +2.00)")
  const withInterval = (x, i, end = tenth, unit = "") => (!i || !Number.isFinite(i[0]) ? [x + unit]
    : odds.samples < 2 ? [x + unit, " (one sample: no interval)"]
    : i[0] === i[1] ? [x + unit, ` (all ${odds.samples.toLocaleString("en-US")} samples alike: no interval)`]
    : [figure(`${x}${unit} (95%: ${end(i[0])} to ${end(i[1])})`)]);
  const payment = paymentText;
  // every share of the samples with its 95% Wilson interval, as stich analyse writes it in a line; in the tables as
  // its tables of advice write a cell (so that they fit the panel; the note says what the brackets are): 31% (23-41%)
  const share = (p, i) => (i && i[0] !== null ? figure(`${pct(p)} (95%: ${pct(i[0])} to ${pct(i[1])})`) : pct(p));
  const percent = (p) => `${(100 * p).toFixed(0)}%`;
  const compact = (p, i) => (i && i[0] !== null ? figure(`${percent(p)} (${(100 * i[0]).toFixed(0)}-${percent(i[1])})`)
    : percent(p));
  // the columns in stich analyse's order: the payment, by which the cards rank, first, the mean of the measure last
  const rows = odds.openings.map((o) => el("tr", { dataset: { card: o.card } }, el("td", {}, o.card),
    ...(scored ? [el("td", {}, payment(o.mean_score))] : []),
    el("td", { class: "share" }, compact(o.win_probability, o.win_interval)), el("td", {}, tenth(o.mean))));
  // whose each bonus is and how often it was forced: the seat's side's or the other's on every deal, or either (a
  // partner the deal names changes the sides), as stich analyse's "bonuses forced"; a seat's own target where every
  // seat plays for itself has no sides: the hand's, or that seat's
  const own = (b) => (b.samples_for_side === odds.samples
    ? ["the hand", compact(b.probability_for, b.interval_for)]
    : [`seat ${b.seat}`, compact(b.probability_against, b.interval_against)]);
  const forced = (b) => (b.seat !== null && b.seat !== undefined ? own(b) : b.samples_for_side === odds.samples
    ? ["the hand's side", compact(b.probability_for, b.interval_for)]
    : b.samples_for_side === 0 ? ["the other side", compact(b.probability_against, b.interval_against)]
    : ["either, by the deal", [compact(b.probability_for, b.interval_for), " by the hand's side, ",
       compact(b.probability_against, b.interval_against), " by the other"]]);  // wraps between its figures only
  const bonuses = (odds.bonuses || []).map((b) => el("tr", { dataset: { bonus: b.objective } },
    el("td", { class: "name" }, b.seat === null ? b.title : `${b.title} (seat ${b.seat})`),
    ...forced(b).map((text, column) => el("td", column ? { class: "share" } : {}, ...[text].flat()))));
  // in stich analyse's order: the payment, by which the cards rank, first (where the deal has a score)
  const score = scored ? ["mean payment ", ...withInterval(payment(odds.score_mean), odds.score_interval, payment,
    ` ${S.view.score_unit}`), " · "] : [];
  const count = odds.kind === "progress" ? `so far ${odds.samples} of ${odds.of} deals` : `${odds.samples} deals`;
  $("odds").replaceChildren(el("h2", {}, `Odds for seat ${odds.seat}`),
    el("div", { id: "odds-summary" }, ...score, "win ", share(odds.win_probability, odds.win_interval),
      ` · mean ${measure} `, ...withInterval(odds.mean.toFixed(1), odds.interval)),
    el("div", { class: "hint", id: "odds-count" }, `${count} of the unseen cards, each solved double dummy (the line ` +
      "above lets each deal choose its own best card; the table is one card over all of them)" +
      (scored ? `; the score is ${S.view.per_seat ? "the attacker's own payment"  // Kratzen: no sides (RULES.md 3)
        : `seat ${odds.seat}'s share of its side's`}, in ${S.view.score_unit}, and ranks the cards` : "") +
      "; each share of the deals with its 95% Wilson interval in brackets"),
    // each table in a box that scrolls sideways where a phone's panel is narrower than its whole figures
    rows.length ? el("div", { class: "odds-table" }, el("table", {}, el("tr", {}, el("th", {}, "card"),
      ...(scored ? [el("th", {}, "mean payment")] : []), el("th", {}, "win"), el("th", {}, `mean ${measure}`)),
      ...rows)) : "",
    bonuses.length ? el("div", { class: "odds-table" }, el("table", { id: "odds-bonuses" }, el("tr", {},
      el("th", { class: "name" }, S.view.per_seat ? "target" : "item"), el("th", {}, "whose"),
      el("th", {}, "forced")), ...bonuses)) : "");
  markOdds();
}

// A mean payment as the odds write it: signed, to a tenth, a payment rounding to 0 "0.0", not "-0.0".
function paymentText(x) {
  const text = (Math.abs(x) < 0.05 ? 0 : x).toFixed(1);
  return Number(text) > 0 ? `+${text}` : text;
}

const chanceText = (p) => `${(100 * p).toFixed(1)}%`.replace(".0%", "%");

function markOdds() {
  // on each opening card what ranks it (again after the table is drawn anew), as stich analyse ranks the cards: its
  // mean payment where the deal has a score, else its chance of winning. A win chance alone showed 100% on every
  // card of examples/valat.tbn, HK too, which throws the Valat away (+61.9 game units against +90.0)
  if (S.mode !== "sd" || !S.odds) return;
  for (const opening of S.odds.openings) {
    const node = document.querySelector(`#seat-${S.view.to_move} .card[data-card="${opening.card}"]`);
    if (!node) continue;
    node.querySelector(".value")?.remove();
    const chance = chanceText(opening.win_probability);
    const scored = opening.mean_score !== null && opening.mean_score !== undefined;
    const payment = scored ? `mean payment ${paymentText(opening.mean_score)} ${S.view.score_unit}, ` : "";
    node.append(el("span", { class: "value", title: `${opening.card}: ${payment}wins ${chance} of the deals` },
      scored ? paymentText(opening.mean_score) : chance));
    node.setAttribute("aria-label", `${node.dataset.spoken}: ${payment}wins ${chance} of the deals`);
  }
}

// The odds over all their deals in a sentence, for the status line (a status region: a screen reader hears them
// once they are in, as it hears the card values in double dummy): the best card by stich analyse's ranking, with
// what ranks it. "" before they are in, or where they stopped short.
function oddsWords(odds) {
  if (!odds || odds.kind !== "odds") return "";
  const said = `Odds for seat ${odds.seat} over ${odds.samples.toLocaleString("en-US")} ` +
    (odds.samples === 1 ? "deal" : "deals");
  const best = odds.openings[0];
  if (!best) return `${said}: win ${chanceText(odds.win_probability)}.`;
  const scored = best.mean_score !== null && best.mean_score !== undefined;
  return `${said}: best ${best.card}` + (scored ? `, mean payment ${paymentText(best.mean_score)} ${S.view.score_unit}`
    : "") + `, win ${chanceText(best.win_probability)}.`;
}

// --- moving through the play ----------------------------------------------------------------------------------------

async function refresh() {
  if (!S.board) return;
  remember();
  S.ready = false;  // until the values of this very position are in (the browser tests wait on it)
  // the last position's values, ready while this one is fetched, would play kept spaces from the table left
  if (S.requests.values) S.requests.values.abort();
  const at = S.cursor;
  try {
    S.view = await ask("position", "/api/position", { board: S.board, moves: S.moves.slice(0, S.cursor) });
  } catch (error) {
    if (!aborted(error)) { showStepError(error.message, error.stopping); if (S.view) renderButtons(); }
    return;
  }
  const before = S.shownAt;  // the table shown until now: a step back or a jump is said as such
  S.shownAt = at;
  if (S.stepError) showError("");
  document.body.dataset.cursor = S.cursor;
  announce(before);
  S.odds = null;  // the odds of the position before
  renderObjectives();
  renderContract();
  renderTable();
  renderPlay();
  $("command").textContent = S.view.command;
  $("command-save").textContent = S.view.needs_save ? "(Save .tbn first)" : "";
  $("copy-said").textContent = "";
  S.values = null;
  renderValues();
  if (S.mode === "dd") loadValues(); else { if (S.requests.values) S.requests.values.abort(); busy("values", false); }
  loadCurve();
  loadOdds();
}

// What a sighted player sees change on the table after a step, said to a screen reader (an aria-live region): the
// card just played and by whom, the trick's winner, whose turn it is, and once the play settles the deal what it pays.
// A card taken back (← or Backspace) is said taken back, and a jump (Home, End, the graph, the play list) where the
// table now is: "Seat 4 played ..." after an undo read as a card played. `before`: the cursor of the table shown
// before this one (null for a record just opened).
function announce(before = null) {
  const view = S.view;
  const said = [];
  // one card back, the card taken back; its settlement is said as a step forward to this table says it
  const takenBack = before !== null && before === S.cursor + 1
    ? view.hands[view.to_move - 1].cards.find((c) => c.name === S.moves[S.cursor]) : undefined;
  if (takenBack) {
    said.push(`Seat ${view.to_move} took back ${takenBack.spoken}.`, `Seat ${view.to_move} to play.`);
  } else {
    if (before !== null && before !== S.cursor && before !== S.cursor - 1) {
      said.push(S.cursor ? `After card ${S.cursor}.` : "At the start.");
    }
    const trick = view.trick.length ? view.trick
      : view.history.length ? view.history[view.history.length - 1].cards : [];
    const last = S.cursor && trick.length ? trick[trick.length - 1] : null;
    if (last) said.push(`Seat ${last.seat} played ${last.spoken}.`);
    if (last && !view.trick.length) said.push(`Seat ${view.history[view.history.length - 1].winner} won the trick.`);
    said.push(view.is_over ? "The deal is over." : `Seat ${view.to_move} to play.`);
  }
  said.push(...settlementWords(view));
  $("announce").textContent = said.join(" ");
}

// The settlement the table's centre shows, in sentences (its "→" and "·" are signs a screen reader reads out
// as such): nothing before the play settles the deal.
function settlementWords(view) {
  if (!view.settlement) return [];
  // a lost Tout, settled at its trick, says so
  const said = view.is_over ? [] : view.settlement.notes.map((note) => `${note}.`);
  const { payments, pot } = settlementText(view, true);
  said.push(`It pays (${view.score_unit}): ${payments}${pot === null ? "" : `; ${pot}`}.`);
  return said;
}

// A settled deal's payments and the pot's change (null without a pot), one text for the table's centre and the
// screen reader's sentence alike: the eye's has "·" and "→" and keeps each seat's payment on one line.
function settlementText(view, spoken) {
  const settled = view.settlement;
  const space = spoken ? " " : "\u00a0";
  const payments = settled.payments.map((p, i) => `seat${space}${i + 1}${space}${signed(p)}`)
    .join(spoken ? ", " : "\u00a0· ");  // a line ends on its "·", never begins with one
  const after = settled.pot === null ? null : settled.pot + settled.pot_change;
  // an ending's pot starts no next deal (as stich score says): its change alone, not the pot it would leave
  const change = spoken ? `the pot ${settled.pot_change >= 0 ? "gains" : "pays"} ${Math.abs(settled.pot_change)}`
    : `pot ${signed(settled.pot_change)}`;
  const pot = after === null ? null : !view.whole_deal ? change
    : spoken ? `the pot goes from ${settled.pot} to ${after}` : `pot ${settled.pot} → ${after}`;
  return { payments, pot };
}

function play(name) {
  if (S.shownAt !== S.cursor) {
    // a card of a table the next position has not replaced yet (a double click, Enter twice on the card played) is
    // the last position's: played again at the next card it was refused ("seat 2 does not hold EO"). After a
    // position refused (its error said) the table shown stays: its card is played from there.
    if (!S.stepError || S.shownAt === null) return;
    S.cursor = S.shownAt;
  }
  S.bestAhead = 0;  // a card played (or a step) other than by a kept space: the spaces kept are for the line left
  S.clicked = performance.now();  // the click-to-values round trip is kept in S.roundTrip
  if (S.moves[S.cursor] !== name) S.moves = S.moves.slice(0, S.cursor).concat([name]);
  S.cursor += 1;
  refresh();
}

// One card back: the card taken back is the seat's card to play chosen (its tab stop, and the focus where the keys
// stay with the cards), not the seat's first card, so Enter plays it again and the arrows go on from it.
function takeBack() {
  if (S.cursor > 0) S.rovingCard = S.moves[S.cursor - 1];
  goTo(S.cursor - 1);
}

function goTo(index) {
  S.bestAhead = 0;
  S.cursor = Math.max(0, Math.min(index, S.moves.length));
  refresh();
}

// Space while the values are searched (a player stepping through the line faster than the engine) is kept, not lost:
// each press kept plays a best card once the values of its position are in. A key held down plays one card (its
// repeats would play out the deal), at most BEST_AHEAD presses are kept, and none after a step's error.
const BEST_AHEAD = 4;
function bestKey(repeat = false) {
  if (repeat) return;
  if (canAskAgain()) { askValuesAgain(); return; }  // no best card to play: the values asked again
  if (S.mode === "dd" && !S.ready && !S.stepError && !(S.view && S.view.is_over)) {
    S.bestAhead = Math.min(S.bestAhead + 1, BEST_AHEAD);
  } else playBest();
}

// The values of the table shown were refused (the bar says why) or stopped (the summary does): space has no best card
// to play there, and asks them again where that can be answered (canAskAgain: a busy board or a time limit lets a
// second question through).
// Values that came in as an error are not asked again: the record's own fault (a [Pot] that does not read, under the
// Score) or the board's is answered the same however often it is asked.
function valuesFailed() {
  if (S.mode !== "dd" || !S.view || S.view.is_over || S.shownAt !== S.cursor) return false;
  if (S.values) return S.values.kind === "stopped";
  return S.stepError && !busy.kinds.has("values");
}

// A board that is stopping (app.py marks its stopped_document and its refusal of a new question "stopping") answers
// no second question: its values are not asked again, and neither ★ nor the summary offers to.
function canAskAgain() {
  if (!valuesFailed()) return false;
  return !(S.values ? S.values.stopping === true : S.stepStopping);
}

function askValuesAgain() {
  S.bestAhead = 0;
  renderTable(); loadValues(); renderValues();  // the stop's words go, the button says ★ best while they are searched
}

function playBestAhead() {
  const left = S.bestAhead - 1, at = S.cursor;
  playBest();
  S.bestAhead = S.cursor === at ? 0 : left;  // none to play (the deal is over): the rest are dropped
}

// A position refused (its error said) leaves the table before it shown, with its values: the cursor is the refused one.
const afterRefusal = () => S.stepError && S.shownAt !== null && S.shownAt !== S.cursor;

// The best cards of the table shown after a refused position, from its values (null where they are not all in).
function bestOfShownTable() {
  const values = S.values;
  if (S.mode !== "dd" || !S.view || S.view.is_over || !values || values.kind !== "values") return null;
  return values.best && values.best.length ? values.best : null;
}

function playBest() {
  if (afterRefusal()) {
    // back to the table shown, as a card played there goes (play()), and a best card from its values
    if (!bestOfShownTable()) return;
    S.cursor = S.shownAt;
  } else if (!S.ready || !S.values || !S.values.best || !S.values.best.length) return;
  const best = S.values.best;
  // the card the recorded line continues with when it is among the best, else the first best card
  play(best.includes(S.moves[S.cursor]) ? S.moves[S.cursor] : best[0]);
}

// The position's `stich solve` command to the clipboard; where the page may not write there (a page served to the
// network over plain HTTP is no secure context), the command is selected for Ctrl-C instead.
async function copyCommand() {
  const command = $("command");
  try {
    await navigator.clipboard.writeText(command.textContent);
    $("copy-said").textContent = "copied";
  } catch {
    getSelection().selectAllChildren(command);
    $("copy-said").textContent = "selected: Ctrl-C copies it";
  }
}

async function save() {
  if (!S.board) return;
  try {
    const response = await ask("save", "/api/save", { board: S.board, moves: S.moves.slice(0, S.cursor) }, { raw: true });
    const disposition = response.headers.get("Content-Disposition") || "";
    const utf8 = disposition.match(/filename\*=UTF-8''([^;]+)/);  // a name in other letters than Latin ones
    const plain = disposition.match(/filename="([^"]+)"/);
    const name = utf8 ? decodeURIComponent(utf8[1]) : plain ? plain[1] : "board.tbn";
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    if (!aborted(error)) showError(error.message);
  }
}

// --- a reload keeps the table ----------------------------------------------------------------------------------------

// The tab's record, moves, cursor and listed uploads, pastes and deals, in its sessionStorage: a reload (F5, a phone
// waking the tab) opens the table as it was instead of the first file's first record with the play lost.
const KEPT = "stich-board";
// The shape of what a tab keeps: a tab kept by an older page (without it, or another) is not read but opened as new.
const KEPT_VERSION = 4;

function remember() {
  const option = $("records").selectedOptions[0];
  const opened = [...$("records").querySelectorAll("optgroup[data-opened]")].map((group) => ({ group: group.label,
    boards: [...group.querySelectorAll("option")].map((o) => JSON.parse(o.dataset.record)) }));
  // `own`: the record's own play, which tells two saves of one deal (one fingerprint) in a concatenated file apart;
  // `recordFingerprint`: the record as its file has it (no --variant's flags), to tell an edit from a new --variant
  const kept = { version: KEPT_VERSION, server: S.server, board: S.board, moves: S.moves, cursor: S.cursor, opened,
    label: option ? option.dataset.label : null, group: option ? option.parentElement.label : null,
    fingerprint: option ? option.dataset.fingerprint : null, own: option ? JSON.parse(option.dataset.moves) : null,
    recordFingerprint: option ? option.dataset.recordFingerprint : null, variant: variantText(S.boardVariant) };
  try { sessionStorage.setItem(KEPT, JSON.stringify(kept)); } catch (e) { /* storage off or full: no reload memory */ }
}

// The board's --variant flags as one text, each game's in the order of their names (the same flags, the same text).
const variantText = (variant) => Object.entries(variant).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([game, flags]) => `${game} ${flags}`).join("; ");

// What the tab kept, if this page's version kept it whole; else null (nothing kept, an older page's, a damaged one).
// Every field is checked: one missing (a state without its fingerprint) is not a record changed in its file.
function keptTable() {
  let kept;
  try { kept = JSON.parse(sessionStorage.getItem(KEPT) || "null"); } catch (e) { return null; }
  const text = (value) => typeof value === "string";
  const textOrNull = (value) => value === null || text(value);
  const play = (value) => Array.isArray(value) && value.every(text);
  const record = (b) => b && text(b.id) && text(b.label) && play(b.moves);
  const whole = kept && typeof kept === "object" && kept.version === KEPT_VERSION && text(kept.server)
    && text(kept.board) && play(kept.moves) && Number.isInteger(kept.cursor) && textOrNull(kept.label)
    && textOrNull(kept.group) && textOrNull(kept.fingerprint) && (kept.own === null || play(kept.own))
    && textOrNull(kept.recordFingerprint)
    && text(kept.variant) && Array.isArray(kept.opened)
    && kept.opened.every((item) => item && text(item.group) && Array.isArray(item.boards) && item.boards.every(record));
  return whole ? kept : null;
}

// The table kept before a reload (or a step back to the page). The same start of the server still holds the uploads,
// pastes and deals (a board it forgot since says so when opened, as without the reload), and an id names one record
// for good; another start numbers its boards anew from b1, so their ids may be other records': they are dropped, and
// only a named file's record is opened again. A named file's record whose id is not listed (an edit to the file
// gives its records new ids; another start) is found by what it is, its fingerprint (deal, contract, flags), not its
// label: a tagless record's label is its place, which an edit gives another record. Saves of one deal at different
// points (a concatenated file) share a fingerprint: among them the one with the same own play is taken, then the one
// with the same label. One no longer in the file as it was (the file edited, the board's --variant changed: the
// fingerprint holds the flags, or both: the record as its file has it, its record fingerprint, is not there either)
// is said in `problems`, each change that applies, and the record the page opens first in that file (`first`, the
// --board record) or else the file's first record opens with its own play, never another deal with the kept moves.
// The address opened afresh opens as new; what is not restored is forgotten, so that the next reload does not read
// it again. True if a record was opened.
async function restore(problems, first) {
  const how = performance.getEntriesByType("navigation")[0];
  const kept = how && (how.type === "reload" || how.type === "back_forward") ? keptTable() : null;
  if (!kept) {
    try { sessionStorage.removeItem(KEPT); } catch (e) { /* storage off */ }
    return false;
  }
  const same = kept.server === S.server;
  if (same) for (const item of kept.opened) addRecords(item.boards, item.group);
  const options = [...$("records").options];
  let option = same ? options.find((o) => o.value === kept.board) : undefined;
  if (!option) {
    const named = options.filter((o) => !o.parentElement.dataset.opened && o.parentElement.label === kept.group);
    const found = named.filter((o) => kept.fingerprint && o.dataset.fingerprint === kept.fingerprint);
    const own = (o) => kept.own !== null && o.dataset.moves === JSON.stringify(kept.own);
    const label = (o) => o.dataset.label === kept.label;
    option = found.find((o) => own(o) && label(o)) || found.find(own) || found.find(label) || found[0];
    if (!option && named.length) {
      const opening = named.find((o) => o.value === first) || named[0];
      const flags = variantText(S.boardVariant);
      const asInFile = (o) => kept.recordFingerprint && o.dataset.recordFingerprint === kept.recordFingerprint;
      const changed = flags === kept.variant ? null : `${flags || "none"}, was ${kept.variant || "none"}`;
      const why = !changed ? "the file was edited since"  // the same flags: only an edit changes a fingerprint
        : named.some(asInFile) ? `the board's --variant changed since: ${changed}`
        : `the file was edited and the board's --variant changed since: ${changed}`;
      problems.push(`${kept.label} is no longer in ${kept.group} as it was when this tab showed it (${why}): `
        + `its play is not restored, and ${opening.dataset.label} is open with its own play; choose its record in `
        + "the list");
      openBoard(opening.value);
      return true;
    }
  }
  if (!option) {
    try { sessionStorage.removeItem(KEPT); } catch (e) { /* storage off */ }
    return false;
  }
  const cursor = Math.max(0, Math.min(Number(kept.cursor) || 0, kept.moves.length));
  try {  // the moves still play on this board (an upload's board may have been forgotten since)
    await ask("restore", "/api/position", { board: option.value, moves: kept.moves.slice(0, cursor) });
  } catch (error) {
    try { sessionStorage.removeItem(KEPT); } catch (e) { /* storage off */ }
    return false;
  }
  openBoard(option.value, kept.moves, cursor);
  return true;
}

// --- start ----------------------------------------------------------------------------------------------------------

function fillDealForm() {
  const game = S.games.find((g) => g.name === $("deal-game").value) || S.games[0];
  $("deal-seats").replaceChildren(...game.seats.map((n) => el("option", { value: n }, String(n))));
  // a game of one seat count says it as a fact, not as a choice of one (Zwanzigerrufen's and Schafkopf's 4)
  const fixed = game.seats.length === 1;
  $("deal-seats").hidden = fixed;
  $("deal-seats-fixed").hidden = !fixed;
  $("deal-seats-fixed").textContent = fixed ? String(game.seats[0]) : "";
  const flags = S.boardVariant[game.name];  // a deal is bid and played under the board's --variant, as stich deal's
  // the empty field's meaning is said here, not in its placeholder, which a phone's field cut short ("(empty: any")
  $("deal-help").textContent = `Contracts: ${game.contracts} · none given: any everyday one`
    + (flags ? ` · dealt under --variant ${flags}` : "");
  $("deal-declarer-title").textContent = capital(game.declarer_title);  // Kratzen's attacker
  $("deal-pot-field").hidden = !game.has_pot;
  fitDeclarer();
  $("deal-contract").placeholder = `e.g. ${game.examples[0]}`;
}

// The Deal dialog closes only on a deal: a refused contract or seat is said inside it, beside what was typed, the
// field at fault marked and given the focus (else the message itself), so that it can be put right there.
async function dealFromForm() {
  dealRefused(null);
  const asked = ask("deal", "/api/deal", {
    game: $("deal-game").value, contract: $("deal-contract").value, seed: $("deal-seed").value,
    seats: $("deal-seats").value, declarer: $("deal-declarer").value,
    pot: $("deal-pot-field").hidden ? null : $("deal-pot").value });
  if (await loaded(asked, "dealt", dealRefused)) $("deal-dialog").close();
}

function dealRefused(error) {
  const field = error && error.field ? $(`deal-${error.field}`) : null;
  sayRefused($("deal-dialog"), $("deal-error"), error, field);
}

// A refusal said inside its dialog (`box`, null clears it): the `field` at fault marked; given the focus where
// `focused` (with `caret` then placing the caret in it), else the message itself, so that a screen reader reads it.
function sayRefused(dialog, box, error, field, { focused = true, caret = null } = {}) {
  for (const marked of dialog.querySelectorAll("[aria-invalid]")) {
    marked.removeAttribute("aria-invalid");
    marked.removeAttribute("aria-describedby");
  }
  box.textContent = error ? error.message : "";
  box.hidden = !error;
  if (!error) return;
  const shown = field && !field.closest("[hidden]");
  if (shown) {
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", box.id);
  }
  if (shown && focused) {
    field.focus();
    if (caret) caret(field);
  } else {
    box.focus();
  }
}

// The pasted text opened, the dialog closed; a refusal stays in the dialog with the text, the caret at the line and
// column it names, so that a typo is mended where it is rather than pasted again after a reopened dialog.
async function pasteFromForm() {
  pasteRefused(null);
  if (await loaded(ask("load", "/api/load", { text: $("paste-text").value }), "pasted", pasteRefused)) {
    $("paste-dialog").close();
  }
}

// The text box is marked at any refusal; the focus goes to it, the caret at the fault, where the message names a line
// and column, else to the message.
function pasteRefused(error) {
  const at = error ? error.message.match(/^pasted text:(\d+):(\d+):/) : null;
  sayRefused($("paste-dialog"), $("paste-error"), error, $("paste-text"), { focused: Boolean(at), caret: (text) => {
    const offset = textOffset(text.value, Number(at[1]), Number(at[2]));
    text.setSelectionRange(offset, offset);
  } });
}

// Where line `line`, column `column` (from 1, as the server counts: a column a character) is in `text`, in the
// UTF-16 units a text box counts: a card sign such as 🂡 is one character but two units.
function textOffset(text, line, column) {
  // the server counts a CR, an LF or a CRLF as one line end, and the text box holds LFs alone
  const lines = text.split("\n");
  const row = Math.min(line, lines.length);
  const before = lines.slice(0, row - 1).reduce((sum, l) => sum + l.length + 1, 0);
  return before + Array.from(lines[row - 1]).slice(0, Math.max(0, column - 1)).join("").length;
}

function fitDeclarer() {
  $("deal-declarer").max = $("deal-seats").value;  // a seat of the deal
}

// A choice made with the mouse gives the arrow keys back to the play; one made with the keys keeps the focus, so the
// next arrow picks the next objective (a blur after the first arrow left a keyboard player nowhere).
function giveKeysBack(control) {
  // an arrow on a radio checks (and focuses) the next of its group: the key went to the one it left
  const same = S.lastKey && (S.lastKey.target === control
    || (control.type === "radio" && S.lastKey.target.name === control.name));
  const keyed = same && performance.now() - S.lastKey.at < 1000;
  if (!keyed) control.blur();
}

async function start() {
  document.addEventListener("keydown", (e) => { S.lastKey = { target: e.target, at: performance.now() }; }, true);
  $("records").addEventListener("change", (e) => openBoard(e.target.value));
  $("upload").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const form = new FormData();
    form.append("file", file);
    loaded(ask("load", "/api/load", form), "uploaded");
    e.target.value = "";
  });
  $("paste-open").addEventListener("click", () => { pasteRefused(null); $("paste-dialog").showModal(); });
  // Open asks (Enter in the text box is a new line); only an opened record closes the dialog
  $("paste-go").closest("form").addEventListener("submit", (e) => { e.preventDefault(); pasteFromForm(); });
  $("paste-cancel").addEventListener("click", () => $("paste-dialog").close());
  $("deal-open").addEventListener("click", () => { dealRefused(null); $("deal-dialog").showModal(); });
  $("deal-game").addEventListener("change", fillDealForm);
  $("deal-seats").addEventListener("change", fitDeclarer);
  // Deal, or Enter in a field (Deal is the form's default button: Cancel is no submit button), asks; only a deal closes
  $("deal-go").closest("form").addEventListener("submit", (e) => { e.preventDefault(); dealFromForm(); });
  $("deal-cancel").addEventListener("click", () => $("deal-dialog").close());
  $("save").addEventListener("click", save);
  $("copy-command").addEventListener("click", copyCommand);
  $("objective").addEventListener("change", (e) => {
    // after a refused position the table shown is the last one accepted: its values and the graph of its line are
    // asked, not the refused one's; the moves past it stay a line ▶ goes on with, as a card played or ← leaves them
    if (S.stepError && S.shownAt !== null && S.shownAt !== S.cursor) {
      S.cursor = S.shownAt;
      remember();
      showError("");
    }
    S.objective = e.target.value; S.values = null; S.bestAhead = 0;
    giveKeysBack(e.target);
    renderTable(); renderValues(); markOdds();
    if (S.mode === "dd") loadValues();
    loadCurve();
  });
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener("change", (e) => {
      S.mode = e.target.value; S.bestAhead = 0; giveKeysBack(e.target); refresh();
    });
  }
  const nav = { first: () => goTo(0), undo: takeBack, redo: () => goTo(S.cursor + 1),
    last: () => goTo(S.moves.length), best: () => (canAskAgain() ? askValuesAgain() : playBest()) };
  for (const [id, act] of Object.entries(nav)) $(id).addEventListener("click", () => unavailable(id) || act());
  $("upload-open").addEventListener("click", () => $("upload").click());
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select, dialog")) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;  // the browser's own (Alt+Left goes back)
    const card = e.target.closest(".card.legal");
    if (card && (e.key === "Enter" || e.key === " ")) {  // the focused card, and the next mover's first card focused
      if (e.repeat) { e.preventDefault(); return; }  // a held key plays one card, not the next seat's too
      e.preventDefault();
      S.focusNext = true;
      play(card.dataset.card);
      return;
    }
    if (e.key === "Backspace") {  // takes a card back from anywhere, on a card too, where ← chooses among the cards
      e.preventDefault();
      // the keys stay with the cards (from a card, or the table after the last one): the seat to move again
      if ((card || e.target === $("table")) && S.cursor > 0) S.focusNext = true;
      takeBack();
      return;
    }
    if (card && cardKeys(card, e.key)) { e.preventDefault(); return; }  // on a card the arrows choose among the cards
    const dot = e.target.closest("#graph .dot");  // a point of the graph: Enter goes there, the arrows choose one
    if (dot && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); goTo(Number(dot.dataset.index)); return; }
    if (dot && graphKeys(dot, e.key)) { e.preventDefault(); return; }
    const step = e.target.closest("#play .move");
    if (step && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); goTo(Number(step.dataset.move)); return; }
    const trick = { ArrowUp: -1, ArrowDown: 1 }[e.key];  // in the play list, its lines: a trick back or on
    if (step && trick) { e.preventDefault(); goTo(Math.max(0, S.cursor + trick * S.view.seats)); return; }
    // a focused button or link keeps its own Enter and space (Upload..., |<): space plays the best card elsewhere
    if ((e.key === " " || e.key === "Enter") && e.target.closest("button, a[href]")) return;
    const keys = { ArrowLeft: takeBack, ArrowRight: () => goTo(S.cursor + 1), Home: () => goTo(0),
      End: () => goTo(S.moves.length), " ": () => bestKey(e.repeat) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  let begin;
  try { begin = await ask("start", "/api/start"); } catch (error) { showError(error.message); return; }
  S.games = begin.games;
  S.boardVariant = begin.variant || {};
  $("deal-game").replaceChildren(...S.games.map((g) => el("option", { value: g.name }, g.name)));
  fillDealForm();
  const problems = [];
  S.server = begin.server;
  for (const file of begin.files) {
    addRecords(file.boards, file.file, true);
    if (file.error) problems.push(file.error);
  }
  const restored = await restore(problems, begin.open);
  if (!restored && begin.open) openBoard(begin.open);
  if (problems.length) showError(problems.join("\n"));
  else if (!restored && !begin.open) $("centre").textContent = "Open a .tbn file, paste a record or deal a new one.";
}

start();
