"use strict";
(async () => {
  async function load() {
    const res = await Fog.api("GET", "/api/games");
    const body = document.querySelector("#games tbody");
    body.replaceChildren();
    res.data.games.slice().reverse().forEach((g) => {
      const tr = Fog.el("tr", {"data-game": g.id});
      const a = Fog.el("a", {href: "/games/" + g.id}, g.title);
      const td = Fog.el("td"); td.appendChild(a); tr.appendChild(td);
      tr.appendChild(Fog.el("td", {}, g.status));
      tr.appendChild(Fog.el("td", {}, String(g.events)));
      const ex = Fog.el("td"); ex.appendChild(Fog.el("a", {href: "/api/games/" + g.id + "?download=1"}, "JSON")); tr.appendChild(ex);
      body.appendChild(tr);
    });
  }
  Fog.on("game", (g) => { if (g.kind === "game-over" || g.kind === "game-started") load(); });
  load();
  Fog.connect();
})();
