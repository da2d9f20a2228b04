/* Shared by every page: the API helper, the live connection, the banner and the SVG board. */
"use strict";
const Fog = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";

  async function api(method, path, body, quiet) {  /* quiet: the caller says what a refusal means */
    const opts = {method, headers: {"Accept": "application/json"}};
    if (method !== "GET") {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body || {});
    }
    let res = await fetch(path, opts);
    let data = await res.json().catch(() => ({error: res.statusText}));
    if (res.status === 401 && /PIN/.test(data.error || "")) {
      const pin = window.prompt("Panel PIN");
      if (pin !== null) {
        const u = await fetch("/api/unlock", {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify({pin})});
        if (u.ok) {
          res = await fetch(path, opts);
          data = await res.json().catch(() => ({error: res.statusText}));
        }
      }
    }
    if (res.status === 409) await refresh();  /* refused as the game stands now: this page may show a game that moved on */
    if (!res.ok && data.kind !== "game-running" && !quiet) {  /* a running game is asked about on the page itself */
      flash(data.error || ("error " + res.status));
    }
    return {ok: res.ok, status: res.status, data};
  }

  /* The whole state read once, drawn as if the stream had brought it: after a tap the game refused,
     the page shows the game as it is now instead of a question or a button that is gone. */
  async function refresh() {
    try {
      const res = await fetch("/api/state", {headers: {"Accept": "application/json"}, cache: "no-store"});
      if (res.ok) gotState(await res.text());
    } catch (e) { /* offline: the stream or the poll brings the state when the panel answers again */ }
    return last;
  }

  /* A notice that stays until dismissed, in the page's flow under the header: it never covers a control. */
  function flash(text) {
    let box = document.getElementById("flash");
    if (!box) {
      box = document.createElement("div");
      box.id = "flash";
      box.className = "notice";
      box.setAttribute("role", "alert");
      const msg = document.createElement("p");
      msg.className = "notice-text";
      const close = document.createElement("button");
      close.className = "secondary dismiss";
      close.textContent = "Dismiss";
      close.onclick = () => { box.hidden = true; };
      box.append(msg, close);
      const banner = document.getElementById("banner");
      (banner ? banner.parentNode : document.body).insertBefore(box, banner ? banner.nextSibling : null);
      if (aboveBoard) aboveBoard.observe(box);
    }
    box.querySelector(".notice-text").textContent = text;
    box.hidden = false;
  }

  /* pieces by what players call them ("green sailor · jumps"), once a page has loaded the board */
  let pieces = {};
  const cap = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : "");
  const named = (id) => (pieces[id] && pieces[id].label ? pieces[id].label + " (" + id + ")" : id);

  const listeners = {state: [], game: [], leds: []};
  let last = null;
  function on(kind, fn) { listeners[kind].push(fn); if (kind === "state" && last) fn(last); }
  /* The live connection: the event stream, or, while the panel refuses one more (503: it serves as many
     as it can) or the stream cannot be opened, /api/state every few seconds and the stream tried again later. */
  const POLL_MS = 3000, RETRY_MS = 20000;
  let lastText = null;
  function gotState(text) {
    if (text === lastText) return;  /* a poll that brings nothing new redraws nothing */
    lastText = text;
    last = JSON.parse(text);
    if (boardGame && last.game_name && last.game_name !== boardGame) { location.reload(); return; }
    banner(last);
    stepper(last);
    if (last.leds) drawLeds(last.leds);
    listeners.state.forEach((fn) => fn(last));
  }
  function connect() {
    const conn = document.getElementById("conn");
    const say = (how) => { if (!conn) return; conn.classList.toggle("up", how !== "off");
      conn.dataset.mode = how;
      conn.textContent = how === "live" ? "● live" : how === "poll" ? "● live (every few seconds: the panel is busy)" :
        "● offline: reconnecting…"; };
    let es = null, poller = null, retry = null;
    async function poll() {
      try {
        const res = await fetch("/api/state", {headers: {"Accept": "application/json"}, cache: "no-store"});
        if (!res.ok) { say("off"); return; }
        gotState(await res.text());
        if (poller) say("poll");
      } catch (e) { say("off"); }
    }
    function fallBack() {
      if (!poller) { poller = setInterval(poll, POLL_MS); poll(); }
      clearTimeout(retry);
      retry = setTimeout(open, RETRY_MS + Math.random() * RETRY_MS / 2);  /* spread the phones' retries */
    }
    function open() {
      if (es) es.close();
      es = new EventSource("/events");
      es.addEventListener("open", () => { clearInterval(poller); poller = null; clearTimeout(retry); say("live"); });
      es.addEventListener("error", () => {
        /* CLOSED: refused (503) or not a stream; the browser will not retry by itself. Otherwise it reconnects. */
        if (es.readyState === EventSource.CLOSED) fallBack(); else if (!poller) say("off");
      });
      es.addEventListener("state", (e) => gotState(e.data));
      es.addEventListener("game", (e) => {
        const g = JSON.parse(e.data);
        if (g.kind === "marker-moved" || g.kind === "board-moved") flash(g.data.reason);
        if (g.kind === "game-over" && g.data.picture === "differs") flash("The board differs from the scored position: check the boats");
        listeners.game.forEach((fn) => fn(g));
      });
      es.addEventListener("leds", (e) => { const l = JSON.parse(e.data); drawLeds(l); listeners.leds.forEach((fn) => fn(l)); });
    }
    open();
    liveImages();
    return {close: () => { clearInterval(poller); clearTimeout(retry); if (es) es.close(); }};
  }

  /* A camera view (<img src="/stream.mjpg...">) the panel cannot stream now (503, or the stream broke):
     the still picture every 2 s instead, and the stream tried again later. */
  function liveImages() {
    document.querySelectorAll('img[src^="/stream.mjpg"]').forEach((img) => {
      const stream = img.getAttribute("src");
      const still = "/snapshot.jpg" + (stream.includes("?") ? stream.slice(stream.indexOf("?")) : "");
      let timer = null, tries = 0;
      const fallBack = () => {
        if (timer) return;  /* a still that failed: the next one comes anyway */
        img.dataset.mode = "still";
        img.title = "The panel is busy: the picture is refreshed every 2 s";
        const next = () => { img.src = still + (still.includes("?") ? "&" : "?") + "t=" + Date.now(); };
        timer = setInterval(() => {
          if (++tries % 15 === 0) {  /* every 30 s: the stream again */
            clearInterval(timer); timer = null; img.dataset.mode = "stream"; img.title = ""; img.src = stream;
            return;
          }
          next();
        }, 2000);
        next();
      };
      img.addEventListener("error", fallBack);
      if (img.complete && img.naturalWidth === 0) fallBack();  /* refused before this script ran */
    });
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  let turnOverOpen = false;
  const readNotices = new Set((() => { try { return JSON.parse(localStorage.getItem("fogReadNotices") || "[]"); }
    catch (e) { return []; } })());
  function banner(s) {
    const b = document.getElementById("banner");
    if (!b) return;
    b.replaceChildren();
    b.className = "banner";
    if (s.storage && s.storage.fault) {
      b.classList.add("alert");
      b.appendChild(el("p", {id: "storage-banner"}, (s.storage.reason === "disk-full" ? "Disk full: " :
        "The game log cannot be written: ") + s.storage.pending + " move(s) wait to be saved. Play goes on; " +
        "they are written as soon as there is space. " + s.storage.fault));
    }
    /* what the game log found (a damaged game, a file recovered, a journal that vanished): until dismissed here */
    ((s.storage && s.storage.notices) || []).filter((t) => !readNotices.has(t)).forEach((text) => {
      b.classList.add("warn");
      const p = el("p", {"class": "log-notice"}, "Game log: " + text + " ");
      const done = el("button", {"class": "secondary dismiss"}, "Dismiss");
      done.onclick = () => {
        readNotices.add(text);
        try {
          localStorage.setItem("fogReadNotices", JSON.stringify([...readNotices].slice(-20)));
        } catch (e) { /* a private window keeps it for this page only */ }
        banner(s);
      };
      p.appendChild(done);
      b.appendChild(p);
    });
    if (document.body.dataset.live === "no") {  /* a replay of another game: nothing of the running game shows */
      b.hidden = b.childElementCount === 0;
      return;
    }
    if (s.camera && !s.camera.healthy) {
      b.classList.add("warn");
      b.appendChild(el("p", {id: "camera-banner"}, "Camera lost (" + (s.camera.fault || "no frames") +
        "). Play goes on here: move the pieces on the Board page."));
    }
    if (s.view_blocked && !s.outcome) {  /* after the game nothing is judged anyway */
      b.classList.add("ask");
      b.appendChild(el("p", {id: "blocked-banner"}, "Something rests over the board: the camera waits until it " +
        "is lifted. Nothing is judged meanwhile."));
    }
    if (s.step && !s.out_of_sync && !s.outcome) {  /* a move made in parts, part-way: calm, a hand finishes it */
      b.classList.add("ask");
      b.appendChild(el("p", {id: "step-banner"}, "Move under way: " + s.step.says + "."));
    }
    if (s.out_of_sync) {
      b.classList.add("alert");
      b.appendChild(el("p", {id: "sync-banner"}, "Out of sync: the table and the game disagree. " +
        (s.end_turn === false ? "Nothing new is taken " : "End turn waits ") + "until they agree. " + cap(s.out_of_sync.reason) + "."));
      /* the safe way first, highlighted: the game is right, hands put the table back */
      b.appendChild(el("p", {id: "sync-safe", "class": "safe-way"}, "Put the pieces back as the game has them:"));
      const list = el("ul", {id: "sync-pieces", "class": "fixes safe-way"});
      (s.out_of_sync.pieces || []).forEach((m) => list.appendChild(el("li", {"data-piece": m.piece},
        named(m.piece) + ": " + (m.belongs ? "put it on " + m.belongs : "take it off the board") +
        (m.seen ? " (the camera sees it on " + m.seen + ")" : " (the camera does not see it)"))));
      b.appendChild(list);
      /* the other ways out: the camera is wrong, or the table is and the game takes it as it is */
      const asGame = el("button", {id: "table-as-game", "class": "secondary"},
        "The table is right as the game has it (the camera misses a piece)…");
      asGame.onclick = async () => {
        if (await confirmBox("Every piece stands where the game has it and the camera misreads or misses the " +
                             "pieces listed? Play goes on; they are not asked about again until they move.", [],
                             "The table is right", "Cancel")) await api("POST", "/api/correction", {as_game: true});
      };
      b.appendChild(asGame);
      const accept = el("button", {id: "accept-correction", "class": "secondary"}, "Accept the board as it is…");
      accept.onclick = acceptBoard;
      b.appendChild(accept);
      if (document.body.dataset.page !== "live") {
        b.appendChild(el("a", {href: "/#correct", "class": "button-link"}, "Correct one piece"));
      } else {
        const fix = el("button", {id: "correct-one", "class": "secondary"}, "Correct one piece");
        fix.onclick = () => document.dispatchEvent(new CustomEvent("fog-correct"));
        b.appendChild(fix);
      }
    }
    if (s.decision && s.decision.length) {
      b.classList.add("ask");
      b.appendChild(el("p", {id: "decision-banner"}, s.question ||
        "The move can be read several ways. Which one happened?"));
      s.decision.forEach((o, i) => {
        const btn = el("button", {"class": "decide", "data-option": String(i)},
          (i + 1) + ": " + (o.summary || (o.movements || o.actions || []).join(", ")) +  /* the game's words, not its notation */
          (o.summary || o.cost === undefined ? "" : " (" + o.cost + " MP)") +
          (o.preparation_bonuses && o.preparation_bonuses.length ? " (bonus " + o.preparation_bonuses.join(" ") + ")" : ""));
        btn.onclick = () => decide({option: i});
        b.appendChild(btn);
      });
      const none = el("button", {id: "decide-none", "class": "secondary"}, "None of these: I'll put the pieces back");
      none.onclick = () => decide({none: true});
      b.appendChild(none);
    }
    if (s.outcome && !["score", "setup", "replay"].includes(document.body.dataset.page)) {  /* the way on */
      b.classList.add("ask");
      const over = el("p", {id: "over-banner"}, "The game is over. ");
      over.appendChild(el("a", {href: "/score", "class": "button-link primary"}, "See the score"));
      b.appendChild(over);
    }
    if (s.to_turn_over && s.to_turn_over.length && s.phase !== "finished") {  /* after the game the table is cleared anyway */
      b.classList.add("warn");
      const chores = s.to_turn_over.map((t) => named(t.piece) + " on " + t.cell);
      const n = chores.length;
      if (n <= 4) {
        b.appendChild(el("p", {id: "turn-over-banner"}, "The FOG took these: turn them over or take them off the " +
          "board: " + chores.join(", ") + "."));
      } else {  /* a long list would push the board off the screen: the count, the list in a fold */
        b.appendChild(el("p", {id: "turn-over-banner"}, "The FOG took " + n + " islanders: turn them over or take " +
          "them off the board (they have a dashed ring on the board)."));
        const fold = el("details", {id: "turn-over-list"});
        fold.open = turnOverOpen;  /* the banner is drawn anew on every change: keep the fold as the user left it */
        fold.addEventListener("toggle", () => { turnOverOpen = fold.open; });
        fold.appendChild(el("summary", {}, "Which ones"));
        const list = el("ul", {"class": "fixes"});
        chores.forEach((c) => list.appendChild(el("li", {}, c)));
        fold.appendChild(list);
        b.appendChild(fold);
      }
    }
    b.hidden = b.childElementCount === 0;
  }

  /* An answer to the question on the page. Another phone may have answered it, or a move on the table
     settled it, a moment before: then the page says so and shows the game as it is now (api() read it
     again on the refusal), never "no decision is waiting" over a question that stays. */
  async function decide(answer) {
    document.querySelectorAll("#banner button.decide, #decide-none").forEach((btn) => { btn.disabled = true; });
    let res;
    try {
      res = await api("POST", "/api/decide", answer, true);
    } catch (e) {  /* no answer from the panel: nothing was decided, the buttons come back */
      flash("The panel did not answer: the answer was not given. Try again when the panel is back.");
      if (last) banner(last);
      return;
    }
    if (res.ok) return;
    if (res.status !== 409 || !last) {
      flash(res.data.error || ("error " + res.status));
      if (last) banner(last);  /* the buttons again: nothing was decided */
      return;
    }
    flash(last.decision && last.decision.length ?
      "That question was settled meanwhile and the table asks again: read the question and answer again." :
      "That question was already settled: the board shows the game as it is now.");
    banner(last);
  }

  /* Setup -> Board check -> Draft -> Play -> Score: where the game is, in one row. */
  function stepper(s) {
    const box = document.getElementById("stepper");
    if (!box) return;
    const order = ["setup", "check", "draft", "play", "score"];
    const now = !s.placement ? "setup" : s.verifying ? "check" : s.phase === "draft" ? "draft" :
      s.phase === "finished" ? "score" : "play";
    const brand = document.querySelector(".brand");
    const title = (s.game_title || "").split(":")[0];  /* the game being played: its short title */
    if (brand && title && brand.textContent !== title) {
      brand.textContent = title;
      document.title = document.title.split(" · ")[0] + " · " + title + " · fog-companion";
    }
    const draft = box.querySelector('[data-step="draft"]');  /* only a game with a draft has the step */
    if (draft) draft.hidden = !!s.placement && s.drafts === undefined && s.phase !== "draft";
    box.querySelectorAll("li").forEach((li) => {
      const i = order.indexOf(li.dataset.step), here = order.indexOf(now);
      li.className = i < here ? "done" : i === here ? "here" : "";
      if (i === here) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
  }

  /* Accepting the board logs a correction: show what it will log first, act only on a second tap. */
  async function acceptBoard() {
    const res = await api("POST", "/api/correction", {preview: true});
    if (!res.ok) return;
    const p = res.data.preview;
    const lines = p.pieces.map((m) => m.piece + ": " + (m.belongs || "off the board") + " → " + (m.seen || "off the board"))
      .concat((p.kept || []).map((k) => k.piece + ": not seen, kept on " + k.cell + " where the game has it"));
    const cost = p.mp === null ? "" : " It spends " + p.mp + " MP" + (p.mp_left === null ? "" : " (" + p.mp_left + " left)") + ".";
    const logs = p.actions.length ? " This logs: " + p.actions.join("; ") + "." + cost + " Undo takes it back." : "";
    const kept = (p.kept || []).length ? " Pieces the camera does not see are kept where the game has them." : "";
    if (await confirmBox("Accept the board as the camera sees it?" + logs + kept, lines, "Accept the board", "Cancel")) {
      await api("POST", "/api/correction", {accept: true});
    }
  }

  /* A question on the page (not a browser pop-up): resolves true on the first button, false otherwise. */
  function confirmBox(text, lines, yes, no) {
    return new Promise((resolve) => {
      document.getElementById("confirm-box")?.remove();
      const box = el("div", {id: "confirm-box", "class": "confirm", role: "dialog", "aria-modal": "true",
                             "aria-labelledby": "confirm-text"});
      box.appendChild(el("p", {id: "confirm-text"}, text));
      if (lines && lines.length) {
        const ul = el("ul", {"class": "fixes"});
        lines.forEach((l) => ul.appendChild(el("li", {}, l)));
        box.appendChild(ul);
      }
      const ok = el("button", {id: "confirm-yes"}, yes);
      const cancel = el("button", {id: "confirm-no", "class": "secondary"}, no);
      const done = (v) => { box.remove(); resolve(v); };
      ok.onclick = () => done(true);
      cancel.onclick = () => done(false);
      box.appendChild(ok); box.appendChild(cancel);
      document.body.appendChild(box);
      cancel.focus();
    });
  }

  function drawLeds(leds) {
    const box = document.getElementById("leds");
    if (!box || !leds) return;
    box.replaceChildren();
    Object.entries(leds.segments).forEach(([name, colours]) => {
      const row = el("div", {"class": "led-row", "data-segment": name});
      /* what the segment shows in this game (the strip's own name when the game does not say) */
      const said = leds.labels && leds.labels[name] !== undefined ? leds.labels[name] : name;
      row.appendChild(el("span", {"class": "led-name"}, said || "not used"));
      colours.forEach((c) => { const d = el("span", {"class": "led"}); d.style.background = c;
        d.style.boxShadow = c === "#000000" ? "none" : "0 0 6px " + c; row.appendChild(d); });
      /* a count the game shows as a value of a total is said too: nobody counts lit dots */
      const count = leds.counts && leds.counts[name];
      if (count) row.appendChild(el("span", {"class": "led-count"}, count.value + " of " + count.total));
      box.appendChild(row);
    });
  }

  /* The board as SVG in board millimetres; pieces are groups that can be tapped or dragged. */
  class Board {
    constructor(container, geometry, opts) {
      this.g = geometry;
      this.opts = opts || {};
      this.cells = {};
      geometry.cells.forEach((c) => { this.cells[c.id] = c; });
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("viewBox", Board.frame(geometry).join(" "));
      svg.setAttribute("class", "board-svg" + (opts && opts.onDrop ? " draggable" : ""));
      svg.setAttribute("role", "group");  /* not an image: its pieces and dots are controls */
      svg.setAttribute("aria-label", "the board");
      this.svg = svg;
      const defs = document.createElementNS(SVGNS, "defs");
      defs.innerHTML = '<marker id="arrowhead" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" ' +
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker>';
      svg.appendChild(defs);
      this.cellLayer = this._layer("cells");
      this.labelLayer = this._layer("labels");
      this.arrowLayer = this._layer("arrows");
      this.pieceLayer = this._layer("pieces");
      this.targetLayer = this._layer("targets");
      geometry.cells.forEach((c) => this._drawCell(c));
      this._edgeLabels();
      container.replaceChildren(svg);
      this.selected = null;
    }
    /* What a token shows: the game's icon for its type (a path in a 16-unit box) with its mark under
       it, or its short text when the game gives no icon. */
    static drawLook(g, look) {
      if (look.icon) {
        const icon = document.createElementNS(SVGNS, "path");
        icon.setAttribute("d", look.icon);
        icon.setAttribute("class", "icon");
        icon.setAttribute("transform", look.mark ? "translate(0,-2.6) scale(0.78)" : "scale(0.95)");
        g.appendChild(icon);
        if (look.mark) {
          const mark = document.createElementNS(SVGNS, "text");
          mark.setAttribute("class", "mark"); mark.setAttribute("text-anchor", "middle"); mark.setAttribute("y", "9.6");
          mark.textContent = look.mark;
          g.appendChild(mark);
        }
        return;
      }
      const label = document.createElementNS(SVGNS, "text");
      label.setAttribute("text-anchor", "middle"); label.setAttribute("dy", "3.6");
      label.textContent = look.short || "";
      g.appendChild(label);
    }
    /* The part of the board where pieces stand (cells and their outlines, a small margin): the
       printed margin around it would only make the cells smaller on a phone. */
    static frame(geometry) {
      const xs = [], ys = [];
      geometry.cells.forEach((c) => {
        (c.outline.length ? c.outline : [[c.x - 13, c.y - 13], [c.x + 13, c.y + 13]]).forEach(([x, y]) => { xs.push(x); ys.push(y); });
      });
      if (!xs.length) return [0, 0, geometry.size_mm[0], geometry.size_mm[1]];
      const m = 4, x0 = Math.min(...xs) - m, y0 = Math.min(...ys) - m;
      return [x0, y0, Math.max(...xs) + m - x0, Math.max(...ys) + m - y0];
    }
    _layer(name) { const g = document.createElementNS(SVGNS, "g"); g.setAttribute("class", name); this.svg.appendChild(g); return g; }
    _drawCell(c) {
      let shape;
      if (c.outline.length) {
        shape = document.createElementNS(SVGNS, "polygon");
        shape.setAttribute("points", c.outline.map((p) => p.join(",")).join(" "));
      } else if (c.kind === "pier") {
        shape = document.createElementNS(SVGNS, "rect");
        shape.setAttribute("x", c.x - 12); shape.setAttribute("y", c.y - 12);
        shape.setAttribute("width", 24); shape.setAttribute("height", 24); shape.setAttribute("rx", 2);
      } else {
        shape = document.createElementNS(SVGNS, "circle");
        shape.setAttribute("cx", c.x); shape.setAttribute("cy", c.y); shape.setAttribute("r", 13);
      }
      shape.setAttribute("class", "cell " + c.kind + (c.place === "stern" ? " stern" : "") + (c.boat ? " boat-" + c.boat : ""));
      shape.setAttribute("data-cell", c.id);
      if (c.fill) shape.style.setProperty("--cell-fill", c.fill);  /* the layout's own colour, for kinds the page has no style for */
      if (c.row) shape.setAttribute("data-row", c.row);
      const title = document.createElementNS(SVGNS, "title");
      title.textContent = c.id + (c.row ? " (row " + c.row + ")" : "") + (c.boat ? " " + c.boat + " boat" : "");
      shape.appendChild(title);
      shape.addEventListener("click", () => this.opts.onCell && this.opts.onCell(c.id));
      this.cellLayer.appendChild(shape);
    }
    /* Each row's name at the board's left edge (messages name cells: "A1"). */
    _edgeLabels() {
      const rows = {};
      this.g.cells.forEach((c) => {
        if (!c.row || c.standable === false) return;
        if (!rows[c.row] || c.x < rows[c.row].x) rows[c.row] = c;
      });
      Object.entries(rows).forEach(([row, c]) => {
        const t = document.createElementNS(SVGNS, "text");
        t.setAttribute("x", c.x - 21); t.setAttribute("y", c.y + 3.5);
        t.setAttribute("class", "edge-label"); t.setAttribute("text-anchor", "middle");
        t.textContent = row;
        this.labelLayer.appendChild(t);
      });
    }
    _arrow(from, to, cls) {
      const a = this.cells[from], b = this.cells[to];
      if (!a || !b || from === to) return;
      const line = document.createElementNS(SVGNS, "line");
      const dx = b.x - a.x, dy = b.y - a.y, d = Math.hypot(dx, dy), k = Math.min(0.45, 9 / d);
      line.setAttribute("x1", a.x + dx * k); line.setAttribute("y1", a.y + dy * k);
      line.setAttribute("x2", b.x - dx * k); line.setAttribute("y2", b.y - dy * k);
      line.setAttribute("class", "arrow " + cls); line.setAttribute("marker-end", "url(#arrowhead)");
      line.setAttribute("data-from", from); line.setAttribute("data-to", to);
      this.arrowLayer.appendChild(line);
    }
    /* Dots on the cells a tapped piece can reach; each is a button (tap, or Tab and Enter). */
    showTargets(piece, cells) {
      this.targetLayer.replaceChildren();
      (cells || []).forEach((cell) => {
        const c = this.cells[cell];
        if (!c) return;
        const dot = document.createElementNS(SVGNS, "circle");
        dot.setAttribute("cx", c.x); dot.setAttribute("cy", c.y); dot.setAttribute("r", 5.5);
        dot.setAttribute("class", "target"); dot.setAttribute("data-target", cell);
        dot.setAttribute("tabindex", "0"); dot.setAttribute("role", "button");
        dot.setAttribute("aria-label", "move " + piece + " to " + cell);
        const go = () => this.opts.onTarget && this.opts.onTarget(piece, cell);
        dot.addEventListener("click", (e) => { e.stopPropagation(); go(); });
        dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        this.targetLayer.appendChild(dot);
      });
      const first = this.targetLayer.firstChild;
      if (first && document.activeElement && this.svg.contains(document.activeElement)) first.focus();
    }
    cellAt(x, y) {
      let best = null, bestD = Infinity;
      this.g.cells.forEach((c) => {
        if (c.standable === false) return;
        const d = Math.hypot(c.x - x, c.y - y);
        if (d < bestD) { best = c; bestD = d; }
      });
      return bestD <= this.g.snap_mm * 1.27 ? best.id : null;
    }
    toBoard(evt) {
      const pt = this.svg.createSVGPoint();
      pt.x = evt.clientX; pt.y = evt.clientY;
      return pt.matrixTransform(this.svg.getScreenCTM().inverse());
    }
    render(placement, info) {
      info = info || {};
      const colours = this.g.colours;
      this.pieceLayer.replaceChildren();
      this.svg.querySelectorAll(".cell.swallowed, .cell.next-fog").forEach((n) => n.classList.remove("swallowed", "next-fog"));
      (info.swallowed || []).forEach((r) => this.svg.querySelectorAll(`[data-row="${r}"]`).forEach((n) => n.classList.add("swallowed")));
      (info.nextFog || []).forEach((r) => this.svg.querySelectorAll(`[data-row="${r}"]`).forEach((n) => n.classList.add("next-fog")));
      this.arrowLayer.replaceChildren();
      (info.lastMove || []).forEach((m) => {
        for (let i = 1; i < m.path.length; i++) this._arrow(m.path[i - 1], m.path[i], "last-move");
      });
      (info.misplaced || []).forEach((m) => { if (m.seen && m.belongs) this._arrow(m.seen, m.belongs, "put-back"); });
      Object.entries(placement || {}).forEach(([cell, pieces]) => {
        const c = this.cells[cell];
        if (!c) return;
        pieces.forEach((p, k) => this._drawPiece(p, c.x + k * 5 - (pieces.length - 1) * 2.5, c.y + k * 2.5, info, colours));
      });
      if (!this.selected) this.targetLayer.replaceChildren();
    }
    _drawPiece(id, x, y, info, colours) {
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", "piece" + ((info.offenders || []).includes(id) ? " offender" : "") +
        ((info.turnOver || []).includes(id) ? " turn-over" : "") + ((info.faceDown || []).includes(id) ? " face-down" : "") +
        (this.selected === id ? " selected" : "") + ((info.moved || []).includes(id) ? " moved" : ""));
      g.setAttribute("data-piece", id);
      g.setAttribute("transform", `translate(${x},${y})`);
      const look = this.g.pieces[id] || {label: id, short: "?", colour: "#888"};
      const owner = (info.owners || {})[id];
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      const name = look.label || id;  /* the name says what the token shows: its mark too ("sqz", "+1") */
      g.setAttribute("aria-label", (look.icon ? "" : (look.short ? look.short + ": " : "")) + name +
        (look.icon && look.mark && !name.split(/[\s·,]+/).includes(look.mark) ? ", marked " + look.mark : "") + (owner ? ", " + owner + "'s" : ""));
      let shape;
      if (look.shape !== "square") {
        if (owner) {  /* a light halo outside the owner's ring: dark colours read on any cell */
          const halo = document.createElementNS(SVGNS, "circle");
          halo.setAttribute("r", 14.8); halo.setAttribute("class", "halo");
          g.appendChild(halo);
        }
        shape = document.createElementNS(SVGNS, "circle");
        shape.setAttribute("r", 13);
        shape.setAttribute("fill", look.colour || "#888");
        shape.setAttribute("stroke", owner ? colours[owner] : "#fff");
        shape.setAttribute("stroke-width", owner ? 3.2 : 1);
      } else {
        shape = document.createElementNS(SVGNS, "rect");
        shape.setAttribute("x", -12.5); shape.setAttribute("y", -12.5); shape.setAttribute("width", 25); shape.setAttribute("height", 25);
        shape.setAttribute("rx", 2);
        shape.setAttribute("fill", look.colour || "#6b6b6b"); shape.setAttribute("stroke", "#222");
      }
      g.appendChild(shape);
      Board.drawLook(g, look);
      const title = document.createElementNS(SVGNS, "title");
      title.textContent = look.label || id;
      g.appendChild(title);
      g.addEventListener("click", (e) => { e.stopPropagation(); this.opts.onPiece && this.opts.onPiece(id); });
      g.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && this.opts.onPiece) { e.preventDefault(); this.opts.onPiece(id); }
      });
      if (this.opts.onDrop) this._draggable(g, id, x, y);
      this.pieceLayer.appendChild(g);
    }
    _draggable(g, id, x0, y0) {
      g.style.cursor = "grab";
      g.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        g.setPointerCapture(e.pointerId);
        const start = this.toBoard(e);
        const move = (ev) => { const p = this.toBoard(ev); g.setAttribute("transform", `translate(${x0 + p.x - start.x},${y0 + p.y - start.y})`); };
        const up = (ev) => {
          g.removeEventListener("pointermove", move);
          g.removeEventListener("pointerup", up);
          const p = this.toBoard(ev);
          const dx = p.x - start.x, dy = p.y - start.y;
          if (Math.hypot(dx, dy) < 3) return;  // a tap, not a drag
          this.opts.onDrop(id, this.cellAt(x0 + dx, y0 + dy));
        };
        g.addEventListener("pointermove", move);
        g.addEventListener("pointerup", up);
      });
    }
  }

  /* On a laptop or a TV the whole board stays in view: its height is what is left under the header,
     the stepper and whatever notices stand above it (they come and go), never less than 320 px.
     On a phone the board takes the full width instead and the page scrolls. The setup page is read
     from the top (instructions first), so its board keeps the plain limit. */
  function fitBoards() {
    if (document.body.dataset.page === "setup") return;
    document.querySelectorAll("svg.board-svg").forEach((svg) => {
      if (window.innerWidth <= 700) { svg.style.maxHeight = ""; return; }
      const top = svg.getBoundingClientRect().top + window.scrollY;
      svg.style.maxHeight = Math.max(320, Math.floor(window.innerHeight - top - 12)) + "px";
    });
  }
  window.addEventListener("resize", fitBoards);
  /* a notice or banner appearing above the board moves it down (this script runs after the body) */
  const aboveBoard = window.ResizeObserver ? new ResizeObserver(() => fitBoards()) : null;
  if (aboveBoard) ["header", "#stepper", "#banner", "#open-panel"].forEach((sel) => {
    const e = document.querySelector(sel); if (e) aboveBoard.observe(e);
  });

  let boardGame = null;  /* the game whose board this page drew: another game started means a new page */
  async function board(containerId, opts, url) {  /* url: another board than the one being played */
    const res = await api("GET", url || "/api/board");
    if (!url) boardGame = res.data.game;
    pieces = res.data.pieces || {};
    if (last) banner(last);  /* say the pieces' names in notices drawn before the board was loaded */
    const drawn = new Board(document.getElementById(containerId), res.data, opts);
    fitBoards();
    return drawn;
  }

  /* "What the tokens show": each icon the layout uses once, with the word it stands for. */
  function legend(container, geometry) {
    const seen = new Map();
    const all = Object.values(geometry.pieces || {});  /* the icons first, then the marks under them */
    all.forEach((p) => { if (p.icon && p.icon_says && !seen.has("i" + p.icon_says)) seen.set("i" + p.icon_says, {icon: p.icon, says: p.icon_says}); });
    all.forEach((p) => { if (p.mark && p.mark_says && !seen.has("m" + p.mark)) seen.set("m" + p.mark, {mark: p.mark, says: p.mark_says}); });
    const list = el("ul", {"class": "legend"});
    seen.forEach((entry) => {
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("viewBox", "-10 -10 20 20"); svg.setAttribute("aria-hidden", "true");
      const g = document.createElementNS(SVGNS, "g"); g.setAttribute("class", "token");  /* a picture, not a piece on the board */
      const disc = document.createElementNS(SVGNS, "circle"); disc.setAttribute("r", 10); disc.setAttribute("fill", "#3b4650");
      g.appendChild(disc);
      if (entry.icon) {
        const icon = document.createElementNS(SVGNS, "path");
        icon.setAttribute("d", entry.icon); icon.setAttribute("class", "icon"); icon.setAttribute("transform", "scale(0.95)");
        g.appendChild(icon);
      } else {
        const mark = document.createElementNS(SVGNS, "text");
        mark.setAttribute("class", "mark"); mark.setAttribute("text-anchor", "middle"); mark.setAttribute("y", "2.4");
        mark.textContent = entry.mark;
        g.appendChild(mark);
      }
      svg.appendChild(g);
      const item = el("li", {});
      item.append(svg, entry.says);
      list.appendChild(item);
    });
    container.replaceChildren(list);
    return seen.size;  /* how many things it explains: none, and the page hides it */
  }

  function colourOf(geometry, name) { return (geometry && geometry.colours[name]) || "#999"; }

  return {api, flash, on, connect, board, el, colourOf, confirmBox, legend, named: (id) => named(id)};
})();
