"use strict";
(async () => {
  let state = {};
  /* The camera's health as sentences a player can act on; the raw figures stay in the fold. */
  function words(cam) {
    if (!cam.present) return ["No camera: play goes on from the Board page" + (cam.fault ? " (" + cam.fault + ")." : ".")];
    const out = [cam.healthy ? "The camera works (" + cam.source + ")." : "The camera has a fault: " + cam.fault + "."];
    out.push(cam.board_found ? "Board found: " + cam.fiducials_seen.length + " corner markers seen." :
      "Board not found: are the corner markers in view and lit?");
    if (cam.view_blocked) out.push("Something rests over the board: pieces under it are held until it is lifted.");
    const expected = Object.values(state.placement || {}).flat();
    if (expected.length) {
      const seen = new Set(cam.pieces || []);
      const hidden = expected.filter((p) => !seen.has(p)).sort();
      out.push(expected.length - hidden.length + " of " + expected.length + " pieces seen" +
        (hidden.length ? "; marker hidden or not found: " + hidden.slice(0, 6).join(", ") +
          (hidden.length > 6 ? " and " + (hidden.length - 6) + " more" : "") : "") + ".");
    } else {
      out.push((cam.pieces_seen || 0) + " pieces seen.");
    }
    if ((cam.unplaced || []).length) out.push(cam.unplaced.length + " marker(s) between cells or off the board.");
    if ((cam.unknown_markers || []).length) out.push("Markers that belong to no piece of this game: " +
      cam.unknown_markers.join(", ") + ".");
    return out;
  }
  async function refresh() {
    const res = await Fog.api("GET", "/api/camera");
    if (!res.ok) return;
    const health = document.getElementById("camera-health");
    health.replaceChildren(...words(res.data).map((t) => Fog.el("li", {}, t)));
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
  Fog.on("state", (s) => { state = s; refresh(); });
  refresh();
  Fog.connect();
})();
