// The club page: asks /api/club for news newer than what it shows, and draws every table and the league.
(function () {
  "use strict";
  let version = null;
  const conn = document.getElementById("club-conn");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function tableBox(t) {
    const s = t.state || {};
    const box = el("article", "club-table");
    box.dataset.table = t.table;
    const faults = [];
    if (s.in_sync === false) faults.push("Out of sync" + (s.out_of_sync ? ": " + s.out_of_sync : ""));
    if (s.camera && s.camera !== "ok") faults.push("Camera " + s.camera);
    if (s.storage) faults.push("Storage: " + s.storage);
    if (t.online === false) box.classList.add("offline");
    else if (faults.length) box.classList.add("fault");
    else if (s.over) box.classList.add("over");
    box.append(el("h3", null, (s.name || t.table) + (t.online === false ? " (offline)" : "")));
    box.append(el("p", "game", [s.title, s.label && s.label !== s.game_id ? "“" + s.label + "”" : null,
                                 s.phase ? "phase: " + s.phase : null, s.round ? "round " + s.round : null]
                                 .filter(Boolean).join(" · ")));
    if (s.over) {
      box.append(el("p", "result", "Game over: " + ((s.winners || []).join(" and ") || "no winner") +
                     (s.result && /\s/.test(s.result) ? " (" + s.result + ")" : "")));
    } else if (s.turn) {
      box.append(el("p", "turn", s.turn + "'s turn"));
    }
    faults.forEach(function (f) { box.append(el("p", "flag", f)); });
    const standing = (s.standing || []).filter(function (line) { return line.trim(); }).slice(0, 6);
    if (standing.length) {
      const ul = el("ul", "standing");
      standing.forEach(function (line) { ul.append(el("li", null, line.trim())); });
      box.append(ul);
    }
    return box;
  }

  function draw(club) {
    conn.textContent = club.connected ? "● live" : "● broker away";
    conn.classList.toggle("up", !!club.connected);
    const here = document.getElementById("club-this");
    here.hidden = !(club.this_table && club.this_table.notice);
    if (!here.hidden) here.textContent = club.this_table.notice;
    const tables = document.getElementById("club-tables");
    tables.replaceChildren.apply(tables, club.tables.filter(function (t) { return t.state; }).map(tableBox));
    document.getElementById("club-none").hidden = tables.children.length > 0;
    const body = document.querySelector("#club-league tbody");
    body.replaceChildren.apply(body, club.league.map(function (r) {
      const tr = el("tr");
      [r.player, r.game, r.played, r.wins].forEach(function (v) { tr.append(el("td", null, v)); });
      return tr;
    }));
    if (!club.league.length) {
      const none = el("td", "hint", "No finished game yet.");
      none.colSpan = 4;
      const tr = el("tr");
      tr.append(none);
      body.append(tr);
    }
    document.body.dataset.version = club.version;
  }

  function ask() {
    fetch("/api/club" + (version === null ? "" : "?since=" + version), {cache: "no-store"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (club) { version = club.version; draw(club); setTimeout(ask, 50); })
      .catch(function () { conn.textContent = "● reconnecting…"; conn.classList.remove("up"); setTimeout(ask, 2000); });
  }
  ask();
})();
