"use strict";
(async () => {
  let hand = false, turning = false, quarter = false, faceDown = [];
  const status = (t) => { document.getElementById("table-status").textContent = t; };
  const board = await Fog.board("board", {
    onPiece: async (piece) => {
      if (lifted === piece) { lift(null); return; }  /* tapped again: left where it stands */
      if (lifted) {  /* laid on top of the piece there (a pile: the last one laid shows) */
        const cell = Object.keys(shown).find((c) => shown[c].some((e) => e.split("^")[0] === piece));
        if (cell) put(lifted, cell);
        return;
      }
      if (quarter) return turnQuarter(piece);
      if (!turning) { lift(piece); return; }  /* a token on the board moves as one off it: tap it, then its place */
      const res = await Fog.api("POST", "/api/table/turn-over", {piece});
      if (res.ok) {
        faceDown = res.data.face_down; draw(res.data.table);
        /* a piece with a marker on each face shows the other one: say which face is up */
        const entry = Object.values(res.data.table).flat().find((e) => e.split("^")[0] === piece) || "";
        const face = (board.g.pieces[piece] || {}).faces ? entry.split("^")[1] : null;
        status(piece + (face ? " turned over: its " + face + " up" : faceDown.includes(piece) ? " turned over" : " turned face up"));
      }
    },
    onDrop: (piece, cell) => put(piece, cell),
    onCell: (cell) => { if (lifted) put(lifted, cell); },
  });
  /* A piece that faces a way (the layout's facings) turned a quarter clockwise where it stands, as a hand would. */
  async function turnQuarter(piece) {
    const ways = Object.entries(board.g.facings || {}).sort((a, b) => b[1] - a[1]).map(([w]) => w);
    const cell = Object.keys(shown).find((c) => shown[c].some((e) => e.split("^")[0] === piece));
    if (!cell || !(board.g.pieces[piece] || {}).facing || !ways.length) { status(Fog.named(piece) + " faces no way"); return; }
    const now = shown[cell].find((e) => e.split("^")[0] === piece).split("^")[1];
    const next = ways[(ways.indexOf(now) + 1) % ways.length];
    const res = await Fog.api("POST", "/api/table/move", {piece, cell, facing: next});
    if (res.ok) { draw(res.data.table); status(Fog.named(piece) + " turned to face " + next); }
  }
  /* A token tapped on the board is held (drawn picked) until a place is tapped; a drag moves it at once. */
  function lift(piece) {
    lifted = piece;
    board.selected = piece;
    draw(shown);
    status(piece ? Fog.named(piece) + ": tap the place to put it on (tap it again to leave it)" : "");
  }
  async function put(piece, cell) {
    lifted = null;
    board.selected = null;
    /* a piece with a marker on each of more than two faces (a die) put down is thrown: a face up at random */
    const faces = (board.g.pieces[piece] || {}).faces || [];
    const thrown = cell && faces.length > 2 ? faces[Math.floor(Math.random() * faces.length)] : null;
    const res = await Fog.api("POST", "/api/table/move", thrown ? {piece, cell, facing: thrown} : {piece, cell});
    if (res.ok) {
      draw(res.data.table);
      status(Fog.named(piece) + (thrown ? " thrown on " + Fog.place(cell) + ": " + thrown + " up"
        : cell ? " put on " + Fog.place(cell) : " taken off the table"));
    }
    else draw(shown);  /* not held any more: drawn as it stands */
  }
  let owners = {}, lifted = null, shown = {}, supplies = {}, seats = null, inHand = {};
  /* The pieces not on the table (one not yet laid, a token taken off): tap one, then a cell. Pieces
     that look alike (a class the game compares by count: tiles) are one button with how many there
     are, the next of them lifted; a piece in a seat colour nobody plays in this game is not offered. */
  function offTable(table) {
    const on = new Set(Object.values(table).flat().map((e) => e.split("^")[0]));  /* red-s1^N: red-s1 */
    const box = document.getElementById("off-table");
    box.replaceChildren();
    const offered = new Map();  /* a button: a piece alone, or the first of its look-alike class */
    Object.entries(board.g.pieces || {}).filter(([id, p]) => !on.has(id) &&
      !(seats && p.colour in (board.g.colours || {}) && !seats.has(p.colour))).forEach(([id, p]) => {
      const key = p.alike ? "alike:" + p.alike : id;
      const kept = offered.get(key);
      if (kept) kept.count += 1; else offered.set(key, {id, p, count: 1});
    });
    /* no more of a kind than the players have in hand to lay (the view's in_hand), less those already
       laid out in a supply beside the board: a piece the box holds for fewer players (the rules give
       it only then) stays in the box */
    const supplied = {};
    (board.g.cells || []).filter((c) => c.supply).forEach((c) => (table[c.id] || []).forEach((e) => {
      const kind = (board.g.pieces[e.split("^")[0]] || {}).alike;
      if (kind) supplied[kind] = (supplied[kind] || 0) + 1;
    }));
    offered.forEach(({id, p, count: off}) => {
      const count = p.alike in inHand ? Math.max(0, Math.min(off, inHand[p.alike] - (supplied[p.alike] || 0))) : off;
      if (!count) return;
      const b = Fog.el("button", {type: "button", "class": "secondary", "data-piece": id,
                                  "aria-pressed": String(lifted === id)}, (p.label || id) + (count > 1 ? " ×" + count : ""));
      b.onclick = () => { lifted = lifted === id ? null : id; board.selected = null; draw(table);
        status(lifted ? Fog.named(id) + ": tap the place to put it on" : "");
        /* the list is under the board: on a phone the board comes back up, the hint on it */
        if (lifted) document.getElementById("board").scrollIntoView({block: "nearest"}); };
      box.appendChild(b);
    });
    document.getElementById("off-table-card").hidden = !box.childElementCount;
  }
  function draw(table) { shown = table; board.render(table, {owners, faceDown, supplies}); offTable(table); }
  async function reload() {
    const res = await Fog.api("GET", "/api/table");
    if (res.ok) { faceDown = res.data.face_down || []; draw(res.data.table); }
  }
  document.getElementById("turn-over").onclick = (e) => {
    turning = !turning;
    e.target.setAttribute("aria-pressed", String(turning));
    e.target.textContent = turning ? "Done turning tokens over" : "Turn tokens over (tap them)";
    status(turning ? "tap a token to turn it over" : "");
  };
  const facingButton = document.getElementById("turn-facing");
  facingButton.hidden = !Object.keys(board.g.facings || {}).length;  /* only a board whose pieces face a way */
  facingButton.onclick = (e) => {
    quarter = !quarter;
    e.target.setAttribute("aria-pressed", String(quarter));
    e.target.textContent = quarter ? "Done turning tokens" : "Turn tokens a quarter (tap them)";
    status(quarter ? "tap a token to turn it a quarter clockwise" : "");
  };
  document.getElementById("place-all").onclick = async () => {
    const res = await Fog.api("POST", "/api/table/setup", {});
    if (res.ok) { draw(res.data.table); status("pieces placed"); }
  };
  document.getElementById("hand").onclick = async (e) => {
    hand = !hand;
    await Fog.api("POST", "/api/table/hand", {where: hand ? "random" : null});
    e.target.textContent = hand ? "Take the hand away" : "Hold a hand over the board";
  };
  Fog.on("state", (s) => {
    owners = s.owners || {};
    supplies = s.supplies || {};  /* what a supply beside the board holds, as the game counts it */
    inHand = s.in_hand || {};  /* look-alike kind -> how many the players still have to lay */
    const playing = (s.players || []).flatMap((p) => (p && p.colours) || []);  /* the seat colours in play */
    seats = playing.length ? new Set(playing) : null;
    board.turnTo(s);  /* a board wider than a phone: the pieces of the player to move */
    /* only a game that declares pieces turned over by hand offers it */
    document.getElementById("turn-over").hidden = !((s.declaration || {}).features || []).includes("turn-over");
    reload();
  });
  Fog.connect();
})();
