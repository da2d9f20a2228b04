/* Shared by every page: the API helper, the live connection, the banner; the SVG board is in board.js. */
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
      /* asked in the refusal's words ("Undo needs the panel PIN."), beside what was tapped; a mistyped PIN
         is said so and asked again */
      let ask = data.error;
      for (let pin = await askPin(ask); pin !== null; pin = await askPin(ask)) {
        const u = await fetch("/api/unlock", {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify({pin})});
        if (u.ok) {
          res = await fetch(path, opts);
          data = await res.json().catch(() => ({error: res.statusText}));
          break;
        }
        const why = (await u.json().catch(() => ({error: u.statusText}))).error;
        if (u.status !== 401) { data = {error: why}; break; }  /* too many wrong PINs: the wait, in its words */
        ask = why;
      }
      if (res.status === 401 && /PIN/.test(data.error || "")) return {ok: false, status: 401, data};  /* cancelled: said beside the tap */
    }
    if (res.status === 409) await refresh();  /* refused as the game stands now: this page may show a game that moved on */
    if (!res.ok && data.kind !== "game-running" && data.kind !== "secrets-unguarded" && !quiet) {  /* a running game is asked about on the page itself */
      flash(data.error || ("error " + res.status));
    }
    return {ok: res.ok, status: res.status, data};
  }

  /* The PIN asked on the page, beside the button tapped (a phone may show no window.prompt, and a notice at
     the top of the page is out of view): a field, focused and scrolled into view, with who else can do it. */
  const WHO_UNLOCKS = "Whoever set up the panel knows the PIN: they can type it here, or do it on their own phone.";
  let tapped = null;
  document.addEventListener("click", (e) => {  /* the PIN form's own buttons keep it where it was asked */
    const b = e.target.closest && e.target.closest("button");
    if (b && !b.closest("#pin-ask")) tapped = b;
  }, true);
  function askPin(text) {
    return new Promise((resolve) => {
      document.getElementById("pin-ask")?.remove();
      const form = el("form", {id: "pin-ask", "class": "pin-ask", role: "group", "aria-labelledby": "pin-ask-text"});
      form.appendChild(el("p", {id: "pin-ask-text", role: "alert"}, text + " " + WHO_UNLOCKS));
      const label = el("label", {"for": "pin-ask-pin"}, "Panel PIN");
      const input = el("input", {id: "pin-ask-pin", type: "password", inputmode: "numeric", autocomplete: "off"});
      const ok = el("button", {id: "pin-ask-ok", type: "submit"}, "Unlock");
      const cancel = el("button", {id: "pin-ask-cancel", type: "button", "class": "secondary"}, "Cancel");
      form.append(label, input, ok, cancel);
      const done = (v) => { form.remove(); resolve(v); };
      form.onsubmit = (e) => { e.preventDefault(); done(input.value.trim()); };
      cancel.onclick = () => done(null);
      /* right after the button tapped, on a line of its own; else (the tap's box is gone) under the banner */
      if (tapped && tapped.isConnected && !tapped.closest(".confirm, dialog")) tapped.insertAdjacentElement("afterend", form);
      else {
        const banner = document.getElementById("banner");
        (banner ? banner.parentNode : document.body).insertBefore(form, banner ? banner.nextSibling : null);
      }
      form.scrollIntoView({block: "center"});
      input.focus({preventScroll: true});
    });
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
      if (typeof FogBoard !== "undefined") FogBoard.watch(box);  /* a page with a board: it moves down */
    }
    box.querySelector(".notice-text").textContent = text;
    box.hidden = false;
  }

  /* pieces by what players call them: the game's words for each ("the green sailor (jumps)",
     in the state's names), else the board's label once a page has loaded it; never the id beside it.
     Places as the game says them ("the yellow starting space") or as printed on the board (H1, T14). */
  let pieces = {};
  const cap = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : "");
  const named = (id) => (last && last.names && last.names[id]) || (pieces[id] && pieces[id].label) ||
    (last && last.places && last.places[id]) || printed[id] || id;  /* a supply tapped as a piece: its place name */
  const place = (cell) => (last && last.places && last.places[cell]) || printed[cell] || cell;
  let printed = {};  /* cell -> the board's label (a page with a board): for a place the game gives no words */

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
        if (g.kind === "game-over" && g.data.picture === "differs") {  /* the places to check, in the game's words */
          const where = (g.data.picture_differences || []).map((d) => place(d.cell));
          flash("The table differs from the final position" + (where.length ? ": check " + where.slice(0, 4).join(", ") +
            (where.length > 4 ? " and " + (where.length - 4) + " more" : "") : "") + ".");
        }
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
      /* waiting: a change entered here that no hand has begun: the players are asked to make it, never hurried */
      const step = el("p", {id: "step-banner"}, s.step.waiting ? s.step.make + "." : "Move under way: " + s.step.says + ".");
      /* the simulated table: the hands that make a move entered here are the Table page's, said before any alarm */
      if (s.camera && s.camera.simulated && (s.step.waiting || /now on the table/.test(s.step.says)) &&
          document.body.dataset.page !== "table") {
        step.append(" The table here is simulated: make it on ", el("a", {href: "/table"}, "the Table page"), ".");
      }
      b.appendChild(step);
      /* made already, where the camera cannot read it: the players say so (never a wait with no way on) */
      if (s.step.waiting && s.camera && !s.camera.simulated) {
        const made = el("button", {id: "step-made", "class": "secondary"}, "It is made: the camera misses it…");
        made.onclick = async () => {
          if (await confirmBox("The hands made it and every piece stands where the game has it, but the camera " +
                               "still reads the table as it was? Play goes on; those pieces are not asked about " +
                               "again until they move.", [s.step.make], "The table is right", "Cancel"))
            await api("POST", "/api/correction", {as_game: true});
        };
        b.appendChild(made);
      }
    }
    if (s.out_of_sync) {
      b.classList.add("alert");
      b.appendChild(el("p", {id: "sync-banner"}, "Out of sync: the table and the game disagree. " +
        (s.end_turn === false ? "Nothing new is taken " : "End turn waits ") + "until they agree. " + cap(s.out_of_sync.reason) + "."));
      /* the safe way first, highlighted: the game is right, hands put the table back */
      b.appendChild(el("p", {id: "sync-safe", "class": "safe-way"}, "Put the pieces back as the game has them:"));
      const list = el("ul", {id: "sync-pieces", "class": "fixes safe-way"});
      /* a look-alike piece (a tile) is no particular one: said by kind and place, "take a tile off E2" */
      const alike = (m) => m.seen && m.belongs ? "Take " + named(m.piece) + " off " + place(m.seen) + " and put it on " +
        place(m.belongs) : m.seen ? "Take " + named(m.piece) + " off " + place(m.seen) : "Put " + named(m.piece) + " on " +
        place(m.belongs) + " (the camera does not see one there)";
      /* a piece where the game has it but turned another way (a face, a facing): said as a turn, not a move */
      const way = (w) => ({N: "to face north", E: "to face east", S: "to face south", W: "to face west"})[w] || w + " up";
      const turned = (m) => m.facing && m.seen && m.seen === m.belongs;
      (s.out_of_sync.pieces || []).forEach((m) => list.appendChild(el("li", {"data-piece": m.piece}, m.alike ? alike(m) :
        turned(m) ? cap(named(m.piece)) + ": turn it " + way(m.facing[0]) + " (the camera sees it " + way(m.facing[1]) + ")" :
        cap(named(m.piece)) + ": " + (m.belongs ? "put it on " + place(m.belongs) : "take it off the board") +
        (m.seen ? " (the camera sees it on " + place(m.seen) + ")" : " (the camera does not see it)"))));
      b.appendChild(list);
      /* the other ways out: the camera is wrong, or the table is and the game takes it as it is */
      const asGame = el("button", {id: "table-as-game", "class": "secondary"},
        "The table is right as the game has it (the camera misses a piece)…");
      /* the box lists the pieces it asks about itself: on a phone it stands over the banner's list */
      const asked = (s.out_of_sync.pieces || []).map((m) => cap(named(m.piece)) + ": the game has it " +
        (m.belongs ? "on " + place(m.belongs) : "off the board") + ", the camera " +
        (m.seen ? "sees it on " + place(m.seen) : "does not see it"));
      asGame.onclick = async () => {
        if (await confirmBox("Every piece stands where the game has it and the camera misreads or misses the " +
                             "pieces listed? Play goes on; they are not asked about again until they move.", asked,
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
          (i + 1) + ": " + (o.summary || (o.actions || []).join(", ")) +  /* the game's words, not its notation */
          (o.detail ? " (" + o.detail + ")" : ""));  /* what else it hands out, as the game says it */
        btn.onclick = () => decide({option: i, question_id: s.question_id});  /* the question shown, by id */
        b.appendChild(btn);
      });
      const none = el("button", {id: "decide-none", "class": "secondary"}, "None of these: I'll put the pieces back");
      none.onclick = () => decide({none: true, question_id: s.question_id});
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
      const chores = s.to_turn_over.map((t) => named(t.piece) + " on " + place(t.cell));
      const n = chores.length;
      /* what the hands do with them, as the game says it (blocks set off are taken off, never turned over) */
      const clear = (s.declaration || {}).clear || "turn them over or take them off the board";
      if (n <= 4) {
        /* "Block 4 on B4: the rules took it; take it off the board." */
        b.appendChild(el("p", {id: "turn-over-banner"}, cap(chores.join(", ")) + ": the rules took " + (n === 1 ? "it" : "them") +
          "; " + clear.replace(/\bthem\b/g, n === 1 ? "it" : "them") + "."));
      } else {  /* a long list would push the board off the screen: the count, the list in a fold */
        b.appendChild(el("p", {id: "turn-over-banner"}, "The rules took " + n + " pieces: " + clear +
          " (they have a dashed ring on the board)."));
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

  const shortTitle = (s) => (s.game_title || "").split(":")[0];  /* the game being played: its short title */

  /* Setup -> Board check -> the phases the game declares steps (picks before play) -> Play -> Score: where the
     game is, in one row. */
  function stepper(s) {
    const box = document.getElementById("stepper");
    if (!box) return;
    /* the Setup page while another game is chosen there: the strip and the title are that game's setup */
    const chosen = document.body.dataset.choosing, other = !!chosen && chosen !== s.game_name;
    const own = other ? [] : ((s.declaration || {}).phases || []).filter((p) => p.step);
    box.querySelectorAll("li[data-phase]").forEach((li) => { if (!own.some((p) => p.name === li.dataset.step)) li.remove(); });
    own.forEach((p) => {
      if (!box.querySelector('li[data-phase][data-step="' + p.name + '"]')) {
        box.insertBefore(el("li", {"data-step": p.name, "data-phase": ""}, p.title), box.querySelector('[data-step="play"]'));
      }
    });
    const order = ["setup", "check", ...own.map((p) => p.name), "play", "score"];
    const now = other || !s.placement ? "setup" : s.verifying ? "check" : own.some((p) => p.name === s.phase) ? s.phase :
      s.phase === "finished" ? "score" : "play";
    const brand = document.querySelector(".brand");
    const title = other ? "New game: " + document.body.dataset.choosingTitle : shortTitle(s);
    if (brand && title && brand.textContent !== title) {
      brand.textContent = title;
      document.title = document.title.split(" · ")[0] + " · " + title + " · fog-companion";
    }
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
    const lines = p.pieces.map((m) => m.alike && !(m.seen && m.belongs) ?  /* a look-alike: by kind and place */
                               cap(named(m.piece)) + (m.seen ? " more on " + place(m.seen) : " fewer on " + place(m.belongs)) :
                               cap(named(m.piece)) + ": " + (m.belongs ? place(m.belongs) : "off the board") + " → " +
                               (m.seen ? place(m.seen) : "off the board"))
      .concat((p.kept || []).map((k) => cap(named(k.piece)) + ": not seen, kept on " + place(k.cell) + " where the game has it"))
      .concat((p.cannot || []).map(cap));  /* what the record leaves as it is: the hands fix it on the table */
    const cost = (p.spends || []).map((c) => " It spends " + c.spent + " " + c.unit + " (" + c.left + " left).").join("");
    /* what the log will say in the players' words; the notation only in a fold, for a maintainer */
    const says = (p.says || []).length ? " The log will say: " + p.says.join(" ") : " This logs a correction.";
    const logs = p.actions.length ? says.replace(/([^.])$/, "$1.") + cost + " Undo takes it back." : "";
    const kept = ((p.kept || []).length ? " Pieces the camera does not see are kept where the game has them." : "") +
      ((p.cannot || []).length ? " What the game cannot record stays a difference until it is put right on the table." : "");
    if (await confirmBox("Accept the board as the camera sees it?" + logs + kept, lines, "Accept the board", "Cancel",
                         p.actions.join("; "))) {
      await api("POST", "/api/correction", {accept: true});
    }
  }

  /* A question on the page (not a browser pop-up): resolves true on the first button, false otherwise.
     ``notation``: what the log writes, folded away under the question (players read the sentence). */
  function confirmBox(text, lines, yes, no, notation) {
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
      if (notation) {
        const fold = el("details", {id: "confirm-notation"});
        fold.append(el("summary", {}, "As the log writes it"), el("code", {}, notation));
        box.appendChild(fold);
      }
      const ok = el("button", {id: "confirm-yes"}, yes);
      const cancel = el("button", {id: "confirm-no", "class": "secondary"}, no);
      const done = (v) => { box.remove(); resolve(v); };
      ok.onclick = () => done(true);
      cancel.onclick = () => done(false);
      box.appendChild(ok); box.appendChild(cancel);
      document.body.appendChild(box);
      /* the safe answer holds the focus, but the box opens at its top: focusing the button at the foot of
         a long list would scroll the question off a phone's screen */
      cancel.focus({preventScroll: true});
      box.scrollTop = 0;
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
      /* a segment the game leaves dark is said so in words, not drawn as a row of unlit dots */
      if (!said && colours.every((c) => c === "#000000")) {
        box.appendChild(el("p", {"class": "led-row led-unused hint", "data-segment": name}, "The " + name + " segment is dark in this game."));
        return;
      }
      row.appendChild(el("span", {"class": "led-name"}, cap(said || name)));  /* a line of its own: a sentence ("Red's and blue's ...") */
      colours.forEach((c) => { const d = el("span", {"class": "led"}); d.style.background = c;
        d.style.boxShadow = c === "#000000" ? "none" : "0 0 6px " + c; row.appendChild(d); });
      /* a count the game shows as a value of a total is said too: nobody counts lit dots */
      const count = leds.counts && leds.counts[name];
      if (count) row.appendChild(el("span", {"class": "led-count"}, count.value + " of " + count.total));
      box.appendChild(row);
    });
  }

  let boardGame = null;  /* the game whose board this page drew: another game started means a new page */
  async function board(containerId, opts, url) {  /* url: another board than the one being played */
    const res = await api("GET", url || "/api/board");
    if (!url) boardGame = res.data.game;
    pieces = res.data.pieces || {};
    printed = Object.fromEntries((res.data.cells || []).filter((c) => c.label).map((c) => [c.id, c.label]));
    if (last) banner(last);  /* say the pieces' names in notices drawn before the board was loaded */
    return new FogBoard(document.getElementById(containerId), res.data, opts);  /* board.js */
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

  /* named: a piece's name to start a sentence with; name: the same inside one ("move the blue leader to H1") */
  /* the Setup page's game choice changed: the strip and the title follow it (restep) */
  const restep = () => { if (last) stepper(last); };
  return {api, flash, on, connect, board, el, colourOf, confirmBox, legend, named: (id) => cap(named(id)), name: named, place,
          sentence: cap,  /* a line starts as a sentence: "Blue ends the turn", a player unnamed called by colour */
          restep};
})();

/* Every page says so while the running game's secrets are played unguarded (chosen when it was started). */
(async () => {
  const r = await fetch("/api/seats", {headers: {"Accept": "application/json"}, cache: "no-store"}).catch(() => null);
  const d = r && r.ok ? await r.json().catch(() => null) : null;
  const banner = document.getElementById("secrets-unguarded");
  if (banner && d && d.seats && d.seats.length && d.guarded === false) banner.hidden = false;
})();
