"use strict";
(async () => {
  async function refresh() {
    const res = await Fog.api("GET", "/api/camera");
    const body = document.querySelector("#camera-settings tbody");
    body.replaceChildren();
    Object.entries(res.data).forEach(([k, v]) => {
      const tr = Fog.el("tr", {"data-key": k});
      tr.appendChild(Fog.el("th", {}, k.replace(/_/g, " ")));
      tr.appendChild(Fog.el("td", {}, typeof v === "object" ? JSON.stringify(v) : String(v)));
      body.appendChild(tr);
    });
  }
  document.getElementById("refresh").onclick = refresh;
  Fog.on("game", refresh);
  Fog.on("state", () => {});
  refresh();
  Fog.connect();
})();
