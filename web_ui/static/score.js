"use strict";
(async () => {
  Fog.on("state", (s) => {
    const sc = s.score;
    const over = !!s.outcome;
    document.getElementById("score-status").textContent = over ? "Final score" :
      !s.placement ? "No game yet." : "The game is not over yet.";
    const head = document.querySelector("#score-table thead");
    const body = document.querySelector("#score-table tbody");
    head.replaceChildren(); body.replaceChildren();
    document.getElementById("score-lines").replaceChildren();
    document.getElementById("next-game").hidden = !over;  /* the way on once the game is over */
    document.getElementById("winner").textContent = "";
    document.getElementById("tiebreak").textContent = "";
    document.getElementById("details-title").hidden = true;  /* shown only over details there are */
    document.getElementById("score-table").hidden = true;
    if (!over) {  /* during a game: the game's own standing, in its words */
      const standing = s.placement ? s.standing || [] : [];
      if (standing.length) {
        document.getElementById("score-status").textContent = "The game is under way. The standing now:";
        const ul = Fog.el("ul", {id: "standing"});
        standing.forEach((l) => ul.appendChild(Fog.el("li", {}, Fog.sentence(l.trim()))));
        document.getElementById("score-lines").appendChild(ul);
      }
      return;
    }
    document.getElementById("details-title").hidden = false;
    if (!sc || !sc.colours) {  /* a game without a points table: who won, why, and the game's own lines */
      const names = (c) => { const p = (s.players || []).find((x) => x.colours.includes(c)); return p && p.name && p.name !== c ? p.name + " (" + c + ")" : c; };
      document.getElementById("winner").textContent = "Winner: " + s.outcome.winners.map(names).join(" and ") +
        " — " + s.outcome.reason;
      const ul = Fog.el("ul");
      (s.outcome.lines || []).forEach((l) => ul.appendChild(Fog.el("li", {}, Fog.sentence(l.trim()))));
      document.getElementById("score-lines").appendChild(ul);
      document.getElementById("score-table").hidden = true;
      return;
    }
    document.getElementById("score-table").hidden = false;
    const colours = Object.keys(sc.colours);
    const cats = [...new Set(colours.flatMap((c) => Object.keys(sc.colours[c].categories)))];
    const hr = Fog.el("tr");
    const owner = (c) => (s.players || []).find((p) => p.colours.includes(c));
    const who = (c) => (owner(c) && owner(c).name && owner(c).name !== c ? owner(c).name + " (" + c + ")" : c);  /* people by name, the colour after */
    hr.appendChild(Fog.el("th", {}, "Category"));
    colours.forEach((c) => hr.appendChild(Fog.el("th", {"data-colour": c}, who(c))));
    head.appendChild(hr);
    cats.forEach((cat) => {
      const tr = Fog.el("tr", {"data-category": cat});
      tr.appendChild(Fog.el("th", {}, cat.replace(/_/g, " ")));
      colours.forEach((c) => tr.appendChild(Fog.el("td", {}, String(sc.colours[c].categories[cat] ?? 0))));
      body.appendChild(tr);
    });
    const total = Fog.el("tr", {"class": "total"});
    total.appendChild(Fog.el("th", {}, "Total"));
    colours.forEach((c) => total.appendChild(Fog.el("td", {"data-colour": c}, String(sc.colours[c].total))));
    body.appendChild(total);
    const standings = sc.standings.map((p) => `${p.name}: ${p.score} RP`).join(" · ");
    document.getElementById("winner").textContent = sc.mode === "solo" ?
      `Rescue level: ${sc.rescue_level}` : `Winner: ${sc.winners.join(" and ")} — ${standings}`;
    document.getElementById("tiebreak").textContent = sc.tiebreak ? "Ties: " + sc.tiebreak : "";
    const lines = document.getElementById("score-lines");
    colours.forEach((c) => {
      lines.appendChild(Fog.el("h4", {}, who(c)));
      const ul = Fog.el("ul");
      sc.colours[c].lines.forEach((l) => ul.appendChild(Fog.el("li", {}, Fog.sentence(l))));
      lines.appendChild(ul);
    });
  });
  Fog.connect();
})();
