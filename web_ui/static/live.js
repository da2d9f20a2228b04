"use strict";
(async () => {
  let state = null, selected = null, ways = {};
  const mode = () => document.querySelector("input[name=mode]:checked").value;
  const hint = (t) => { document.getElementById("mode-hint").textContent = t; };
  async function send(piece, cell, action) {
    selected = null; board.selected = null; board.showTargets(null, []); ways = {};
    if (mode() === "correct") await Fog.api("POST", "/api/correction", {piece, cell});
    else await Fog.api("POST", "/api/move", action ? {piece, cell, action} : {piece, cell});
    hint("Tap a piece, then a cell.");
  }
  /* Several ways to one place (two cards that both take a pawn there): the players say which. */
  const picker = document.getElementById("pick");
  function pick(piece, cell) {
    const choices = ways[cell] || [];
    if (choices.length < 2) { send(piece, cell, choices.length ? choices[0].action : undefined); return; }
    const place = ((board.g.cells || []).find((c) => c.id === cell) || {}).label || cell;  /* as printed */
    document.getElementById("pick-title").textContent = Fog.named(piece) + " to " + place + ": which was it?";
    const box = document.getElementById("pick-choices");
    box.replaceChildren();
    choices.forEach((c) => {
      const b = Fog.el("button", {type: "button", "class": "choice"}, c.summary);
      b.onclick = () => { picker.close(); send(piece, cell, c.action); };
      box.appendChild(b);
    });
    picker.showModal();
  }
  document.getElementById("pick-cancel").onclick = () => picker.close();
  const board = await Fog.board("board", {
    zoom: true,  /* on a phone: places a thumb can hit, the board scrolling sideways if it must */
    onPiece: async (id) => {
      if (selected === id) { selected = null; board.showTargets(null, []); draw(); hint("Tap a piece, then a cell."); return; }
      selected = id; draw();
      if (mode() === "correct") { board.showTargets(null, []); hint(Fog.named(id) + ": tap the cell where it really stands."); return; }
      const res = await Fog.api("GET", "/api/targets?piece=" + encodeURIComponent(id));
      const cells = res.ok ? res.data.targets.map((t) => t.cell) : [];
      if (selected !== id) return;
      ways = res.ok ? Object.fromEntries(res.data.targets.map((t) => [t.cell, t.choices || [{action: t.action}]])) : {};
      board.showTargets(id, cells);
      hint(cells.length ? Fog.named(id) + ": tap a dot to move it there." : Fog.named(id) + " cannot move now.");
    },
    onTarget: (piece, cell) => pick(piece, cell),
    onCell: (cell) => { if (selected) { if (ways[cell]) pick(selected, cell); else send(selected, cell); } },
  });
  /* a game whose tokens show no icons or marks has nothing to explain there: the card is hidden */
  document.getElementById("legend-card").hidden = !Fog.legend(document.getElementById("legend"), board.g);
  function draw() {
    if (!state || !state.placement) return;
    board.selected = selected;
    const fog = state.fog || {};  /* a game's view: only The FOG has a FOG */
    /* tokens the rules took but still on the table are drawn where the camera sees them, marked */
    const shown = Object.fromEntries(Object.entries(state.placement).map(([c, ps]) => [c, ps.slice()]));
    (state.to_turn_over || []).forEach((t) => { (shown[t.cell] = shown[t.cell] || []).push(t.piece); });
    board.render(shown, {owners: state.owners, swallowed: fog.swallowed, nextFog: fog.next,
      offenders: state.out_of_sync ? state.out_of_sync.offenders : [], moved: state.moved,
      lastMove: state.last_move || [], misplaced: state.out_of_sync ? state.out_of_sync.pieces || [] : [],
      turnOver: (state.to_turn_over || []).map((t) => t.piece)});
  }
  const text = (id, v) => { document.getElementById(id).textContent = v; };
  /* End turn is offered only when it would be taken; otherwise the reason is said next to it. */
  function endTurnState(s) {
    const camera = s.camera && s.camera.healthy;
    const why = !s.placement ? "No game yet: start one on Setup." :
      s.outcome ? "The game is over." :
      s.verifying ? "The camera checks the setup first." :
      s.phase === "draft" ? "The draft comes first." :
      (s.out_of_sync && camera) ? "The table and the game disagree: put the pieces back or accept the board first." :
      (s.decision && s.decision.length && camera) ? "Say how the last move is read first." :
      (s.step && camera) ? "A move is under way on the table: finish it first." : "";
    /* a game whose turns end by playing (a card game) has no End turn: it says so by "end_turn": false */
    const hidden = s.end_turn === false;
    document.getElementById("end-turn").hidden = hidden;
    document.getElementById("end-turn").disabled = !!why;
    text("end-turn-why", hidden ? (s.placement && !s.outcome ? "A turn ends when a card is laid." : "") : why);
    /* what else a player may do without a piece (fold): each asks first */
    const box = document.getElementById("turn-actions");
    box.replaceChildren();
    (s.outcome ? [] : s.turn_actions || []).forEach((t) => {
      const b = Fog.el("button", {type: "button", "class": "secondary"}, t.label);
      b.disabled = !!why;
      b.onclick = async () => {  /* asked on the page, as every other confirmation */
        if (!t.confirm || await Fog.confirmBox(t.confirm, [], t.label, "Cancel")) Fog.api("POST", "/api/act", {action: t.action});
      };
      box.appendChild(b);
    });
  }
  let seq = null;
  Fog.on("state", (s) => {
    if (seq !== null && s.seq !== seq && selected) {  /* the game moved on: the dots are stale */
      selected = null; board.showTargets(null, []); hint("Tap a piece, then a cell.");
    }
    seq = s.seq;
    state = s;
    text("phase", s.phase);
    endTurnState(s);
    if (!s.placement) { text("active-name", "no game: open Setup"); return; }
    /* a game's view says what it counts: The FOG rounds and MP, a card game deals and cards */
    text("round-label", s.round !== undefined ? "round" : "deal");
    text("round", s.round !== undefined ? s.round : (s.deal !== undefined ? s.deal : "–"));
    document.getElementById("mp-row").hidden = s.mp_total === undefined;
    document.getElementById("fog-row").hidden = !s.fog;
    document.getElementById("card-row").hidden = s.cards_left === undefined;
    if (s.cards_left !== undefined) {
      text("last-card", s.last_card || "–");
      text("cards-left", Object.entries(s.cards_left).map(([c, n]) => c + " " + n).join(", "));
    }
    const active = document.getElementById("active");
    active.style.background = Fog.colourOf(board.g, s.active);
    const player = (s.players || []).find((p) => p.colours.includes(s.active));
    text("active-name", s.active ? (player ? player.name + " (" + s.active + ")" : s.active) : "–");
    document.getElementById("next").style.background = Fog.colourOf(board.g, s.next);
    text("mp", s.phase === "moving" ? s.mp_left : "–");
    const dots = document.getElementById("mp-dots");
    dots.replaceChildren();
    for (let i = 0; s.phase === "moving" && i < s.mp_total; i++) dots.appendChild(Fog.el("span", {"class": i < s.mp_left ? "dot on" : "dot"}));
    text("fog", s.fog ? s.fog.label : "–");
    text("swallowed", s.fog ? s.fog.swallowed.join(" ") || "none" : "–");
    document.getElementById("hourglass-row").hidden = s.hourglass_left === null;
    if (s.hourglass_left !== null) text("hourglass", Math.round(s.hourglass_left));
    const log = document.getElementById("log");
    log.replaceChildren();
    const history = s.log || s.history || [];  /* the game's words for each move; its notation if it has none */
    log.start = history.length;
    history.slice(-40).reverse().forEach((a) => log.appendChild(Fog.el("li", {}, a)));
    draw();
    board.turnTo(s);  /* a board wider than the screen turns to the pieces of the player to move */
  });
  function correctMode() {
    document.querySelector("input[name=mode][value=correct]").checked = true;
    document.getElementById("mode-hint").textContent = "Correct: tap the piece, then the cell where it really is.";
  }
  document.addEventListener("fog-correct", correctMode);
  if (location.hash === "#correct") correctMode();
  document.getElementById("end-turn").onclick = () => Fog.api("POST", "/api/end-turn", {});
  document.getElementById("undo").onclick = () => Fog.api("POST", "/api/undo", {});
  Fog.connect();
})();
