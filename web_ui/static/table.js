"use strict";
(async () => {
  let hand = false, turning = false, quarter = null, faceDown = [];
  const lastWay = {};  /* a seat colour -> the way last chosen for one of its pieces: the next put down faces so too */
  const status = (t) => { document.getElementById("table-status").textContent = t; };
  /* where a piece lies on the table and the mark its entry carries (a way faced, a face up): null, off it */
  const entryOf = (piece) => {
    for (const [cell, es] of Object.entries(shown)) {
      const e = es.find((x) => x.split("^")[0] === piece);
      if (e) return {cell, mark: e.split("^")[1] || null};
    }
    return null;
  };
  const board = await Fog.board("board", {
    onPiece: async (piece) => {
      if (lifted === piece) { lift(null); return; }  /* tapped again: left where it stands */
      if (lifted) {
        const at = entryOf(piece), held = entryOf(lifted);
        /* both on the table: the page asks whether to swap them (the piece tapped cannot be lifted from
           under the held one once laid on it) or to lay the held one on it */
        if (at && held && at.cell !== held.cell) { offerSwap(lifted, piece); return; }
        if (at) put(lifted, at.cell);  /* laid on top of the piece there (a pile: the last one laid shows) */
        return;
      }
      if (quarter) return turnQuarter(piece, quarter);
      if (!turning) { lift(piece); return; }  /* a token on the board moves as one off it: tap it, then its place */
      const res = await Fog.api("POST", "/api/table/turn-over", {piece});
      if (res.ok) {
        faceDown = res.data.face_down; draw(res.data.table);
        /* a piece with a marker on each face shows the other one: say which face is up */
        const face = (board.g.pieces[piece] || {}).faces ? (entryOf(piece) || {}).mark : null;
        status(Fog.named(piece) + (face ? " turned over: its " + face + " up" : faceDown.includes(piece) ? " turned over" : " turned face up"));
      }
    },
    onDrop: (piece, cell) => put(piece, cell),
    onCell: (cell) => { if (lifted) put(lifted, cell); },
  });
  /* A piece that faces a way (the layout's facings) turned a quarter to its left or right where it
     stands, as a hand would: in one step, so the camera never sees it pass through the way between
     (a left turn made as three right ones faces the other way on the way, which a game reads as a move). */
  async function turnQuarter(piece, side) {
    const ways = Object.entries(board.g.facings || {}).sort((a, b) => b[1] - a[1]).map(([w]) => w);  /* clockwise */
    const at = entryOf(piece), look = board.g.pieces[piece] || {};
    if (!at || !look.facing || !ways.length) { status(Fog.named(piece) + " faces no way"); return; }
    const next = ways[(ways.indexOf(at.mark) + (side === "left" ? ways.length - 1 : 1)) % ways.length];
    const res = await Fog.api("POST", "/api/table/move", {piece, cell: at.cell, facing: next});
    if (res.ok) {
      lastWay[look.colour || ""] = next;
      draw(res.data.table); status(Fog.named(piece) + " turned " + side + " to face " + next);
    }
  }
  /* The way a piece that faces a way is put down with when it faced none (from the box, off the
     table): the way last chosen for its side, else the way the game brings it on (the layout's
     brought: blue's characters face south, towards the island), else the way most of its side face
     on the table, else the layout's first way; never at random, which the camera could read as
     between two ways. */
  function wayFor(piece) {
    const look = board.g.pieces[piece] || {}, colour = look.colour || "", facings = board.g.facings || {};
    if (lastWay[colour]) return lastWay[colour];
    if (look.brought in facings) return look.brought;
    const counts = {};
    Object.values(shown).flat().forEach((e) => {
      const [id, way] = e.split("^");
      if (way in facings && (board.g.pieces[id] || {}).colour === colour) counts[way] = (counts[way] || 0) + 1;
    });
    const most = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
    return most || Object.keys(facings).sort((a, b) => facings[a] - facings[b])[0] || null;
  }
  /* A token tapped on the board is held (drawn picked) until a place is tapped; a drag moves it at once. */
  function lift(piece) {
    lifted = piece;
    /* one on the table can also be taken off it by tapping, as a hand lifts it away */
    showOffer(piece && entryOf(piece) ? [["Take it off the table", () => put(piece, null)], ["Leave it", () => lift(null)]] : null);
    board.selected = piece;
    draw(shown);
    status(piece ? Fog.named(piece) + ": tap the place to put it on, or take it off the table (tap it again to leave it)" : "");
  }
  async function put(piece, cell) {
    lifted = null;
    board.selected = null;
    showOffer(null);
    /* a piece with a marker on each of more than two faces (a die) put down is thrown: a face up at random */
    const look = board.g.pieces[piece] || {}, faces = look.faces || [], was = (entryOf(piece) || {}).mark;
    const thrown = cell && faces.length > 2 ? faces[Math.floor(Math.random() * faces.length)] : null;
    /* one with two faces, brought from off the table, goes down with the face the game lays it with
       (the layout's laid: a hidden number face down); one that faces a way, with a way chosen */
    const laid = cell && !was && faces.length === 2 ? look.laid || null : null;
    const way = cell && !was && look.facing ? wayFor(piece) : null;
    const facing = thrown || laid || way;
    const res = await Fog.api("POST", "/api/table/move", facing ? {piece, cell, facing} : {piece, cell});
    if (res.ok) {
      draw(res.data.table);
      status(Fog.named(piece) + (thrown ? " thrown on " + Fog.place(cell) + ": " + thrown + " up"
        : cell ? " put on " + Fog.place(cell) + (laid ? ", its " + laid + " up" : way ? ", facing " + way : "")
        : " taken off the table"));
    }
    else draw(shown);  /* not held any more: drawn as it stands */
  }
  /* The held piece and the one tapped, both on the table: swap them, or lay the held one on it. */
  function offerSwap(held, other) {
    status(Fog.named(held) + " and " + Fog.name(other) + ":");
    showOffer([["Swap them", () => swap(held, other)],
               ["Lay " + Fog.name(held) + " on it", () => put(held, entryOf(other).cell)],
               ["Leave them", () => lift(null)]]);
  }
  function showOffer(choices) {
    const box = document.getElementById("table-offer");
    box.replaceChildren(...(choices || []).map(([words, then], k) =>
      Fog.el("button", {type: "button", "class": k ? "secondary" : "", "data-offer": String(k)}, words)));
    [...box.children].forEach((b, k) => { b.onclick = choices[k][1]; });
    box.hidden = !choices;
  }
  /* Two pieces swapped as hands swap them: the first lifted off (set aside), the second moved to its
     place, the first put down where the second was with the way or face it had (one turned over
     turned back over). Each is a move the camera may see; the game reads them as a swap. */
  async function swap(a, b) {
    const ea = entryOf(a), eb = entryOf(b), down = faceDown.includes(a);
    lifted = null; board.selected = null; showOffer(null);
    if (!ea || !eb) { draw(shown); return; }
    let res = null;
    for (const step of [{piece: a, cell: null}, {piece: b, cell: ea.cell},
      ea.mark ? {piece: a, cell: eb.cell, facing: ea.mark} : {piece: a, cell: eb.cell}]) {
      res = await Fog.api("POST", "/api/table/move", step);
      if (!res.ok) { reload(); return; }
    }
    if (down) res = await Fog.api("POST", "/api/table/turn-over", {piece: a});
    if (res.ok) draw(res.data.table);
    status(Fog.named(a) + " and " + Fog.name(b) + " swapped: " + Fog.name(a) + " on " + Fog.place(eb.cell) +
      ", " + Fog.name(b) + " on " + Fog.place(ea.cell));
  }
  let owners = {}, lifted = null, shown = {}, supplies = {}, seats = null, inHand = {}, inBox = null;
  /* The pieces not on the table (one not yet laid, a token taken off): tap one, then a cell. Pieces
     that look alike (a class the game compares by count: tiles) are one button with how many there
     are, one of them drawn at random as a hand draws from a pile; a piece in a seat colour nobody plays
     in this game is not offered, nor one the game keeps out of play (in_box: the pieces the hands may
     take, such as the X-counters in the pile and not those the rules set aside). */
  function offTable(table) {
    const on = new Set(Object.values(table).flat().map((e) => e.split("^")[0]));  /* red-s1^N: red-s1 */
    const box = document.getElementById("off-table");
    box.replaceChildren();
    const offered = new Map();  /* a button: a piece alone, or the first of its look-alike class */
    /* pieces the layout names alike (one label, kind and colour: X-counters in a pile) look alike too */
    const looks = (p) => ["look", p.label, p.kind, p.colour, p.shape].join("|");
    const lookCount = {};
    Object.values(board.g.pieces || {}).forEach((p) => { if (p.label) lookCount[looks(p)] = (lookCount[looks(p)] || 0) + 1; });
    Object.entries(board.g.pieces || {}).filter(([id, p]) => !on.has(id) && !(inBox && !inBox.includes(id)) &&
      !(seats && p.colour in (board.g.colours || {}) && !seats.has(p.colour))).forEach(([id, p]) => {
      const key = p.alike ? "alike:" + p.alike : p.label && lookCount[looks(p)] > 1 ? looks(p) : id;
      const kept = offered.get(key);
      if (kept) { kept.count += 1; kept.ids.push(id); } else offered.set(key, {id, p, count: 1, ids: [id]});
    });
    /* no more of a kind than the players have in hand to lay (the view's in_hand), less those already
       laid out in a supply beside the board: a piece the box holds for fewer players (the rules give
       it only then) stays in the box */
    const supplied = {};
    (board.g.cells || []).filter((c) => c.supply).forEach((c) => (table[c.id] || []).forEach((e) => {
      const kind = (board.g.pieces[e.split("^")[0]] || {}).alike;
      if (kind) supplied[kind] = (supplied[kind] || 0) + 1;
    }));
    offered.forEach(({id, p, count: off, ids}) => {
      const count = p.alike in inHand ? Math.max(0, Math.min(off, inHand[p.alike] - (supplied[p.alike] || 0))) : off;
      if (!count) return;
      const b = Fog.el("button", {type: "button", "class": "secondary", "data-piece": id,
                                  "aria-pressed": String(ids.includes(lifted))}, Fog.sentence(p.label || id) + (count > 1 ? " ×" + count : ""));
      b.onclick = () => {
        lifted = ids.includes(lifted) ? null : ids[Math.floor(Math.random() * ids.length)];  /* drawn at random */
        board.selected = null; showOffer(null); draw(table);
        status(lifted ? Fog.named(lifted) + ": tap the place to put it on" : "");
        /* the list is under the board: on a phone the board comes back up, the hint on it */
        if (lifted) document.getElementById("board").scrollIntoView({block: "nearest"}); };
      box.appendChild(b);
    });
    document.getElementById("off-table-card").hidden = !box.childElementCount;
  }
  function draw(table) { shown = table; board.render(table, {owners, faceDown, supplies}); offTable(table); }
  /* the table of a game with secrets is the table's screen's: with a PIN set the page asks for it once;
     declined, it is not asked again at each change, the refusal stays said under the board */
  let pinDeclined = false, handsRefused = false;
  async function reload() {
    const res = pinDeclined ? await fetch("/api/table", {headers: {"Accept": "application/json"}}).then(
      async (r) => ({ok: r.ok, status: r.status, data: await r.json().catch(() => ({}))})) :
      await Fog.api("GET", "/api/table", null, true);
    if (res.ok) { faceDown = res.data.face_down || []; inBox = res.data.in_box || null; draw(res.data.table); return; }
    if (res.status === 401) pinDeclined = true;
    status(res.data.error || "the simulated table cannot be shown here");  /* said once, under the board */
    /* a phone joined to a seat is refused the table (it names face-down pieces): no hands offered either */
    if (res.status === 403) {
      handsRefused = true;  /* for good: no later state shows a tool again */
      document.querySelectorAll("#table-tools button, #off-table-card").forEach((b) => { b.hidden = true; });
    }
  }
  document.getElementById("turn-over").onclick = (e) => {
    turning = !turning;
    e.target.setAttribute("aria-pressed", String(turning));
    e.target.textContent = turning ? "Done turning tokens over" : "Turn tokens over (tap them)";
    status(turning ? "tap a token to turn it over" : "");
  };
  /* Turn left and Turn right: a token tapped turns a quarter that way; the button pressed again stops */
  const turnButtons = {left: document.getElementById("turn-left"), right: document.getElementById("turn-right")};
  Object.entries(turnButtons).forEach(([side, button]) => {
    button.hidden = handsRefused || !Object.keys(board.g.facings || {}).length;  /* only a board whose pieces face a way */
    button.onclick = () => {
      quarter = quarter === side ? null : side;
      Object.entries(turnButtons).forEach(([s, b]) => {
        b.setAttribute("aria-pressed", String(quarter === s));
        b.textContent = quarter === s ? "Done turning " + s : "Turn tokens " + s + " (tap them)";
      });
      status(quarter ? "tap a token to turn it a quarter to its " + quarter : "");
    };
  });
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
    document.getElementById("turn-over").hidden = handsRefused || !((s.declaration || {}).features || []).includes("turn-over");
    reload();
  });
  Fog.connect();
})();
