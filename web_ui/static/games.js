"use strict";
(async () => {
  /* How a game stands, in words: who won, or what can be done with it. */
  function standing(g) {
    if (g.status === "finished") {
      const w = (g.result && (g.result.winner_names || g.result.winners)) || [];  /* people, not colours */
      return w.length ? "finished: " + w.join(" and ") + (w.length > 1 ? " won together" : " won") :
        "finished" + (g.result && g.result.reason ? " (" + g.result.reason + ")" : "");
    }
    return {playing: "being played now", paused: "paused: it can be resumed", abandoned: "left unfinished",
            damaged: "damaged: " + (g.note || "its log does not replay")}[g.status] || g.status;
  }
  async function load() {
    const res = await Fog.api("GET", "/api/games");
    const list = document.getElementById("games");
    list.replaceChildren();
    if (!res.data.games.length) list.appendChild(Fog.el("li", {"class": "hint"}, "No games yet: start one on the Setup page."));
    res.data.games.slice().reverse().forEach((g) => {
      const li = Fog.el("li", {"data-game": g.id, "class": "game-item status-" + g.status});
      const when = new Date(g.created * 1000).toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
      const a = Fog.el("a", {href: "/games/" + g.id, "class": "game-title"}, (g.title === g.id ? g.game_title || "Game" : g.title) + " · " + when);
      li.appendChild(a);
      li.appendChild(Fog.el("p", {"class": "players"}, (g.players || []).length ? Fog.sentence(g.players.join(", ")) : "No players named"));
      li.appendChild(Fog.el("p", {"class": "standing"}, standing(g) + " · " + g.events + " logged events"));
      const tools = Fog.el("p", {"class": "tools"});
      if (g.status === "paused" || g.status === "abandoned") {
        const resume = Fog.el("button", {"class": "resume", "data-game": g.id}, "Resume");
        resume.onclick = () => resumeGame(g.id);
        tools.appendChild(resume);
      }
      tools.appendChild(Fog.el("a", {href: "/api/games/" + g.id + "?download=1", "class": "button-link",
                                    "aria-label": "download " + when + " as JSON"}, "Download (JSON)"));
      li.appendChild(tools);
      list.appendChild(li);
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
