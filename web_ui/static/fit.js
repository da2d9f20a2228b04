"use strict";
/* Fit the board file to the printed board: the anchors on the drawing, the fit drawn over the picture. */
(async () => {
  const SVGNS = "http://www.w3.org/2000/svg";
  const list = document.getElementById("fit-anchors"), words = document.getElementById("fit-words");
  const residuals = document.getElementById("fit-residuals"), lattice = document.getElementById("fit-lattice");
  const go = document.getElementById("fit-go"), save = document.getElementById("fit-save");
  const saved = document.getElementById("fit-saved");
  let plan = {}, edits = [], fitted = false;
  const editBox = document.getElementById("fit-edit"), editWhat = document.getElementById("fit-edit-what");
  const editActions = document.getElementById("fit-edit-actions"), editList = document.getElementById("fit-edits");
  const editWords = document.getElementById("fit-edit-words");
  const res = await Fog.api("GET", "/api/fit");
  if (res.ok) {
    plan = res.data;
    list.replaceChildren(...plan.anchors.map((a) => Fog.el("li", {"data-piece": a.piece},
      (a.label || a.piece) + " (" + a.piece + ") on " + (a.cell_label || a.cell))));
    /* a picture of where the anchors go (the list names each): drawn at its box's width, never scrolled */
    const board = await Fog.board("fit-board", {zoom: false});
    const placement = {};
    plan.anchors.forEach((a) => { placement[a.cell] = [a.piece]; });
    board.render(placement, {moved: plan.anchors.map((a) => a.piece)});
    if ((plan.rows || []).length) {
      document.getElementById("fit-row").replaceChildren(...plan.rows.map((r) => Fog.el("option", {value: r}, r)));
    }
  }
  /* The fitted cells over the picture, zoomed to the board so a phone shows the hexes, not the room. */
  function draw(fit) {
    const [w, h] = fit.frame_size;
    const pts = fit.lattice.flatMap((c) => c.points);
    let [x0, y0, x1, y1] = [0, 0, w, h];
    if (pts.length) {
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      const pad = 0.08 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
      x0 = Math.max(0, Math.min(...xs) - pad); y0 = Math.max(0, Math.min(...ys) - pad);
      x1 = Math.min(w, Math.max(...xs) + pad); y1 = Math.min(h, Math.max(...ys) + pad);
    }
    const bw = x1 - x0, bh = y1 - y0;
    const view = document.getElementById("fit-view"), img = document.getElementById("fit-stream");
    view.classList.remove("plain");
    view.style.aspectRatio = bw + " / " + bh;  /* the overlay lies exactly on the picture */
    Object.assign(img.style, {position: "absolute", width: (100 * w / bw) + "%", height: (100 * h / bh) + "%",
                              left: (-100 * x0 / bw) + "%", top: (-100 * y0 / bh) + "%"});
    lattice.setAttribute("viewBox", [x0, y0, bw, bh].join(" "));
    lattice.setAttribute("preserveAspectRatio", "none");
    lattice.replaceChildren(...fit.lattice.map((c) => {
      const poly = document.createElementNS(SVGNS, "polygon");
      poly.setAttribute("points", c.points.map((p) => p.join(",")).join(" "));
      poly.setAttribute("class", "fit-cell kind-" + c.kind);
      poly.setAttribute("vector-effect", "non-scaling-stroke");
      return poly;
    }));
  }
  /* The picture of the fit from straight above, the places drawn on it in printed millimetres: taps edit. */
  const rect = document.getElementById("fit-rect"), rectCells = document.getElementById("fit-rect-cells");
  let box = null;
  function drawAbove(printed, picture) {
    if (picture !== undefined) {
      box = printed.box;
      document.getElementById("fit-rect-img").src = "/api/fit/rectified.jpg?n=" + picture;
      rect.hidden = false;
    }
    const [x0, y0, x1, y1] = box;
    rectCells.setAttribute("viewBox", [x0, y0, x1 - x0, y1 - y0].join(" "));
    rectCells.replaceChildren(...printed.cells.map((c) => {
      const poly = document.createElementNS(SVGNS, "polygon");
      poly.setAttribute("points", c.points.map((p) => p.join(",")).join(" "));
      poly.setAttribute("class", "fit-cell kind-" + c.kind);
      poly.setAttribute("vector-effect", "non-scaling-stroke");
      poly.setAttribute("data-cell", c.cell);
      poly.setAttribute("tabindex", "0");
      poly.setAttribute("role", "button");
      poly.setAttribute("aria-label", (c.label || c.cell) + ", " + c.kind);
      poly.addEventListener("click", (e) => { e.stopPropagation(); pickCell(c, poly); });
      poly.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pickCell(c, poly); }
      });
      return poly;
    }));
  }
  /* A tap on a hex: what it is on the print. A tap between hexes: a hex the file lacks. */
  function choose(text, buttons) {
    editWhat.textContent = text;
    editActions.replaceChildren(...buttons.map(([label, edit]) => {
      const b = Fog.el("button", {"class": "secondary"}, label);
      b.addEventListener("click", () => { editBox.hidden = true; change(edits.concat([edit])); });
      return b;
    }), Fog.el("button", {"class": "secondary", id: "fit-edit-cancel"}, "Cancel"));
    editActions.lastChild.addEventListener("click", () => { editBox.hidden = true; });
    editBox.hidden = false;
    editBox.scrollIntoView({block: "nearest"});
  }
  function pickCell(c, poly) {
    if (!fitted) return;
    rectCells.querySelectorAll(".picked").forEach((n) => n.classList.remove("picked"));
    poly.classList.add("picked");
    const kinds = (plan.hex_kinds || []).filter((k) => k !== c.kind);
    if (!(plan.hex_kinds || []).includes(c.kind)) { choose((c.label || c.cell) + " (" + c.kind + ") cannot be changed here.", []); return; }
    choose((c.label || c.cell) + " is " + c.kind + " in the file. On your print it is:",
           kinds.map((k) => [k, {cell: c.cell, kind: k}]).concat([["not there", {cell: c.cell, remove: true}]]));
  }
  rectCells.addEventListener("click", (e) => {
    if (!fitted) return;
    const pt = rectCells.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const at = pt.matrixTransform(rectCells.getScreenCTM().inverse());
    const spot = [Math.round(at.x * 10) / 10, Math.round(at.y * 10) / 10];
    choose("Your print has a hex here that the file lacks. It is:",
           (plan.hex_kinds || []).map((k) => [k, {at_mm: spot, kind: k}]));
  });
  document.getElementById("fit-row-set").addEventListener("click", () => {
    const row = document.getElementById("fit-row").value, n = parseInt(document.getElementById("fit-empty").value, 10);
    if (!row || !(n >= 0 && n <= 99)) { editWords.textContent = "Say the row and how many hexes stay empty (0-99)."; return; }
    change(edits.filter((e) => e.row !== row).concat([{row, empty: n}]));
  });
  function says(e) {
    if (e.row) return "Row " + e.row + ": " + e.empty + " empty hexes at setup";
    if (e.remove) return e.cell + " is not on the print";
    if (e.at_mm || e.at_px) return "a " + e.kind + " hex added";
    return e.cell + " is " + e.kind;
  }
  async function change(next) {
    const r = await Fog.api("POST", "/api/fit/edits", {edits: next});
    if (!r.ok) return;
    edits = next;
    editList.replaceChildren(...edits.map((e, k) => {
      const undo = Fog.el("button", {"class": "secondary", "aria-label": "undo: " + says(e)}, "Undo");
      undo.addEventListener("click", () => change(edits.filter((_, j) => j !== k)));
      const li = Fog.el("li", {}, says(e));
      li.appendChild(undo);
      return li;
    }));
    editWords.textContent = r.data.words;
    save.disabled = !r.data.ok;
    if (r.data.ok && r.data.lattice) {
      draw({frame_size: frameSize, lattice: r.data.lattice});
      drawAbove(r.data.printed);
    }
  }
  let frameSize = [16, 9];
  go.addEventListener("click", async () => {
    go.disabled = true;
    words.textContent = "Fitting…";
    const anchors = {};
    (plan.anchors || []).forEach((a) => { anchors[a.piece] = a.cell; });
    const r = await Fog.api("POST", "/api/fit", {anchors});
    go.disabled = false;
    if (!r.ok) { words.textContent = "Not fitted: " + (r.data.error || "error " + r.status); save.disabled = true; return; }
    const f = r.data;
    words.textContent = f.words;
    residuals.replaceChildren(
      Fog.el("li", {}, "The print is " + f.scale.toFixed(3) + " times the file; the corner markers are turned " +
        f.marker_angle_deg.toFixed(1) + "° and shifted " + f.marker_offset_mm.map((v) => v.toFixed(0)).join(", ") +
        " mm against it; " + f.pieces_used + " pieces made the fit."),
      ...f.residuals.map((x) => Fog.el("li", {}, x.piece + " on " + x.cell + ": " + x.mm.toFixed(1) + " mm off its centre")),
      ...(f.notes || []).map((n) => Fog.el("li", {}, n)));
    frameSize = f.frame_size;
    draw(f);
    drawAbove(f.printed, f.picture);
    fitted = true;
    edits = [];
    editList.replaceChildren();
    editWords.textContent = "";
    document.getElementById("fit-rows").hidden = !(plan.rows || []).length;
    save.disabled = false;
  });
  save.addEventListener("click", async () => {
    const body = {};
    if (plan.exists) {
      if (!await Fog.confirmBox("Replace the fitted board saved before (" + plan.file + ")?", [], "Replace", "Keep it")) return;
      body.confirm = true;
    }
    const r = await Fog.api("POST", "/api/fit/save", body);
    if (r.ok) { saved.textContent = r.data.words; plan.exists = true; }
  });
  Fog.connect();
})();
