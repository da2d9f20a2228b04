"use strict";
(async () => {
  const game = document.getElementById("replay").dataset.game;
  const board = await Fog.board("board", {}, `/api/games/${encodeURIComponent(game)}/board`);  /* that game's own board */
  /* a grid (cells naming their columns) is read by its squares' names: nothing on a replay is tapped,
     so it is drawn whole at the screen's width, every column in view, when its places and pieces stay
     a thumb's size so; a larger grid (an island of 12 columns on a phone) keeps them so and scrolls
     sideways, its names pinned, as on the Board page; a track keeps its places a thumb's size in a
     frame turned to the move replayed */
  const whole = board.container.clientWidth / board.frame[2] * board.smallest >= board.constructor.MIN_PX;
  if (board.g.cells.some((c) => c.column) && whole) { board.opts.zoom = false; board.fit(); }
  let step = 0, steps = 0, lines = [];  /* lines: each logged event in the game's words, or null */
  const say = (e) => e.damaged ? "unreadable row: " + e.damaged :
    e.data.action || (e.data.undone ? "undo " + e.data.undone : e.kind);
  async function show(n) {
    const res = await Fog.api("GET", `/api/games/${encodeURIComponent(game)}/replay?step=${Math.max(0, n)}`);
    if (!res.ok) return;
    const r = res.data;
    step = r.step; steps = r.steps;
    document.getElementById("step").textContent = step;
    document.getElementById("steps").textContent = steps;
    /* the move just replayed in the game's words, when the game says it (its notation otherwise) */
    const hist = r.history || [], words = r.log || [];
    const said = r.event && r.event.data && r.event.data.action && hist.length === words.length &&
      hist[hist.length - 1] === r.event.data.action ? words[words.length - 1] : null;
    document.getElementById("replay-event").textContent = r.event ? "After " + (said || lines[step - 1] || say(r.event)) :
      "The setup, before the first move";
    const hurt = document.getElementById("replay-damaged");  /* a damaged log replays as far as it reads */
    hurt.hidden = !r.damaged;
    hurt.textContent = r.damaged ? "This log is damaged: " + r.damaged + ". It replays up to there; the JSON export " +
      "holds every row." : "";
    /* drawn as the Board page draws the same position: which way each piece faces, a face-down piece as
       its back shows and a face-up one with its face (the game's view gives both, as to any reader) */
    board.render(r.placement, {owners: r.owners, lastMove: r.last_move || [], stacks: r.stacks, supplies: r.supplies,
      facing: r.facing, looks: r.looks});
    board.centre((r.last_move || []).flatMap((m) => m.path));  /* a board wider than a phone: the move replayed */
    document.getElementById("first").disabled = document.getElementById("prev").disabled = step === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = step >= steps;
    document.querySelectorAll("#moves button").forEach((b) => {
      const here = Number(b.dataset.step) === step;
      b.classList.toggle("here", here);
      if (here) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
  }
  /* Each logged action in the game's words: the game at its last step says its standing moves
     (its "log" beside its "history"); an action undo took back is said as the game said it just
     before the undo ("Undone: Ada plays the 13: ..."), the notation only for a game without words. */
  async function inWords(events) {
    const end = await Fog.api("GET", `/api/games/${encodeURIComponent(game)}/replay?step=${events.length}`);
    const hist = (end.ok && end.data.history) || [], said = (end.ok && end.data.log) || [];
    if (hist.length !== said.length) return [];
    const stack = [], at = [], undone = [];  /* undone: the undo's index -> the action's index */
    events.forEach((e, i) => {
      if (e.data && e.data.action) { at.push(stack.length); stack.push(i); }
      else { at.push(null); if (e.kind === "undo" && stack.length) undone.push([i, stack.pop()]); }
    });
    const offset = hist.length - stack.length;  /* actions already in the setup come first */
    const out = events.map((e, i) => at[i] !== null && stack[at[i]] === i && hist[offset + at[i]] === e.data.action ?
      said[offset + at[i]] : null);
    for (const [i, j] of undone) {  /* the game just before the undo says the action last */
      const before = await Fog.api("GET", `/api/games/${encodeURIComponent(game)}/replay?step=${i}`);
      const h = (before.ok && before.data.history) || [], w = (before.ok && before.data.log) || [];
      if (h.length === w.length && h.length && h[h.length - 1] === events[j].data.action) {
        out[j] = w[w.length - 1];
        out[i] = "Undone: " + w[w.length - 1];
      }
    }
    return out;
  }
  /* the whole log as a list of moves: each line shows the board after it */
  const log = await Fog.api("GET", `/api/games/${encodeURIComponent(game)}`);
  if (log.ok) {
    const when = new Date(log.data.created * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
    document.getElementById("replay-title").textContent = "Replay: " +
      (log.data.title && log.data.title !== game ? log.data.title + ", " : "game of ") + when;
    const list = document.getElementById("moves");
    lines = await inWords(log.data.events);
    log.data.events.forEach((e, i) => {
      const li = Fog.el("li");
      const b = Fog.el("button", {"class": "move-line", "data-step": String(i + 1)}, Fog.sentence(lines[i] || say(e)));
      /* the board is above the list: a move tapped far down brings it back into view, drawn at that move */
      b.onclick = async () => { await show(i + 1); document.getElementById("board").scrollIntoView({block: "nearest"}); };
      li.appendChild(b);
      list.appendChild(li);
    });
  }
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(step - 1);
  document.getElementById("next").onclick = () => show(step + 1);
  document.getElementById("last").onclick = () => show(steps);
  show(0);
  Fog.connect();  /* the header says whether the panel is live, on this page too */
})();
