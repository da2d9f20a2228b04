"use strict";
(async () => {
  let state = null, running = null;
  const choices = (await Fog.api("GET", "/api/setup/choices")).data;
  const boardOpts = {onPiece: (id) => pick(id)};
  let board = await Fog.board("board", boardOpts);
  let drawn = choices.game;  /* whose board the page shows: with no game running, the one chosen below */
  const count = document.getElementById("count");
  const rows = document.getElementById("player-rows");
  const scenario = document.getElementById("scenario");
  const gameSelect = document.getElementById("game");
  choices.games.forEach((g) => gameSelect.appendChild(Fog.el("option", {value: g.name}, g.title)));
  gameSelect.value = choices.game;
  const switchBox = document.getElementById("switches");
  /* the chosen game's other questions (a text or a choice the form has no place of its own for), under the options */
  const moreBox = Fog.el("div", {id: "more-questions"});
  switchBox.after(moreBox);
  const OWN_PLACE = ["players", "seats", "scenario", "options", "seed"];
  /* The questions are the chosen game's own (its setup schema): how many play, names and colours,
     a solo scenario, rule options. Choosing another game asks that game's. */
  let ask = {};
  function questions() {
    const game = choices.games.find((g) => g.name === gameSelect.value) || choices.games[0];
    document.body.dataset.choosing = game.name;  /* the header and the strip say the game being set up */
    document.body.dataset.choosingTitle = game.title.split(":")[0];
    Fog.restep();
    ask = Object.fromEntries(game.schema.map((f) => [f.name, f]));
    const counts = (ask.players && ask.players.choices) || game.players;
    const before = count.value;
    count.replaceChildren();
    counts.forEach((n) => count.appendChild(Fog.el("option", {value: n === (ask.players || {}).solo ? "solo" : String(n)},
                                                   n === (ask.players || {}).solo ? "Solo" : String(n))));
    const values = [...count.options].map((o) => o.value);
    count.value = values.includes(before) ? before : values.includes("3") ? "3" : values[values.length - 1];
    document.getElementById("count-row").hidden = values.length < 2;
    scenario.replaceChildren();
    ((ask.scenario || {}).choices || []).forEach((v) => scenario.appendChild(Fog.el("option", {value: v}, "Scenario " + v)));
    const options = ask.options || {};
    document.getElementById("options-row").hidden = !ask.options;
    document.getElementById("options-help").textContent = options.help ? "Comma-separated, for example: " + options.help : "";
    switchBox.querySelectorAll(".switch-row").forEach((r) => r.remove());
    switchBox.hidden = !(options.switches || []).length;
    (options.switches || []).forEach((sw) => {
      const id = "opt-" + sw.token;
      const row = Fog.el("div", {"class": "switch-row", "data-token": sw.token});
      if (sw.when && sw.when.players) row.dataset.players = String(sw.when.players);
      const label = Fog.el("label", {"for": id, "class": "switch"});
      const box = Fog.el("input", {type: "checkbox", role: "switch", id, "aria-describedby": id + "-help"});
      label.append(box, " " + sw.label);
      row.appendChild(label);
      if (sw.kind === "seconds") {
        const secs = Fog.el("input", {type: "number", id: id + "-seconds", min: sw.min, max: sw.max, value: sw.default,
                                      "aria-label": sw.label + ": seconds", "class": "seconds"});
        secs.disabled = true;
        box.addEventListener("change", () => { secs.disabled = !box.checked; });
        row.appendChild(secs);
        row.appendChild(Fog.el("span", {"class": "unit"}, "seconds"));
      }
      row.appendChild(Fog.el("p", {"class": "hint", id: id + "-help"}, sw.help || ""));
      switchBox.appendChild(row);
    });
    document.getElementById("seats-help").textContent = (ask.seats || {}).help || "";
    moreQuestions(game);
    playerRows();
    if (drawn !== game.name) {  /* the chosen game's board under its form, whatever game runs now */
      drawn = game.name;
      const own = state && state.placement && state.game_name === game.name;  /* the running game's: its pieces too */
      Fog.board("board", boardOpts, own ? undefined : "/api/board?game=" + encodeURIComponent(game.name)).then((b) => {
        board = b;
        if (own && state && state.placement) board.render(state.placement, look(state));
      });
    }
  }
  /* A text or choice question of the game's own, with its help; a text the camera can answer
     (read_from_table: a board the players lay at setup) has a button that reads the table into it. */
  function moreQuestions(game) {
    moreBox.replaceChildren();
    game.schema.filter((q) => !OWN_PLACE.includes(q.name) && (q.kind === "text" || q.kind === "choice")).forEach((q) => {
      const id = "answer-" + q.name;
      const row = Fog.el("div", {"class": "question-row"});
      const label = Fog.el("label", {"for": id}, q.label + " ");
      const input = q.kind === "choice" ? Fog.el("select", {id, "data-answer": q.name, "aria-describedby": id + "-help"})
        : Fog.el("input", {id, "data-answer": q.name, maxlength: q.max || 300, "aria-describedby": id + "-help"});
      (q.choices || []).forEach((c) => input.appendChild(Fog.el("option", {value: String(c)}, String(c))));
      label.appendChild(input);
      row.appendChild(label);
      if (q.read_from_table) {
        const read = Fog.el("button", {type: "button", "class": "secondary", id: id + "-read"}, "Read from the table");
        const said = Fog.el("p", {"class": "status", id: id + "-read-status", role: "status"});
        read.onclick = async () => {
          said.className = "status";
          said.textContent = "Reading the table…";
          const res = await Fog.api("POST", "/api/setup/read-board", {game: game.name, players: count.value === "solo" ? 1 : Number(count.value)});
          if (res.ok) input.value = res.data.answer;
          said.textContent = !res.ok ? res.data.error : res.data.problem ? "Read " + res.data.answer + ", but " + res.data.problem :
            "Read from the table: " + res.data.answer;
          said.className = res.ok && !res.data.problem ? "status good" : "status error";
        };
        row.append(read, said);
      }
      row.appendChild(Fog.el("p", {"class": "hint", id: id + "-help"}, q.help || ""));
      moreBox.appendChild(row);
    });
  }
  /* the board as on the Board page: who owns each piece, the pieces under a stack's top, what a supply holds */
  const look = (s) => ({owners: s.owners, stacks: s.stacks, supplies: s.supplies});
  function switchedOptions() {
    const switches = (ask.options || {}).switches || [];
    return [...switchBox.querySelectorAll(".switch-row")].filter((row) => !row.hidden).map((row) => {
      const box = row.querySelector("input[role=switch]");
      if (!box.checked) return null;
      const sw = switches.find((x) => x.token === row.dataset.token);
      if (sw.kind === "seconds") return sw.token + "=" + (row.querySelector(".seconds").value || sw.default);
      return sw.value ? sw.token + "=" + sw.value : sw.token;
    }).filter(Boolean);
  }
  function playerRows() {
    rows.replaceChildren();
    const solo = count.value === "solo";
    document.getElementById("scenario-row").hidden = !solo;
    const n = solo ? 1 : Number(count.value);
    switchBox.querySelectorAll(".switch-row[data-players]").forEach((row) => { row.hidden = row.dataset.players !== String(n); });
    const seats = ask.seats || {colours: [], colours_per_player: {}};
    const perTable = seats.colours_per_player || {};
    const per = perTable[String(n)] || perTable["default"] || 1;
    const colours = seats.colours || [];
    for (let i = 0; i < n; i++) {
      const row = Fog.el("div", {"class": "player-row"});
      row.appendChild(Fog.el("input", {"class": "name", "aria-label": "name of player " + (i + 1), placeholder: "Player " + (i + 1)}));
      if (!solo) {
        for (let k = 0; k < per; k++) {
          const sel = Fog.el("select", {"class": "colour", "aria-label": "colour of player " + (i + 1)});
          colours.forEach((c) => sel.appendChild(Fog.el("option", {value: c}, c)));
          sel.value = colours[(i + n * k) % colours.length];
          row.appendChild(sel);
        }
      }
      rows.appendChild(row);
    }
  }
  count.onchange = playerRows;
  gameSelect.onchange = questions;
  questions();
  const pinForm = document.getElementById("pin-form");
  const pinStatus = document.getElementById("pin-status");
  pinForm.onsubmit = async (e) => {
    e.preventDefault();
    const res = await Fog.api("POST", "/api/pin", {pin: document.getElementById("pin-new").value.trim()});
    pinStatus.textContent = res.ok ? "PIN set: this browser is unlocked." : res.data.error;
    pinStatus.className = res.ok ? "status good" : "status error";
    if (res.ok) setTimeout(() => location.reload(), 800);
  };
  const pinOpen = document.getElementById("pin-open");
  /* left open on purpose: the offer of a PIN waits at the foot of the page, no longer first */
  const pinCard = document.getElementById("pin-card");
  if (!pinOpen && !pinCard.hidden) {
    pinCard.parentNode.appendChild(pinCard);
    pinCard.querySelector("h2").textContent = "Protect this panel (it is open to everyone on this Wi-Fi)";
  }
  if (pinOpen) pinOpen.onclick = async () => {
    const res = await Fog.api("POST", "/api/pin", {open: true});
    if (res.ok) location.reload(); else pinStatus.textContent = res.data.error;
  };
  document.getElementById("setup-form").onsubmit = async (e) => {
    e.preventDefault();
    const body = {game: gameSelect.value, seed: Number(document.getElementById("seed").value || 0),
                  options: [...switchedOptions(), document.getElementById("options").value.trim()].filter(Boolean).join(",")};
    if (count.value === "solo") {
      body.solo = scenario.value;
      const name = rows.querySelector(".name").value.trim();
      if (name) body.name = name;
    } else {
      body.players = [...rows.querySelectorAll(".player-row")].map((r, i) => ({
        name: r.querySelector(".name").value.trim() || "Player " + (i + 1),
        colours: [...r.querySelectorAll(".colour")].map((s) => s.value)}));
    }
    const answers = Object.fromEntries([...moreBox.querySelectorAll("[data-answer]")]
      .map((el) => [el.dataset.answer, el.value.trim()]).filter(([, v]) => v));
    if (Object.keys(answers).length) body.answers = answers;
    let res = await Fog.api("POST", "/api/games", body);
    if (res.status === 409 && res.data.kind === "game-running" &&
        await Fog.confirmBox("A game is being played. Pause it and start the new one? The running game stays " +
                             "on the Games page, where Resume brings it back.", [], "Pause it and start", "Keep playing")) {
      res = await Fog.api("POST", "/api/games", {...body, confirm: true});
      body.confirm = true;
    }
    if (res.status === 409 && res.data.kind === "secrets-unguarded") {
      /* a game of seats on a panel anyone may open: this screen pairs as the table's, or the table plays
         knowingly with its secrets unguarded (every page then says so), or sets a PIN first */
      if (await Fog.confirmBox(res.data.error, [], "This is the table's screen", "Other ways")) {
        if ((await Fog.api("POST", "/api/seats/screen", {pair: true})).ok) res = await Fog.api("POST", "/api/games", body);
      } else if (await Fog.confirmBox("Play with the seats' secrets unguarded? Every page will say so. (Or set a PIN " +
                                      "on this page first.)", [], "Play unguarded", "Cancel")) {
        res = await Fog.api("POST", "/api/games", {...body, secrets: "unguarded"});
      }
    }
    document.getElementById("setup-error").textContent = res.ok ? "" : res.data.error;
  };
  const simButton = document.getElementById("sim-setup");
  if (simButton) simButton.onclick = () => Fog.api("POST", "/api/table/setup", {});
  document.getElementById("verify").onclick = () => Fog.api("POST", "/api/setup/verify", {});
  /* A phase of picks the game declares (before play): each pick is a legal action naming one piece,
     made as any action is. */
  const picking = (s) => ((s.declaration || {}).phases || []).find((p) => p.name === s.phase && p.picks);
  async function pick(id) {
    const offered = state && picking(state) ? (state.picks || []).find((p) => p.piece === id) : undefined;
    if (offered) await Fog.api("POST", "/api/act", {action: offered.action});
  }
  document.getElementById("phase-auto").onclick = async () => {
    /* every remaining pick at random, one request each, as if the players had tapped */
    for (let i = 0; i < 200 && state && picking(state) && (state.picks || []).length; i++) {
      const res = await Fog.api("POST", "/api/act", {action: state.picks[Math.floor(Math.random() * state.picks.length)].action});
      if (!res.ok) break;
      state = res.data.state;
    }
  };
  Fog.on("state", (s) => {
    state = s;
    const playing = !!s.placement;
    const nowRunning = playing && !s.outcome ? s.game : null;
    if (nowRunning !== running) {  /* fold the new-game form away while a game runs (once per game: the user may open it) */
      document.getElementById("new-game-fold").open = !nowRunning;
      running = nowRunning;
    }
    /* the board check is one step: once the camera agrees its box goes, the picks (if any) are the one thing to do */
    document.getElementById("verify-card").hidden = !playing || !s.verifying;
    document.getElementById("differences-card").hidden = !(playing && s.verifying && s.setup_differences.length);
    const next = document.getElementById("next-card");
    next.hidden = !(playing && !picking(s) && !s.outcome && !s.verifying);
    if (!next.hidden) {  /* the picks done (a game without any: the board checked) is the way on */
      const done = ((s.declaration || {}).phases || []).find((p) => p.picks && p.done);
      const seen = s.camera && s.camera.healthy;  /* without a camera nobody checked the board: not said as checked */
      document.getElementById("next-title").textContent = done ? "The " + done.title.toLowerCase() + " is done" :
        seen ? "The board is set up" : "Ready to play";
      document.getElementById("next-text").textContent = (done ? done.done + " " : "") + (seen ?
        "Play on the board: move the pieces on the table, the camera follows." :
        "No camera sees the table: play on the Board page, moving the pieces there.");
    }
    const status = document.getElementById("verify-status");
    const body = document.querySelector("#differences tbody");
    body.replaceChildren();
    status.classList.remove("good");  /* "matches" is said only while it is true */
    if (playing && s.verifying) {
      status.textContent = s.setup_differences.length ? s.setup_differences.length +
        (s.setup_differences.length === 1 ? " place differs" : " places differ") + " from the setup." :
        "Waiting for the camera to check the board.";
      s.setup_differences.forEach((d) => {
        const tr = Fog.el("tr", {"data-cell": d.cell});
        /* places and pieces in the game's words (its names and places), never their ids */
        [Fog.place(d.cell), d.expected.map(Fog.name).join(", ") || "empty", d.seen.map(Fog.name).join(", ") || "empty"]
          .forEach((t) => tr.appendChild(Fog.el("td", {}, Fog.sentence(t))));  /* each a line: "Red's pad" */
        body.appendChild(tr);
      });
    } else if (nowRunning) {
      status.textContent = "The board matches the setup.";
      status.classList.add("good");
    }
    const phase = playing && !s.verifying ? picking(s) : undefined;
    const phaseCard = document.getElementById("phase-card");
    phaseCard.hidden = !phase;
    document.getElementById("phase-list").hidden = phaseCard.hidden;
    if (phase) {
      document.getElementById("phase-title").textContent = phase.title;
      document.getElementById("phase-list-title").textContent = phase.title + " list";
      document.getElementById("phase-picks").textContent = phase.picks;
      document.getElementById("phase-swatch").style.background = Fog.colourOf(board.g, s.active);
      const player = (s.players || []).find((p) => p.colours.includes(s.active));
      document.getElementById("phase-who").textContent = Fog.sentence(player ? player.name + " (" + s.active + ")" : s.active);
      const box = document.getElementById("phase-choices");
      box.replaceChildren();
      (s.picks || []).forEach(({piece: id}) => {
        const look = board.g.pieces[id] || {label: id};
        const b = Fog.el("button", {"class": "pick", "data-piece": id}, Fog.sentence(look.label || id));  /* "Blue elder · jumps" */
        b.style.borderColor = look.colour || "#999";
        b.onclick = () => pick(id);
        box.appendChild(b);
      });
    }
    if (playing && drawn === s.game_name) { board.render(s.placement, look(s)); board.turnTo(s); }
  });
  Fog.connect();
})();
