"use strict";
(async () => {
  async function load() {
    const res = await Fog.api("GET", "/api/games");
    const body = document.querySelector("#games tbody");
    body.replaceChildren();
    res.data.games.slice().reverse().forEach((g) => {
      const tr = Fog.el("tr", {"data-game": g.id});
      const a = Fog.el("a", {href: "/games/" + g.id}, g.title === g.id ? "Game of " +
        new Date(g.created * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"}) : g.title);
      const td = Fog.el("td"); td.appendChild(a); tr.appendChild(td);
      tr.appendChild(Fog.el("td", {}, g.status));
      tr.appendChild(Fog.el("td", {}, String(g.events)));
      const ex = Fog.el("td"); ex.appendChild(Fog.el("a", {href: "/api/games/" + g.id + "?download=1"}, "JSON"));
      if (g.status === "paused" || g.status === "abandoned") {
        const resume = Fog.el("button", {"class": "resume", "data-game": g.id}, "Resume");
        resume.onclick = () => resumeGame(g.id);
        ex.appendChild(resume);
      }
      tr.appendChild(ex);
      body.appendChild(tr);
    });
  }
  async function resumeGame(id) {
    let res = await Fog.api("POST", "/api/games/" + id + "/resume", {});
    if (res.status === 409 && res.data.kind === "game-running" &&
        await Fog.confirmBox("Another game is being played. Pause it and resume this one?", [],
                             "Pause it and resume", "Cancel")) {
      res = await Fog.api("POST", "/api/games/" + id + "/resume", {confirm: true});
    }
    if (res.ok) location.href = "/";
  }
  Fog.on("game", (g) => { if (["game-over", "game-started", "game-resumed"].includes(g.kind)) load(); });
  load();
  Fog.connect();
})();
