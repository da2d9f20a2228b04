"use strict";
(async () => {
  let state = null, selected = null, ways = {}, board = null;
  const mode = () => document.querySelector("input[name=mode]:checked").value;
  const hint = (t) => { document.getElementById("mode-hint").textContent = t; };
  /* The switch and its hint always say the same: Correct is for the disagreement it was opened for and
     ends with it (put right on the table, or one piece corrected); with nothing to correct it is Move. */
  const IDLE = {move: "Tap a piece, then where it goes.", correct: "Correct: tap the piece, then the place where it really is."};
  const idle = () => hint(IDLE[mode()]);
  function setMode(m, why) {
    document.querySelector("input[name=mode][value=" + m + "]").checked = true;
    selected = null; ways = {}; if (board) { board.selected = null; board.showTargets(null, []); draw(); }  /* its reach goes too */
    hint(why || IDLE[m]);
  }
  const nothingToCorrect = "Nothing to correct: the table and the game agree. Tap a piece, then where it goes.";
  document.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", () => {
    if (mode() === "correct" && state && !state.out_of_sync) setMode("move", nothingToCorrect); else setMode(mode());
  }));
  async function send(piece, cell, action) {
    selected = null; board.selected = null; board.showTargets(null, []); ways = {};
    if (mode() === "correct") {
      /* a tap with nothing left to correct is never logged as a correction */
      if (!state || !state.out_of_sync) { setMode("move", nothingToCorrect); return; }
      const res = await Fog.api("POST", "/api/correction", {piece, cell});
      if (res.ok) { setMode("move"); return; }  /* one correction, then the switch is back on Move */
    } else await Fog.api("POST", "/api/move", action ? {piece, cell, action} : {piece, cell});
    idle();
  }
  /* Several ways to one place (two plays that both take a piece there): the players say which. */
  const picker = document.getElementById("pick");
  function pick(piece, cell) {
    const choices = ways[cell] || [];
    if (choices.length < 2) { send(piece, cell, choices.length ? choices[0].action : undefined); return; }
    /* the place in the game's words ("the yellow starting space"), else as printed on the board (T14) */
    document.getElementById("pick-title").textContent = Fog.named(piece) + " to " + Fog.place(cell) + ": which was it?";
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
  /* Escape puts a tapped piece down: its dots and its hint go (the "which was it?" box closes first) */
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || picker.open || !selected) return;
    selected = null; ways = {}; board.showTargets(null, []); draw(); idle();
  });
  board = await Fog.board("board", {
    zoom: true,  /* on a phone: places a thumb can hit, the board scrolling sideways if it must */
    onPiece: (id) => tap(id),
    onTarget: (piece, cell) => pick(piece, cell),
    /* a supply beside the board (the tiles, the mountains not placed) is tapped as a piece is: its dots
       are where what it holds can be laid */
    onCell: (cell) => { if (selected) { if (ways[cell]) pick(selected, cell); else send(selected, cell); }
                        else if (state && state.supplies && cell in state.supplies) tap(cell);
                        else if (state && mode() === "move") { if (waits(state, true)) sayWaits(waits(state, true)); else layAt(cell); } },
  });
  /* An empty place tapped with nothing picked: what can be brought to the table there (a disc from a
     player's hand), each said in words; one tap on a choice lays it, Cancel leaves the place empty. */
  async function layAt(cell) {
    const res = await Fog.api("GET", "/api/laid?cell=" + encodeURIComponent(cell));
    const choices = res.ok ? res.data.choices : [];
    if (!choices.length) { hint("Nothing can be laid on " + Fog.place(cell) + " now. " + IDLE.move); return; }
    document.getElementById("pick-title").textContent = "On " + Fog.place(cell) + ": what is laid there?";
    const box = document.getElementById("pick-choices");
    box.replaceChildren();
    choices.forEach((c) => {
      const b = Fog.el("button", {type: "button", "class": "choice"}, c.summary);
      b.onclick = async () => { picker.close(); await Fog.api("POST", "/api/laid", {cell, summary: c.summary}); idle(); };
      box.appendChild(b);
    });
    picker.showModal();
  }
  async function tap(id) {
      if (selected === id) { selected = null; board.showTargets(null, []); draw(); idle(); return; }
      const why = mode() === "move" && state ? waits(state, true) : "";
      if (why) { selected = null; board.showTargets(null, []); draw(); sayWaits(why); return; }  /* nothing stacked on top */
      selected = id; draw();
      if (mode() === "correct") { board.showTargets(null, []); hint(Fog.named(id) + ": tap the place where it really stands."); return; }
      const res = await Fog.api("GET", "/api/targets?piece=" + encodeURIComponent(id));
      const cells = res.ok ? res.data.targets.map((t) => t.cell) : [];
      if (selected !== id) return;
      ways = res.ok ? Object.fromEntries(res.data.targets.map((t) => [t.cell, t.choices || [{action: t.action}]])) : {};
      board.showTargets(id, cells);
      const reach = (state && state.reach || {})[id];
      /* no dots but places its move can end on: the game takes the move from the table, not a tap */
      if (reach) { sayReach(id, reach, cells.length ? "Tap a dot to move it there." : (reach.moves || []).length ? "" : "It cannot move now."); return; }
      if (state && state.supplies && id in state.supplies) {
        const what = Fog.place(id).charAt(0).toUpperCase() + Fog.place(id).slice(1);
        hint(cells.length ? what + ": tap a dot to lay one there." : what + ": nothing of it can be laid now.");
        return;
      }
      hint(cells.length ? Fog.named(id) + ": tap a dot to move it there." : Fog.named(id) + " cannot move now.");
  }
  /* A tapped piece's reach (the view's reach) in words under the board, each list after a key drawn as
     its places are shaded: "Ada's red tank 1 (range 4) can hit E6; its move can end on E5, E4." */
  function sayReach(id, reach, then) {
    const key = (look) => Fog.el("span", {"class": "reach-key " + look, "aria-hidden": "true"});
    const list = (cells) => cells.map((c) => Fog.place(c)).join(", ");
    const shots = reach.shots || [], moves = reach.moves || [];
    const box = document.getElementById("mode-hint");
    /* a square aimed at with nobody on it is said so: "can hit" only where a piece stands */
    const empty = shots.length > 0 && shots.every((c) => !((state && state.placement || {})[c] || []).length);
    box.replaceChildren(Fog.named(id) + (reach.note ? " (" + reach.note + ")" : "") + (empty ? " aims at " : " can hit "),
      ...(shots.length ? [key("shot"), list(shots)] : ["nothing from here"]), ...(empty ? [" (nothing there now)"] : []),
      ...(moves.length ? ["; its move can end on ", key("move"), list(moves)] : []), "." + (then ? " " + then : ""));
  }
  /* a game whose tokens show no icons or marks has nothing to explain there: the box is hidden */
  document.getElementById("legend-card").hidden = !Fog.legend(document.getElementById("legend"), board.g);
  function draw() {
    if (!state || !state.placement) return;
    board.selected = selected;
    /* the groups of places the game shades (its declaration's shades: covered, warned), read from its view */
    const shades = ((state.declaration || {}).shades || []).map((d) => ({look: d.look, groups: read(state, d.key) || []}));
    /* tokens the rules took but still on the table are drawn where the camera sees them, marked */
    const shown = Object.fromEntries(Object.entries(state.placement).map(([c, ps]) => [c, ps.slice()]));
    (state.to_turn_over || []).forEach((t) => { (shown[t.cell] = shown[t.cell] || []).push(t.piece); });
    board.render(shown, {owners: state.owners, shades,
      offenders: state.out_of_sync ? state.out_of_sync.offenders : [], moved: state.moved,
      stacks: state.stacks, supplies: state.supplies,  /* a game's view: pieces under a stack's top, what a supply holds */
      facing: state.facing,  /* a game whose pieces face a way: piece -> way (drawn pointing so) */
      reach: mode() === "move" ? state.reach : null,  /* piece -> what it could hit or reach: shaded on a tap */
      looks: state.looks,  /* a game that hides faces: piece -> how it is drawn to this reader */
      lastMove: state.last_move || [], misplaced: state.out_of_sync ? state.out_of_sync.pieces || [] : [],
      turnOver: (state.to_turn_over || []).map((t) => t.piece)});
  }
  const text = (id, v) => { document.getElementById(id).textContent = v; };
  /* End turn is offered only when it would be taken; otherwise the reason is said next to it. */
  /* What must be put right before anything new is played, in words with the way forward (the companion
     refuses a play stacked on a table that differs: the hands would be blamed for it at the next look).
     The same words hold End turn, the buttons under the board and a piece tapped, in every game. */
  /* tapping: a piece or a place tapped on the board, which may follow a play entered here that the hands
     have still to make (a movement a step at a time: the hands make them together); a button may not */
  function waits(s, tapping) {
    const camera = s.camera && s.camera.healthy;
    const entered = s.step && /now on the table/.test(s.step.says);  /* a play entered here the hands have not made */
    return !s.placement ? "No game yet: start one on Setup." :
      s.outcome ? "The game is over." :
      s.verifying ? "The camera checks the setup first." :
      picking(s) ? "The " + picking(s).title.toLowerCase() + " comes first: it is made on the Setup page." :
      (s.out_of_sync && camera) ? "The table and the game disagree: put the pieces back as the banner lists, or " +
        "accept the board or correct a piece, first." :
      (s.decision && s.decision.length && camera) ? "Say how the last move is read first." :
      (s.step && camera && !s.step.whole) ? (entered ? tapping ? "" : "The last play is not on the table yet: " +
        s.step.says.replace(/^.*now on the table: /, "") + ". Make it there first, then play on." :
        "A move is under way on the table (" + s.step.says + "): finish it first.") : "";
  }
  /* the same, under the board when a piece or a place is tapped meanwhile; a simulated table's hands are its page */
  function sayWaits(why) {
    const box = document.getElementById("mode-hint");
    box.replaceChildren(why);
    if (state && state.step && state.camera && state.camera.simulated && /now on the table/.test(state.step.says)) {
      box.append(" The table here is simulated: make it on ", Fog.el("a", {href: "/table"}, "the Table page"), ".");
    }
  }
  function endTurnState(s) {
    const why = waits(s);
    /* a game whose turns end by playing has no End turn: its view says "end_turn": false, its declaration how */
    const hidden = s.end_turn === false;
    document.getElementById("end-turn").hidden = hidden;
    document.getElementById("end-turn").disabled = !!why;
    /* ... and what the turn in hand still owes, when the game's view says it ("move blue soldier 1 four squares") */
    const up = (t) => t.charAt(0).toUpperCase() + t.slice(1);  /* a line starts as a sentence: "Red to roll" */
    text("end-turn-why", up(hidden ? (s.placement && !s.outcome ? s.turn_ends || (s.declaration || {}).turn_ends || "" : "") :
      why || (s.outcome ? "" : s.turn_ends || "")));
    /* what is made on the Setup page (a game started, a phase of picks) is a tap away from here */
    if (!s.outcome && !s.verifying && (!s.placement || picking(s))) {
      document.getElementById("end-turn-why").append(" ", Fog.el("a", {href: "/setup", id: "to-setup"},
        s.placement ? "Make the " + picking(s).title.toLowerCase() + " there" : "Start a game"));
    }
    /* what else a player may do without a piece (fold): each asks first */
    const box = document.getElementById("turn-actions");
    box.replaceChildren();
    (s.outcome ? [] : s.turn_actions || []).forEach((t) => {
      const b = Fog.el("button", {type: "button", "class": "secondary"}, Fog.sentence(t.label));  /* "Yellow folds" */
      b.disabled = !!why;
      b.onclick = async () => {  /* asked on the page, as every other confirmation */
        if (!t.confirm || await Fog.confirmBox(t.confirm, [], t.label, "Cancel")) Fog.api("POST", "/api/act", {action: t.action});
      };
      box.appendChild(b);
    });
  }
  /* the phase being played, when the game declares it one of picks (made on the Setup page before play) */
  const picking = (s) => ((s.declaration || {}).phases || []).find((p) => p.name === s.phase && p.picks);
  /* a counter's value in the view ("a.b": key b of the dict at a), in words: lists one after another,
     a count per seat as "seat n" */
  const read = (s, key) => key.split(".").reduce((v, k) => (v && typeof v === "object" ? v[k] : undefined), s);
  function said(v) {
    if (v === undefined || v === null || v === "") return "–";
    if (Array.isArray(v)) return v.join(" ") || "none";
    if (typeof v === "object") return Object.entries(v).map(([k, n]) => k + " " + n).join(", ");
    return String(v);
  }
  /* What the game counts, as it declares: a row each, with one dot per unit of a total it is a value of. */
  function counters(s) {
    const box = document.getElementById("counters");
    box.replaceChildren();
    ((s.declaration || {}).counters || []).forEach((c) => {
      if (c.phases.length && !c.phases.includes(s.phase)) return;
      const id = "counter-" + c.key.replace(/[^A-Za-z0-9_]/g, "-");
      const row = Fog.el("div", {"class": "counter", "data-counter": c.key});
      row.append(Fog.el("span", {"class": "label"}, c.label), " ", Fog.el("b", {id}, said(read(s, c.key))));
      const value = read(s, c.key), total = c.total ? read(s, c.total) : undefined;
      if (typeof value === "number" && typeof total === "number") {
        const dots = Fog.el("span", {"class": "dots", id: id + "-dots"});
        for (let i = 0; i < total; i++) dots.appendChild(Fog.el("span", {"class": i < value ? "dot on" : "dot"}));
        row.append(" ", dots);
      }
      box.appendChild(row);
    });
  }
  let seq = null;
  Fog.on("state", (s) => {
    if (seq !== null && s.seq !== seq && selected) {  /* the game moved on: the dots are stale */
      selected = null; board.showTargets(null, []); idle();
    }
    /* the disagreement Correct was opened for is gone (fixed on the table): back to Move, said so */
    if (mode() === "correct" && !s.out_of_sync) setMode("move");
    seq = s.seq;
    state = s;
    const phase = ((s.declaration || {}).phases || []).find((p) => p.name === s.phase);
    text("phase", phase ? phase.title : s.phase);
    endTurnState(s);
    if (!s.placement) { text("active-name", "no game: open Setup"); return; }
    counters(s);
    const active = document.getElementById("active");
    active.style.background = Fog.colourOf(board.g, s.active);
    const player = (s.players || []).find((p) => p.colours.includes(s.active));
    text("active-name", s.outcome ? "nobody: the game is over" :
      s.active ? (player && player.name && player.name !== s.active ? player.name + " (" + s.active + ")" : s.active) : "–");  /* unnamed: the colour once */
    if (s.outcome) hint("The game is over: the Score page has the result.");
    document.getElementById("next").style.background = Fog.colourOf(board.g, s.next);
    /* a timed turn: the seconds left, under the name the game gives its timer */
    document.getElementById("timer-row").hidden = s.timer_left === null || s.timer_left === undefined;
    if (s.timer_left !== null && s.timer_left !== undefined) { text("timer-label", s.timer_label); text("timer", Math.round(s.timer_left)); }
    const log = document.getElementById("log");
    log.replaceChildren();
    const history = s.log || s.history || [];  /* the game's words for each move; its notation if it has none */
    log.start = history.length;
    history.slice(-40).reverse().forEach((a) => log.appendChild(Fog.el("li", {}, a.charAt(0).toUpperCase() + a.slice(1))));
    draw();
    board.turnTo(s);  /* a board wider than the screen turns to the pieces of the player to move */
  });
  function correctMode() {
    if (state && !state.out_of_sync) setMode("move", nothingToCorrect); else setMode("correct");
  }
  document.addEventListener("fog-correct", correctMode);
  if (location.hash === "#correct") correctMode();
  document.getElementById("end-turn").onclick = () => Fog.api("POST", "/api/end-turn", {});
  document.getElementById("undo").onclick = () => Fog.api("POST", "/api/undo", {});
  Fog.connect();
})();
