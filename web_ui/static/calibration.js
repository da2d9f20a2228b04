"use strict";
(async () => {
  /* The camera's health as sentences a player can act on; the raw figures stay in the fold. */
  function words(cam) {
    if (!cam.present) return ["No camera: play goes on from the Board page" + (cam.fault ? " (" + cam.fault + ")." : ".")];
    const out = [cam.healthy ? "The camera works (" + cam.source + ")." : "The camera has a fault: " + cam.fault + "."];
    out.push(cam.board_found ? "Board found: " + cam.fiducials_seen.length + " corner markers seen." :
      "Board not found: are the corner markers in view and lit?");
    if (cam.view_blocked) out.push("Something rests over the board: pieces under it are held until it is lifted.");
    /* counted by the companion: a piece is seen whichever face is up, and a face-down piece is known
       to this page only by its public name, a look-alike one (a tile) seen where the game has one of its
       kind, the missing ones said as this reader may read them */
    if (cam.expected_pieces) {
      const hidden = cam.missing || [], under = cam.covered || 0;
      out.push(cam.expected_pieces - hidden.length - under + " of " + cam.expected_pieces + " pieces seen" +
        (under ? ", " + under + " more under another piece where the game has " + (under > 1 ? "them" : "it") : "") +
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
  /* The picture with readable marks: sizes are in screen pixels whatever the camera's resolution. */
  const SVGNS = "http://www.w3.org/2000/svg";
  const view = document.getElementById("camera-view");
  const img = document.getElementById("stream");
  const marks = document.getElementById("camera-marks");
  const caption = document.getElementById("camera-caption");
  const zoom = document.getElementById("zoom"), showMarks = document.getElementById("marks");
  let seen = null, looks = {}, places = {}, picked = null;
  Fog.api("GET", "/api/board").then((res) => {
    if (res.ok) {
      looks = res.data.pieces || {};
      /* a place said as the board prints it ("start beside A7", "between F6 and G6"), never its id */
      places = Object.fromEntries((res.data.cells || []).map((c) => [c.id, c.label || c.id]));
    }
    draw();
  });
  const placeOf = (id) => places[id] || id;
  function svg(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
    return e;
  }
  function frame() {
    const [fw, fh] = seen && seen.frame_size[0] ? seen.frame_size : [16, 9];
    const area = seen && (seen.play_area || seen.board);
    if (!zoom.checked || !area) return [0, 0, fw, fh];
    const xs = area.map((p) => p[0]), ys = area.map((p) => p[1]);
    const pad = 0.04 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    const x0 = Math.max(0, Math.min(...xs) - pad), y0 = Math.max(0, Math.min(...ys) - pad);
    const x1 = Math.min(fw, Math.max(...xs) + pad), y1 = Math.min(fh, Math.max(...ys) + pad);
    return x1 - x0 > 10 && y1 - y0 > 10 ? [x0, y0, x1 - x0, y1 - y0] : [0, 0, fw, fh];
  }
  function say(p) {
    const look = looks[p.piece] || {};
    caption.textContent = (look.label || p.piece) +
      (p.cell ? " read on " + placeOf(p.cell) : p.cells ? " between " + p.cells.map(placeOf).join(" and ") + ": push it onto one" :
        " not on a cell: " + (p.reason || "unplaced")) + ".";
  }
  function draw() {
    const [fw, fh] = seen && seen.frame_size[0] ? seen.frame_size : [16, 9];
    const [bx, by, bw, bh] = frame();
    view.style.aspectRatio = bw + " / " + bh;
    if (window.innerWidth > 700) {  /* on a laptop or a TV the whole picture is in view without scrolling */
      const room = Math.max(320, window.innerHeight - (view.getBoundingClientRect().top + window.scrollY) - 16);
      view.style.width = `min(100%, ${Math.floor(room * bw / bh)}px)`;
    } else {
      view.style.width = "";
    }
    img.style.width = (100 * fw / bw) + "%"; img.style.height = (100 * fh / bh) + "%";
    img.style.left = (-100 * bx / bw) + "%"; img.style.top = (-100 * by / bh) + "%";
    marks.setAttribute("viewBox", [bx, by, bw, bh].join(" "));
    /* drawn anew every second: a mark focused by keyboard keeps the focus */
    const active = document.activeElement;
    const focused = active && marks.contains(active) && active.dataset ? active.dataset.piece : null;
    marks.replaceChildren();
    if (!seen || !showMarks.checked) return;
    const k0 = bw / Math.max(1, view.clientWidth);  /* picture pixels per screen pixel */
    /* a mark a little smaller than a cell on screen, but never below a size that can be read */
    const k = seen.cell_px ? k0 * Math.min(1.6, Math.max(0.6, (seen.cell_px / k0) / 26)) : k0;
    if (seen.board) marks.appendChild(svg("polygon", {points: seen.board.map((p) => p.join(",")).join(" "),
      "class": "edge", "stroke-width": 2 * k0, "stroke-dasharray": 6 * k0 + " " + 4 * k0}));
    /* what a finger hits: at least 26 screen px square around a mark however small it is drawn (the
       drawing keeps its size; a neighbour's area may overlap it, the one drawn later taking the tap) */
    const hit = () => { const h = 13 * Math.max(1, k0 / k); return svg("rect", {x: -h, y: -h, width: 2 * h, height: 2 * h,
      "class": "hit", fill: "transparent", stroke: "none"}); };
    seen.pieces.forEach((p) => {
      const look = looks[p.piece] || {};
      const g = svg("g", {"class": "piece found" + (picked === p.piece ? " picked" : ""), transform: `translate(${p.x},${p.y}) scale(${k})`,
        tabindex: "0", role: "button", "aria-label": (look.label || p.piece) + " on " + placeOf(p.cell), "data-piece": p.piece});
      g.appendChild(hit());
      g.appendChild(svg("circle", {r: 11, fill: look.colour || "#888", stroke: "#fff", "stroke-width": 1.6}));
      const icon = svg("path", {d: look.icon || "M-3,-3 L3,-3 L3,3 L-3,3 Z", "class": "icon", transform: "scale(0.8)"});
      g.appendChild(icon);
      const cell = svg("text", {y: 22, "text-anchor": "middle", "class": "cell-tag"});
      cell.textContent = placeOf(p.cell);
      g.appendChild(cell);
      const pick = () => { picked = p.piece; say(p); draw(); };
      g.addEventListener("click", pick);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
      marks.appendChild(g);
    });
    (seen.unplaced || []).forEach((p) => {
      const g = svg("g", {"class": "unplaced", transform: `translate(${p.x},${p.y}) scale(${k})`, tabindex: "0", role: "button",
        "aria-label": ((looks[p.piece] || {}).label || "marker " + p.marker) +
          (p.cells ? " between " + p.cells.map(placeOf).join(" and ") : " not on a cell: " + p.reason)});
      g.appendChild(hit());
      g.appendChild(svg("path", {d: "M-8,-8 L8,8 M-8,8 L8,-8"}));
      if (p.piece) g.dataset.piece = p.piece;
      g.addEventListener("click", () => say(p));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); say(p); } });
      marks.appendChild(g);
    });
    /* where the game has a piece and the camera has not read one: what to try there */
    (seen.unfound || []).forEach((p) => {
      const said = p.piece + " is on " + p.where + " as the game has it, and the camera does not find it there: " +
        "if it lies there, move it a little, check that its sticker is clean and flat, and that no lamp glares on it.";
      const g = svg("g", {"class": "unfound", transform: `translate(${p.x},${p.y}) scale(${k})`, tabindex: "0",
        role: "button", "aria-label": p.piece + " on " + p.where + ": not found"});
      g.appendChild(hit());
      g.appendChild(svg("circle", {r: 12}));
      const mark = svg("text", {y: 5, "text-anchor": "middle"});
      mark.textContent = "?";
      g.appendChild(mark);
      const tell = () => { caption.textContent = said; };
      g.addEventListener("click", tell);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tell(); } });
      marks.appendChild(g);
    });
    if (focused) {
      const again = marks.querySelector(`[data-piece="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }
  async function look() {
    if (document.hidden) return;
    const res = await Fog.api("GET", "/api/camera/seen");
    if (res.ok) { seen = res.data; draw(); }
  }
  zoom.onchange = draw; showMarks.onchange = draw;
  window.addEventListener("resize", draw);
  look();
  setInterval(look, 1000);
  document.getElementById("refresh").onclick = refresh;
  Fog.on("game", refresh);
  Fog.on("state", () => refresh());  /* a move changes what the camera should see: counted again */
  refresh();
  Fog.connect();
})();
