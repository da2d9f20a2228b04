/* The board as SVG in board millimetres, drawn from any game's Layout (/api/board): its cells with their
   outlines, its pieces as groups that can be tapped or dragged, the dots where a tapped piece can go.

   On a phone no place a piece stands on and no piece is ever drawn smaller than MIN_PX, on every page
   that draws a board (the Board, Setup, Table and Replay pages alike): a board whose smallest place or
   piece would be smaller at the screen's width (a long track of small spaces) is drawn larger than the
   screen in a view that scrolls sideways, turned to the pieces of the player to move (on a replay, to
   the move replayed) and, after a tap, to the piece and its dots. Zooming into one part of the board was the other way: it hides the rest of the
   track, and a player wants to see a piece's whole way and the other pieces near it, so the board keeps
   its whole shape and only the view moves. */
"use strict";
const FogBoard = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  const MIN_PX = 24;  /* a thumb's tap target */
  const PIECE_R = 15.4;  /* mm: a disc as drawn (r 13), its owner's halo (r 14.8) and half the halo's stroke */
  const STROKE = 0.4;  /* mm: half a cell's outline, which would be cut at the frame's edge */
  const PHONE_PX = 700;  /* the panel's phone layout (panel.css) */
  const drawn = new Set();

  class Board {
    constructor(container, geometry, opts) {
      this.g = geometry;
      this.opts = opts || {};  /* onPiece, onTarget, onCell, onDrop; zoom: false draws it at the screen's width */
      this.container = container;
      this.frame = Board.frame(geometry);
      this.smallest = Board.smallest(geometry);
      this.where = {};  /* piece -> the cell it is drawn on */
      this.cells = {};
      geometry.cells.forEach((c) => { this.cells[c.id] = c; });
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("viewBox", this.frame.join(" "));
      svg.setAttribute("class", "board-svg" + (opts && opts.onDrop ? " draggable" : ""));
      svg.setAttribute("role", "group");  /* not an image: its pieces and dots are controls */
      svg.setAttribute("aria-label", "the board");
      this.svg = svg;
      const defs = document.createElementNS(SVGNS, "defs");
      defs.innerHTML = '<marker id="arrowhead" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" ' +
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker>';
      svg.appendChild(defs);
      this.cellLayer = this._layer("cells");
      this.labelLayer = this._layer("labels");
      this.countLayer = this._layer("counts");
      this.arrowLayer = this._layer("arrows");
      this.pieceLayer = this._layer("pieces");
      this.reachLayer = this._layer("reaches");  /* over the pieces: a shot's target is most often a piece */
      this.badgeLayer = this._layer("badges");  /* how many pieces a stack's top one stands on, over it (its name says it) */
      this.targetLayer = this._layer("targets");
      this.viewBox = document.createElementNS(SVGNS, "rect");  /* what keepInView brings into view */
      this.viewBox.setAttribute("class", "view-box");
      this.viewBox.setAttribute("aria-hidden", "true");
      svg.appendChild(this.viewBox);
      geometry.cells.forEach((c) => this._drawCell(c));
      this._edgeLabels();
      container.replaceChildren(svg);
      this.svg.querySelectorAll(".supply-label").forEach((t) => Board.wrap(t));  /* measured once drawn */
      this.selected = null;
      drawn.add(this);
      this.fit();
    }
    /* The board's size on the page (see the top of this file and fitAll). */
    fit() {
      const svg = this.svg, box = this.container;
      const phone = window.innerWidth <= PHONE_PX;
      svg.style.width = "";
      box.classList.remove("zoomed");
      if (phone && this.opts.zoom !== false && this.smallest) {
        const need = MIN_PX / this.smallest;  /* px per mm */
        if (box.clientWidth / this.frame[2] < need) {  /* half a pixel more: never a hair under MIN_PX */
          svg.style.width = Math.ceil(this.frame[2] * need + 0.5) + "px";
          box.classList.add("zoomed");
        }
      }
      this.pinRulers();
      this.scrollHint();
      if (document.body.dataset.page === "setup") return;
      if (phone) { svg.style.maxHeight = ""; return; }
      let below = 0;  /* a hint under the board stays in view with it */
      for (let e = box.nextElementSibling; e; e = e.nextElementSibling) below += e.getBoundingClientRect().height + 6;
      const top = svg.getBoundingClientRect().top + window.scrollY;
      svg.style.maxHeight = Math.max(320, Math.floor(window.innerHeight - top - 12 - below)) + "px";
      this.pinRulers();  /* the names' size at the board's height-bound scale */
    }
    /* A board wider than the screen says so above it, with the sides it still hides ("◀ ... ▶"):
       a column scrolled out of view is never taken for a board without it. */
    scrollHint() {
      const box = this.container;
      let hint = box.previousElementSibling;
      if (!hint || !hint.classList.contains("scroll-hint")) {
        hint = document.createElement("p");
        hint.className = "hint scroll-hint";
        hint.setAttribute("aria-live", "off");
        box.insertAdjacentElement("beforebegin", hint);
        box.addEventListener("scroll", () => this.scrollHint(), {passive: true});
      }
      const wide = box.classList.contains("zoomed") && box.scrollWidth > box.clientWidth + 2;
      hint.hidden = !wide;
      if (!wide) return;
      const left = box.scrollLeft > 2, right = box.scrollLeft + box.clientWidth < box.scrollWidth - 2;
      hint.textContent = (left ? "◀ " : "") + "The board is wider than the screen: swipe it sideways" +
        (left && right ? " (more on both sides)" : left ? " (more on the left)" : right ? " (more on the right)" : "") +
        (right ? " ▶" : "");
    }
    /* The cells' extent in board millimetres, each with its own size around its centre. */
    _extent(cells) {
      const found = cells.map((id) => this.cells[id]).filter(Boolean);
      if (!found.length) return null;
      const half = (c) => Board.size(c) / 2;
      return [Math.min(...found.map((c) => c.x - half(c))), Math.min(...found.map((c) => c.y - half(c))),
              Math.max(...found.map((c) => c.x + half(c))), Math.max(...found.map((c) => c.y + half(c)))];
    }
    /* A board larger than the screen turns its view to these cells (the pieces of the player to move);
       the page itself does not move: a player reading the log below is left there. */
    centre(cells) {
      const box = this.container, e = this._extent(cells || []);
      if (!e || !box.classList.contains("zoomed")) return;
      const k = this.svg.getBoundingClientRect().width / this.frame[2];
      box.scrollLeft = ((e[0] + e[2]) / 2 - this.frame[0]) * k - box.clientWidth / 2;
      box.scrollTop = ((e[1] + e[3]) / 2 - this.frame[1]) * k - box.clientHeight / 2;
      this.pinRulers();  /* a scroll event comes too, a frame later */
      this.scrollHint();
    }
    /* Once a turn, the view turns to the pieces of the player to move (a state from /api/state): a
       player who scrolled the board to look elsewhere is left there until the turn passes. */
    turnTo(s) {
      if (!s || !s.placement || s.active === this.turnedTo) return;
      this.turnedTo = s.active;
      const owners = s.owners || {};
      this.centre(Object.keys(s.placement).filter((c) => s.placement[c].some((p) => owners[p] === s.active)));
    }
    /* After a tap: the tapped place (a piece's, or a supply or any place off the board tapped itself) and
       where it can go are brought into view, the board's view and the page moved as little as they must
       (the page's scroll-padding keeps them clear of the hint and the tab bar a phone shows at the
       bottom). Dots spread wider than the screen: the tapped place stays wholly in view, with as much of
       its dots' side as fits; the view never jumps away from what the finger just touched. */
    keepInView(tapped, cells) {
      const e = this._extent([tapped, ...(cells || [])].filter(Boolean)), at = this._extent(tapped ? [tapped] : []);
      if (!e) return;
      if (at) {
        const k = this.svg.getBoundingClientRect().width / this.frame[2] || 1;
        const span = [this.container.clientWidth / k, 0.7 * window.innerHeight / k];  /* what the screen shows, mm */
        [0, 1].forEach((i) => {
          if (e[i + 2] - e[i] <= span[i]) return;
          const mid = Math.min(Math.max((e[i] + e[i + 2]) / 2, at[i + 2] - span[i] / 2), at[i] + span[i] / 2);
          e[i] = mid - span[i] / 2; e[i + 2] = mid + span[i] / 2;
        });
      }
      const r = this.viewBox;
      r.setAttribute("x", e[0]); r.setAttribute("y", e[1]);
      r.setAttribute("width", e[2] - e[0]); r.setAttribute("height", e[3] - e[1]);
      r.scrollIntoView({block: "nearest", inline: "nearest"});
    }
    /* What a token shows: the game's icon for its type (a path in a 16-unit box) with its mark under
       it, or its short text when the game gives no icon. */
    static drawLook(g, look, size) {
      if (look.icon) {
        const icon = document.createElementNS(SVGNS, "path");
        icon.setAttribute("d", look.icon);
        icon.setAttribute("class", "icon");
        icon.setAttribute("transform", look.mark ? "translate(0,-2.6) scale(0.78)" : "scale(0.95)");
        g.appendChild(icon);
        if (look.mark) {
          const mark = document.createElementNS(SVGNS, "text");
          mark.setAttribute("class", "mark"); mark.setAttribute("text-anchor", "middle"); mark.setAttribute("y", "9.6");
          mark.textContent = look.mark;
          g.appendChild(mark);
        }
        return;
      }
      const label = document.createElementNS(SVGNS, "text");
      const text = look.short || "";
      /* a token that shows only its text (a number, a value) shows it as large as it fits */
      const font = size ? Math.min(0.42 * size[0], 0.48 * size[1], 1.5 * size[0] / Math.max(text.length, 1)) : 9.5;
      label.setAttribute("text-anchor", "middle"); label.setAttribute("dy", (0.36 * font).toFixed(2));
      label.style.fontSize = font.toFixed(2) + "px";
      label.textContent = text;
      g.appendChild(label);
    }
    /* How large a cell is drawn (its outline's smaller side, or the drawn circle's diameter). */
    static size(c) {
      if (!c.outline.length) return c.kind === "pier" ? 24 : 26;
      const xs = c.outline.map((p) => p[0]), ys = c.outline.map((p) => p[1]);
      return Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    }
    /* How large a piece is drawn: a disc's diameter, a square token's or an oblong one's smaller side.
       A bar (a wall) is drawn over the edge it stands on, and tapped there: its edge's size is what counts. */
    static pieceSize(look) {
      if (look.shape === "bar") return Infinity;
      if (look.shape !== "square") return 26;
      return Array.isArray(look.size_mm) ? Math.min(...look.size_mm) : 25;
    }
    /* The smallest place a piece can stand on, or piece (The FOG's obstacles are a millimetre smaller
       than its piers): what has to stay MIN_PX on a phone. */
    static smallest(geometry) {
      const sizes = geometry.cells.filter((c) => c.standable !== false).map(Board.size)
        .concat(Object.values(geometry.pieces || {}).map(Board.pieceSize)).filter(Number.isFinite);
      return sizes.length ? Math.min(...sizes) : 0;
    }
    /* The part of the board where pieces stand, as drawn: the cells with their outlines' strokes and
       a piece with its halo on any place one stands on, and a grid's names along its sides. Nothing more: the printed margin around it,
       or a few millimetres of margin, would only make everything smaller on a phone (The FOG fits a
       360 px screen with its obstacles 24 px only so). */
    static frame(geometry) {
      const xs = [], ys = [];
      geometry.cells.forEach((c) => {
        (c.outline.length ? c.outline : [[c.x - 13, c.y - 13], [c.x + 13, c.y + 13]]).forEach(([x, y]) => {
          xs.push(x - STROKE, x + STROKE); ys.push(y - STROKE, y + STROKE);
        });
        if (c.standable !== false) { xs.push(c.x - PIECE_R, c.x + PIECE_R); ys.push(c.y - PIECE_R, c.y + PIECE_R); }
      });
      if (!xs.length) return [0, 0, geometry.size_mm[0], geometry.size_mm[1]];
      Board.rulers(geometry).filter((r) => r.side).forEach((r) => {  /* a grid's names, whole (y: the baseline) */
        const half = 0.35 * r.font * r.text.length;
        xs.push(r.x - half, r.x + half); ys.push(r.y - 0.75 * r.font, r.y + 0.25 * r.font);
      });
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      return [x0, y0, Math.max(...xs) - x0, Math.max(...ys) - y0];
    }
    _layer(name) { const g = document.createElementNS(SVGNS, "g"); g.setAttribute("class", name); this.svg.appendChild(g); return g; }
    _drawCell(c) {
      let shape;
      if (c.outline.length) {
        shape = document.createElementNS(SVGNS, "polygon");
        shape.setAttribute("points", c.outline.map((p) => p.join(",")).join(" "));
      } else if (c.kind === "pier") {
        shape = document.createElementNS(SVGNS, "rect");
        shape.setAttribute("x", c.x - 12); shape.setAttribute("y", c.y - 12);
        shape.setAttribute("width", 24); shape.setAttribute("height", 24); shape.setAttribute("rx", 2);
      } else {
        shape = document.createElementNS(SVGNS, "circle");
        shape.setAttribute("cx", c.x); shape.setAttribute("cy", c.y); shape.setAttribute("r", 13);
      }
      shape.setAttribute("class", "cell " + c.kind + (c.place === "stern" ? " stern" : "") + (c.boat ? " boat-" + c.boat : "") +
        (c.edge ? " edge" : ""));
      shape.setAttribute("data-cell", c.id);
      if (c.fill) shape.style.setProperty("--cell-fill", c.fill);  /* the layout's own colour, for kinds the page has no style for */
      if (c.row) shape.setAttribute("data-row", c.row);
      if (c.group) shape.setAttribute("data-group", c.group);  /* the game shades places by group (a row) */
      if (c.edge) this._edgeLine(c, shape);
      if (c.supply) this._supplyLabel(c);
      const title = document.createElementNS(SVGNS, "title");
      title.textContent = c.edge ? c.label || c.id :
        c.id + (c.row && !c.column ? " (row " + c.row + ")" : "") + (c.boat ? " " + c.boat + " boat" : "");
      shape.appendChild(title);
      shape.addEventListener("click", () => this.opts.onCell && this.opts.onCell(c.id));
      this.cellLayer.appendChild(shape);
    }
    /* The unit vector from an edge's first cell to its second (a wall stands across it), or null. */
    _across(c) {
      const [a, b] = (c.edge || []).map((id) => this.cells[id]);
      if (!a || !b) return null;
      const d = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      return [(b.x - a.x) / d, (b.y - a.y) / d];
    }
    /* A place between two cells (a layout cell with an "edge" fact [a, b]: where a wall stands) is drawn
       as a slot along the side the two cells share; its outline, as wide as the layout makes it, is
       what a finger taps (transparent, over the cells' sides), so a thin slot is still MIN_PX to hit. */
    _edgeLine(c, shape) {
      shape.style.fill = "transparent"; shape.style.stroke = "none";
      const u = this._across(c);
      if (!u) return;
      const xs = c.outline.map((p) => p[0]), ys = c.outline.map((p) => p[1]);
      const long = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 10) / 2;
      const line = document.createElementNS(SVGNS, "line");
      line.setAttribute("x1", c.x - u[1] * long); line.setAttribute("y1", c.y + u[0] * long);
      line.setAttribute("x2", c.x + u[1] * long); line.setAttribute("y2", c.y - u[0] * long);
      line.setAttribute("class", "edge-line"); line.setAttribute("aria-hidden", "true");
      line.style.stroke = c.fill || "#bca"; line.style.strokeWidth = "3"; line.style.strokeLinecap = "round";
      line.style.pointerEvents = "none";
      this.labelLayer.appendChild(line);
    }
    /* A supply beside the board (a cell with a "supply" fact) shows its name; render writes how many
       pieces it holds under it (the view's "supplies"). */
    _supplyLabel(c) {
      const t = document.createElementNS(SVGNS, "text");
      const ys = c.outline.map((p) => p[1]);
      t.setAttribute("x", c.x); t.setAttribute("y", (ys.length ? Math.min(...ys) : c.y - 13) + 14);
      t.setAttribute("text-anchor", "middle"); t.setAttribute("class", "supply-label"); t.dataset.supplyName = c.id;
      t.style.fontSize = "11px"; t.style.fill = "#222"; t.style.pointerEvents = "none";
      t.textContent = c.label || c.id;
      t.dataset.width = String(c.outline.length ? Math.max(...c.outline.map((p) => p[0])) - Math.min(...c.outline.map((p) => p[0])) : 26);
      this.labelLayer.appendChild(t);
    }
    /* Where the pieces lying in a supply are drawn: in rows up from the supply's foot, as many abreast
       as its width holds (a wall as a short bar: a token), the rows closer (a pile) when more would
       climb over its words. [[x, y] per piece, the rows' height]. */
    _supplyRows(c, pieces) {
      const xs = c.outline.map((p) => p[0]), ys = c.outline.map((p) => p[1]);
      const pitch = 2 + Math.max(26, ...pieces.map((id) => {
        const look = this.g.pieces[id] || {};
        return look.shape === "square" && Array.isArray(look.size_mm) ? Math.max(...look.size_mm) : 26;
      }));
      const across = Math.max(1, Math.floor(((xs.length ? Math.max(...xs) - Math.min(...xs) : 26) - 2) / pitch));
      const rows = Math.ceil(pieces.length / across), room = Board.supplyRoom(c);
      const step = rows > 1 ? Math.max(4, Math.min(pitch, (room - pitch) / (rows - 1))) : pitch;
      const foot = (ys.length ? Math.max(...ys) : c.y + 13) - pitch / 2 - 1;
      const at = pieces.map((_, k) => {
        const row = Math.floor(k / across), inRow = Math.min(across, pieces.length - row * across);
        return [c.x + (k % across - (inRow - 1) / 2) * pitch, foot - row * step];
      });
      return [at, pieces.length ? pitch + (rows - 1) * step + 2 : 0];
    }
    /* How high the band of a supply's pieces may grow (board mm): its lower half at most. */
    static supplyRoom(c) {
      const ys = c.outline.map((p) => p[1]);
      return ys.length ? (Math.max(...ys) - Math.min(...ys)) / 2 : 26;
    }
    /* What a supply holds, in words set in the room between its name and its pieces: wrapped, a size
       smaller while a word or the lines would not fit, then centred there; its name and its words never
       under 9 px on the screen (a board drawn whole at a phone's width: the replay), as a grid's names
       never are. A phone shows the supply whole: nothing runs out of it past the board's edge. */
    _supplyCount(c, t, pieces) {
      const ys = c.outline.map((p) => p[1]), ctm = this.svg.getScreenCTM();
      if (!ys.length || !t.getBBox || !ctm || !ctm.a) { Board.wrap(t); return; }
      const least = Math.max(11, 9 / ctm.a);  /* board mm */
      const name = this.svg.querySelector(`.supply-label[data-supply-name="${CSS.escape(c.id)}"]`);
      if (name) { name.style.fontSize = least + "px"; name.textContent = c.label || c.id; Board.wrap(name); }
      const top = name && name.getBBox().height ? name.getBBox().y + name.getBBox().height + 3 : Math.min(...ys) + 3;
      const bottom = Math.max(...ys) - Math.max(3, this._supplyRows(c, pieces)[1]);
      const width = 0.92 * Number(t.dataset.width), text = t.textContent;
      for (let font = Math.max(14, least); ; font -= 1) {
        t.style.fontSize = font + "px"; t.textContent = text; t.setAttribute("y", c.y + 5);
        Board.wrap(t);
        const box = t.getBBox();
        if (!box.height) return;  /* not drawn (a hidden page): measured once shown */
        if (font - 1 < least || (box.width <= width && box.height <= bottom - top)) {
          t.setAttribute("y", c.y + 5 + (top + bottom) / 2 - (box.y + box.height / 2));
          return;
        }
      }
    }
    /* A text wider than its place (data-width, board mm) is set on as many lines as it needs, word by
       word, the first where it stood: a supply's name or count is never cut at the board's edge. */
    static wrap(t) {
      const width = 0.92 * Number(t.dataset.width || Infinity), text = t.textContent;
      if (!t.getComputedTextLength || t.getComputedTextLength() <= width) return;
      const lines = [];
      text.split(" ").forEach((word) => {
        const line = lines.length ? lines[lines.length - 1] + " " + word : word;
        t.textContent = line;
        if (!lines.length || t.getComputedTextLength() <= width) lines[Math.max(lines.length - 1, 0)] = line;
        else lines.push(word);
      });
      t.replaceChildren();
      lines.forEach((line, i) => {
        const span = document.createElementNS(SVGNS, "tspan");
        span.setAttribute("x", t.getAttribute("x")); span.setAttribute("dy", i ? "1.15em" : "0");
        span.textContent = line + (i < lines.length - 1 ? " " : "");  /* its text reads as one line still */
        t.appendChild(span);
      });
    }
    /* The names printed along the board's sides, which messages name places by ("E4", "row A"): from
       the layout's cells, whose facts give their row's name ("row") and, on a grid, their column's
       ("column"). A board naming rows only (rows of hexes) has each row's name at its left
       end. A grid naming both has every column's name above and below it and every row's at both ends,
       so a grid drawn wider than a phone, scrolled to either side, still shows them; each name stands
       just outside its line's outermost cell (over no place a finger taps), in a size half the
       smallest place or piece: at least 12 px whenever those are MIN_PX. */
    static rulers(geometry) {
      const lines = {row: {}, column: {}};
      geometry.cells.forEach((c) => {
        if (c.standable === false) return;
        ["row", "column"].forEach((k) => { if (c[k]) (lines[k][c[k]] = lines[k][c[k]] || []).push(c); });
      });
      const out = [];
      if (!Object.keys(lines.column).length) {  /* rows only: at the left of each row's leftmost cell */
        Object.entries(lines.row).forEach(([row, cs]) => {
          const c = cs.reduce((a, b) => (b.x < a.x ? b : a));
          out.push({text: row, x: c.x - 21, y: c.y + 3.5});
        });
        return out;
      }
      const font = Math.max(10, Board.smallest(geometry) / 2), gap = 0.6 * font, dy = 0.36 * font;
      const ext = (c, i, lo) => (c.outline.length ? (lo ? Math.min : Math.max)(...c.outline.map((p) => p[i])) :
        c[i ? "y" : "x"] + (lo ? -13 : 13));
      const mid = (cs, k) => cs.reduce((s, c) => s + c[k], 0) / cs.length;
      /* A name whose middle another place covers (a pad laid along the grid's edge) is not drawn
         there: its line's other end names it; where both ends are covered, each goes on past what
         covers it, so every line keeps a name a player can read. */
      const boxes = geometry.cells.map((c) => [ext(c, 0, true), ext(c, 1, true), ext(c, 0, false), ext(c, 1, false), c]);
      const cover = (r, kind) => boxes.find(([x0, y0, x1, y1, c]) =>
        c[kind] !== r.text && r.x > x0 && r.x < x1 && r.y - dy > y0 && r.y - dy < y1);
      const onward = (r, kind) => {
        for (let b = cover(r, kind), n = 0; b && n < boxes.length; b = cover(r, kind), n++) {
          if (r.side === "top") r.y = b[1] - gap + dy; else if (r.side === "bottom") r.y = b[3] + gap + dy;
          else if (r.side === "left") r.x = b[0] - gap; else r.x = b[2] + gap;
        }
        return r;
      };
      const ends = (a, b, kind) => {
        const ca = cover(a, kind), cb = cover(b, kind);
        if (ca && cb) out.push(onward(a, kind), onward(b, kind));
        else out.push(...[a, b].filter((r) => r === a ? !ca : !cb));
      };
      Object.entries(lines.column).forEach(([text, cs]) => {
        const x = mid(cs, "x");
        ends({text, x, y: Math.min(...cs.map((c) => ext(c, 1, true))) - gap + dy, font, side: "top"},
             {text, x, y: Math.max(...cs.map((c) => ext(c, 1, false))) + gap + dy, font, side: "bottom"}, "column");
      });
      Object.entries(lines.row).forEach(([text, cs]) => {
        const y = mid(cs, "y") + dy;
        ends({text, x: Math.min(...cs.map((c) => ext(c, 0, true))) - gap, y, font, side: "left"},
             {text, x: Math.max(...cs.map((c) => ext(c, 0, false))) + gap, y, font, side: "right"}, "row");
      });
      return out;
    }
    _edgeLabels() {
      this.rulers = [];
      Board.rulers(this.g).forEach((r) => {
        const t = document.createElementNS(SVGNS, "text");
        t.setAttribute("x", r.x); t.setAttribute("y", r.y);
        t.setAttribute("class", "edge-label" + (r.side ? " grid-label" : "")); t.setAttribute("text-anchor", "middle");
        if (r.side) { t.setAttribute("data-side", r.side); t.style.fontSize = r.font.toFixed(2) + "px"; this.rulers.push([t, r]); }
        t.setAttribute("aria-hidden", "true");  /* each place's own name says it; read out, they are noise */
        t.textContent = r.text;
        this.labelLayer.appendChild(t);
      });
      if (this.rulers.length) this.container.addEventListener("scroll", () => this.pinRulers(), {passive: true});
    }
    /* A grid drawn larger than the phone scrolls in its frame, and a grid as wide as the screen has its
       rows' names just outside it: each name stays at the side of the view (over the outer squares,
       under their pieces, never taking a tap) until its own place comes into view. */
    pinRulers() {
      if (!this.rulers || !this.rulers.length) return;
      const box = this.container, zoomed = box.classList.contains("zoomed");
      const k = this.svg.getBoundingClientRect().width / this.frame[2] || 1;
      /* a board drawn smaller than MIN_PX places (at the screen's width: the Replay page, where nothing
         is tapped) still has names that can be read: never under 12 px */
      const ctm = this.svg.getScreenCTM(), px = ctm && ctm.a > 0 ? ctm.a : k;
      this.rulers.forEach(([t, r]) => { r.shown = Math.max(r.font, 12 / px); t.style.fontSize = r.shown.toFixed(2) + "px"; });
      const x0 = this.frame[0] + box.scrollLeft / k, x1 = x0 + box.clientWidth / k;
      const y0 = this.frame[1] + box.scrollTop / k, y1 = y0 + Math.min(box.clientHeight, this.svg.getBoundingClientRect().height) / k;
      this.rulers.forEach(([t, r]) => {
        /* half the name's width, its outline and a margin: pinned, it never touches the frame's edge */
        const f = r.shown, half = 0.35 * f * r.text.length + 1 + 0.25 * f, pad = 0.2 * f;
        let x = r.x, y = r.y;
        if (zoomed && r.side === "left") x = Math.max(r.x, x0 + half);
        if (zoomed && r.side === "right") x = Math.min(r.x, x1 - half);
        if (zoomed && r.side === "top") y = Math.max(r.y, y0 + 0.75 * f + pad);
        if (zoomed && r.side === "bottom") y = Math.min(r.y, y1 - 0.25 * f - pad);
        t.setAttribute("x", x); t.setAttribute("y", y);
      });
    }
    _arrow(from, to, cls) {
      const a = this.cells[from], b = this.cells[to];
      if (!a || !b || from === to) return;
      const line = document.createElementNS(SVGNS, "line");
      const dx = b.x - a.x, dy = b.y - a.y, d = Math.hypot(dx, dy), k = Math.min(0.45, 9 / d);
      line.setAttribute("x1", a.x + dx * k); line.setAttribute("y1", a.y + dy * k);
      line.setAttribute("x2", b.x - dx * k); line.setAttribute("y2", b.y - dy * k);
      line.setAttribute("class", "arrow " + cls); line.setAttribute("marker-end", "url(#arrowhead)");
      line.setAttribute("data-from", from); line.setAttribute("data-to", to);
      this.arrowLayer.appendChild(line);
    }
    /* Dots on the cells a tapped piece can reach; each is a button (tap, or Tab and Enter). A dot is
       drawn small, in a ring as large as its cell: the ring is what a thumb hits (the board keeps its
       cells MIN_PX on a phone), and the piece or the place under it still shows through. */
    showTargets(piece, cells) {
      this.targetLayer.replaceChildren();
      (cells || []).forEach((cell) => {
        const c = this.cells[cell];
        if (!c) return;
        const dot = document.createElementNS(SVGNS, "g");
        dot.setAttribute("transform", `translate(${c.x},${c.y})`);
        const area = document.createElementNS(SVGNS, "circle");
        area.setAttribute("r", Math.max(7, Board.size(c) / 2)); area.setAttribute("class", "target-area");
        const mark = document.createElementNS(SVGNS, "circle");
        mark.setAttribute("r", 5.5); mark.setAttribute("class", "target-dot");
        dot.append(area, mark);
        dot.setAttribute("class", "target"); dot.setAttribute("data-target", cell);
        dot.setAttribute("tabindex", "0"); dot.setAttribute("role", "button");
        /* read out in the game's words for the piece and the place (the state's names and places), never by id */
        const say = typeof Fog === "undefined" ? {name: (id) => id, place: (id) => id} : Fog;
        dot.setAttribute("aria-label", "move " + say.name(piece) + " to " + say.place(cell));
        const go = () => this.opts.onTarget && this.opts.onTarget(piece, cell);
        dot.addEventListener("click", (e) => { e.stopPropagation(); go(); });
        dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        this.targetLayer.appendChild(dot);
      });
      const first = this.targetLayer.firstChild;
      if (first && document.activeElement && this.svg.contains(document.activeElement)) first.focus();
      /* the tapped thing's place: a piece's cell, or the place itself (a supply beside the board) */
      if (piece && first) this.keepInView(this.where[piece] || (this.cells[piece] ? piece : null), cells);
    }
    cellAt(x, y) {
      let best = null, bestD = Infinity;
      this.g.cells.forEach((c) => {
        if (c.standable === false) return;
        const d = Math.hypot(c.x - x, c.y - y);
        if (d < bestD) { best = c; bestD = d; }
      });
      return bestD <= this.g.snap_mm * 1.27 ? best.id : null;
    }
    toBoard(evt) {
      const pt = this.svg.createSVGPoint();
      pt.x = evt.clientX; pt.y = evt.clientY;
      return pt.matrixTransform(this.svg.getScreenCTM().inverse());
    }
    render(placement, info) {
      /* a redraw replaces every piece: one under a finger would be dropped with its drag, so a redraw
         that comes mid-drag (the camera, another phone's move) waits for the drag to end */
      if (this.dragging) { this.pending = [placement, info]; this.container.dataset.redrawHeld = "true"; return; }
      this.pending = null;
      delete this.container.dataset.redrawHeld;
      info = info || {};
      const colours = this.g.colours;
      this.pieceLayer.replaceChildren();
      this.where = {};
      /* groups of places the game shades as play goes on: [{look: "covered" | "warned", groups}] */
      this.svg.querySelectorAll(".cell.shade-covered, .cell.shade-warned").forEach((n) => n.classList.remove("shade-covered", "shade-warned"));
      (info.shades || []).forEach((s) => s.groups.forEach((gr) =>
        this.svg.querySelectorAll(`.cell[data-group="${CSS.escape(String(gr))}"]`).forEach((n) => n.classList.add("shade-" + s.look))));
      this.arrowLayer.replaceChildren();
      (info.lastMove || []).forEach((m) => {
        for (let i = 1; i < m.path.length; i++) this._arrow(m.path[i - 1], m.path[i], "last-move");
      });
      (info.misplaced || []).forEach((m) => { if (m.seen && m.belongs) this._arrow(m.seen, m.belongs, "put-back"); });
      this.countLayer.replaceChildren();
      this.badgeLayer.replaceChildren();
      Object.entries(info.supplies || {}).forEach(([cell, text]) => {
        const c = this.cells[cell];
        if (!c) return;
        const t = document.createElementNS(SVGNS, "text");
        t.setAttribute("x", c.x); t.setAttribute("y", c.y + 5); t.setAttribute("text-anchor", "middle");
        t.setAttribute("class", "supply-count"); t.setAttribute("data-supply", cell);
        t.style.fontSize = "14px"; t.style.fontWeight = "700"; t.style.fill = "#222"; t.style.pointerEvents = "none";
        t.textContent = text ? String(text).charAt(0).toUpperCase() + String(text).slice(1) : text;  /* a line: "Red 3, blue 3" */
        const xs = c.outline.map((p) => p[0]);
        t.dataset.width = String(xs.length ? Math.max(...xs) - Math.min(...xs) : 26);
        this.countLayer.appendChild(t);
        this._supplyCount(c, t, ((placement || {})[cell] || []).map((e) => String(e).split("^")[0]));
      });
      /* a piece that faces a way is named with it in a camera's picture ("red-s1^N"), or the view's
         facing says it (piece -> way): drawn pointing so */
      const ways = Object.assign({}, info.facing || {});
      placement = Object.fromEntries(Object.entries(placement || {}).map(([cell, ps]) => [cell, ps.map((e) => {
        const [id, way] = String(e).split("^");
        if (way) ways[id] = way;
        return id;
      })]));
      info = Object.assign({}, info, {facing: ways});
      Object.entries(placement || {}).forEach(([cell, pieces]) => {
        const c = this.cells[cell];
        if (!c) return;
        pieces.forEach((p) => { this.where[p] = cell; });
        if (c.supply) {  /* small tokens in rows along the supply's foot, clear of what it says it holds */
          const [at] = this._supplyRows(c, pieces);
          pieces.forEach((p, k) => this._drawPiece(p, at[k][0], at[k][1], info, colours, c));
          return;
        }
        if (c.stack || (info.stacks || {})[cell]) {  /* one on another, the first listed at the bottom */
          /* what a player counts on a stack: the pieces under its top one (a piece standing on 2 others: 2),
             named by their kind when those listed are all alike */
          const under = Math.max(pieces.length, ((info.stacks || {})[cell] || 0) + 1) - 1;
          const kinds = new Set(pieces.slice(0, -1).map((p) => (this.g.pieces[p] || {}).alike));
          const kind = kinds.size === 1 && [...kinds][0] ? [...kinds][0] : "piece";
          const one = under === 1 && pieces.length === 2 && kind === "piece" && typeof Fog !== "undefined";  /* one piece, not a kind: by name */
          const stack = under ? {under, words: one ? Fog.name(pieces[0]) : under + " " + kind + (under > 1 ? "s" : "")} : 0;
          pieces.forEach((p, k) => this._drawPiece(p, c.x - k * 1.5, c.y - k * 1.5, info, colours, c,
            k === pieces.length - 1 ? stack : 0));
          return;
        }
        pieces.forEach((p, k) => this._drawPiece(p, c.x + k * 5 - (pieces.length - 1) * 2.5, c.y + k * 2.5, info, colours, c));
      });
      if (!this.selected) this.targetLayer.replaceChildren();
      this._drawReach((info.reach || {})[this.selected]);
    }
    /* The tapped piece's reach (the view's reach: {shots, moves}): the places it could hit now, outlined
       dashed, and those its move could end on, solid, each shading its place's own shape, so the player
       sees what it threatens without counting places. Drawn only while the piece is selected. */
    _drawReach(reach) {
      this.reachLayer.replaceChildren();
      [["shots", "shot"], ["moves", "move"]].forEach(([key, look]) => ((reach || {})[key] || []).forEach((cell) => {
        const c = this.cells[cell];
        if (!c) return;
        const shape = document.createElementNS(SVGNS, c.outline.length ? "polygon" : "circle");
        if (c.outline.length) shape.setAttribute("points", c.outline.map((p) => p.join(",")).join(" "));
        else { shape.setAttribute("cx", c.x); shape.setAttribute("cy", c.y); shape.setAttribute("r", 13); }
        shape.setAttribute("class", "reach " + look); shape.setAttribute("data-reach", cell);
        shape.setAttribute("aria-hidden", "true");  /* the page's words say them */
        this.reachLayer.appendChild(shape);
      }));
    }
    /* A piece at (x, y) on cell c; stack: the pieces under it, {under: how many, words} (0: none),
       their count written on it in a badge. */
    _drawPiece(id, x, y, info, colours, c, stack) {
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", "piece" + ((info.offenders || []).includes(id) ? " offender" : "") +
        ((info.turnOver || []).includes(id) ? " turn-over" : "") + ((info.faceDown || []).includes(id) ? " face-down" : "") +
        (this.selected === id ? " selected" : "") + ((Array.isArray(info.moved) ? info.moved : []).includes(id) ? " moved" : ""));
      g.setAttribute("data-piece", id);
      g.setAttribute("transform", `translate(${x},${y})`);
      /* the view's looks: a piece as its reader may see it (a face-down disc under a public name drawn as
         its back shows, a face-up one with its face written on it), over the layout's look */
      const look = Object.assign({}, this.g.pieces[id] || {label: id, short: "?", colour: "#888"}, (info.looks || {})[id]);
      /* a piece's colour named as a seat colour ("natural") is painted in the layout's colour for it, as the
         Board page's looks paint it: never left to the browser, which draws a name it does not know black */
      if (Object.prototype.hasOwnProperty.call(colours || {}, look.colour)) look.colour = colours[look.colour];
      const owner = (info.owners || {})[id];
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      const name = look.label || id;  /* the name says what the token shows: its mark too ("sqz", "+1") */
      g.setAttribute("aria-label", (look.icon ? "" : (look.short ? look.short + ": " : "")) + name +
        (look.icon && look.mark && !name.split(/[\s·,]+/).includes(look.mark) ? ", marked " + look.mark : "") + (owner ? ", " + owner + "'s" : "") +
        (stack ? ", on top of " + stack.words : ""));
      let shape, size = [26, 26];  /* a disc's diameter: the room for its text */
      if (look.shape === "bar") {  /* a wall: a bar along its edge, tapped over the edge's whole tap area */
        const u = (c && this._across(c)) || [0, 1], edge = c && c.edge && c.outline.length;  /* off an edge (a supply): a token */
        const xs = edge ? c.outline.map((p) => p[0]) : [x - 13, x + 13];
        const ys = edge ? c.outline.map((p) => p[1]) : [y - 13, y + 13];
        const w = Math.max(...xs) - Math.min(...xs), h = Math.max(...ys) - Math.min(...ys);
        const area = document.createElementNS(SVGNS, "rect");
        area.setAttribute("x", -w / 2); area.setAttribute("y", -h / 2); area.setAttribute("width", w); area.setAttribute("height", h);
        area.style.fill = "transparent"; area.style.stroke = "none";
        g.appendChild(area);
        const long = Math.max(w, h) * 0.95, thick = 7;
        shape = document.createElementNS(SVGNS, "rect");
        shape.setAttribute("x", -long / 2); shape.setAttribute("y", -thick / 2);
        shape.setAttribute("width", long); shape.setAttribute("height", thick); shape.setAttribute("rx", 1.5);
        shape.setAttribute("transform", `rotate(${Math.atan2(u[1], u[0]) * 180 / Math.PI + 90})`);
        shape.setAttribute("fill", look.colour || "#8a6"); shape.setAttribute("stroke", "#222");
        size = null;
      } else if (look.shape !== "square") {
        if (owner) {  /* a light halo outside the owner's ring: dark colours read on any cell */
          const halo = document.createElementNS(SVGNS, "circle");
          halo.setAttribute("r", 14.8); halo.setAttribute("class", "halo");
          g.appendChild(halo);
        }
        shape = document.createElementNS(SVGNS, "circle");
        shape.setAttribute("r", 13);
        shape.setAttribute("fill", look.colour || "#888");
        shape.setAttribute("stroke", owner ? colours[owner] : "#fff");
        shape.setAttribute("stroke-width", owner ? 3.2 : 1);
      } else {  /* a square token, or an oblong one as large as the layout says it is (its value readable) */
        const [w, h] = Array.isArray(look.size_mm) ? look.size_mm : [25, 25];
        shape = document.createElementNS(SVGNS, "rect");
        shape.setAttribute("x", -w / 2); shape.setAttribute("y", -h / 2); shape.setAttribute("width", w); shape.setAttribute("height", h);
        shape.setAttribute("rx", 2);
        shape.setAttribute("fill", look.colour || "#6b6b6b"); shape.setAttribute("stroke", "#222");
        size = [w, h];
      }
      g.appendChild(shape);
      const way = (info.facing || {})[id], angle = (this.g.facings || {})[way];
      if (look.facing && typeof angle === "number") {
        /* a pointer from the token's rim almost to its centre, pointing the way it faces: inside the rim (a
           neighbour never hides it), under the text in the middle (the text's dark outline keeps it read), and
           large (about 14 by 17 px on a 30 px token; 8 px still where a whole island is drawn at a phone's
           width), since which way a piece faces is read at a glance across the table */
        const notch = document.createElementNS(SVGNS, "path"), rim = size ? size[1] / 2 : 13;
        notch.setAttribute("d", `M0,${-rim - 0.5} L-7.5,${-rim + 11.5} L7.5,${-rim + 11.5} Z`);
        notch.setAttribute("class", "facing"); notch.setAttribute("data-facing", way);
        notch.setAttribute("transform", `rotate(${-angle})`);  /* the layout's angle is counter-clockwise; SVG's clockwise */
        notch.style.fill = "#fff"; notch.style.stroke = "#111"; notch.style.strokeWidth = "1"; notch.style.pointerEvents = "none";
        g.appendChild(notch);
        g.setAttribute("aria-label", g.getAttribute("aria-label") + ", facing " + ({N: "north", E: "east", S: "south", W: "west"}[way] || way));
      }
      if (!look.icon && lightToken(look.colour)) g.classList.add("light");
      if (size) Board.drawLook(g, look, look.icon ? null : size);
      if (stack) {  /* how many under it, on a dark badge at the top piece's corner (its name says it too) */
        const badge = document.createElementNS(SVGNS, "g");
        badge.setAttribute("class", "stack-height"); badge.setAttribute("transform", `translate(${x + 11},${y - 11})`);
        badge.setAttribute("aria-hidden", "true"); badge.setAttribute("data-stack", id); badge.style.pointerEvents = "none";
        const disc = document.createElementNS(SVGNS, "circle");
        disc.setAttribute("r", 7); disc.style.fill = "#111"; disc.style.stroke = "#fff"; disc.style.strokeWidth = "1";
        const n = document.createElementNS(SVGNS, "text");
        n.setAttribute("text-anchor", "middle"); n.setAttribute("dy", "3.6");
        n.style.fontSize = "10px"; n.style.fill = "#fff"; n.style.stroke = "none";
        n.textContent = String(stack.under);
        badge.append(disc, n);
        this.badgeLayer.appendChild(badge);
      }
      if (look.icon) {  /* a tooltip for an icon only: beside a drawn number or mark it would be read as part of it */
        const title = document.createElementNS(SVGNS, "title");
        title.textContent = look.label || id;
        g.appendChild(title);
      }
      g.addEventListener("click", (e) => {
        e.stopPropagation();
        if (this.dropped === id) { this.dropped = null; return; }  /* the click that ends a drag is no tap */
        if (this.opts.onPiece) this.opts.onPiece(id);
      });
      g.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && this.opts.onPiece) { e.preventDefault(); this.opts.onPiece(id); }
      });
      if (this.opts.onDrop) this._draggable(g, id, x, y);
      this.pieceLayer.appendChild(g);
    }
    _draggable(g, id, x0, y0) {
      g.style.cursor = "grab";
      /* a finger that starts on a token drags it; anywhere else on the board it scrolls a board drawn
         larger than the phone (CSS touch-action is not applied to the parts of an SVG in Chromium, and
         held off the first touchmove, a tap is still a click) */
      g.addEventListener("touchmove", (e) => { if (e.cancelable) e.preventDefault(); }, {passive: false});
      g.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        g.setPointerCapture(e.pointerId);
        this.dragging = id;
        const start = this.toBoard(e);
        const move = (ev) => { const p = this.toBoard(ev); g.setAttribute("transform", `translate(${x0 + p.x - start.x},${y0 + p.y - start.y})`); };
        const redraw = () => { if (!this.dragging && this.pending) this.render(...this.pending); };  /* the redraw held back */
        const up = (ev) => {
          ["pointermove", "pointerup", "pointercancel", "lostpointercapture"].forEach((t) => g.removeEventListener(t, t === "pointermove" ? move : up));
          this.dragging = null;
          const p = this.toBoard(ev);
          const dx = p.x - start.x, dy = p.y - start.y;
          if (ev.type !== "pointerup" || Math.hypot(dx, dy) < 3) {  /* a tap, or a drag the browser took back */
            g.setAttribute("transform", `translate(${x0},${y0})`);
            setTimeout(redraw);  /* after the tap's click, which goes to this piece */
            return;
          }
          this.dropped = id;  /* a drag and drop: the click the browser sends after it selects nothing */
          setTimeout(() => { if (this.dropped === id) this.dropped = null; });
          Promise.resolve(this.opts.onDrop(id, this.cellAt(x0 + dx, y0 + dy))).finally(redraw);
        };
        g.addEventListener("pointermove", move);
        ["pointerup", "pointercancel", "lostpointercapture"].forEach((t) => g.addEventListener(t, up));
      });
    }
  }

  /* A token's text in a colour that reads on it: dark on light tokens (white, yellow), light on dark ones. */
  const inks = new Map();
  function lightToken(colour) {
    if (!colour) return false;
    if (!inks.has(colour)) {
      const probe = document.createElement("i");  /* any CSS colour (a name or #hex) as the browser reads it */
      probe.style.color = colour;
      document.body.appendChild(probe);
      const [r, g, b] = (getComputedStyle(probe).color.match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      probe.remove();
      inks.set(colour, 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4);
    }
    return inks.get(colour);
  }

  /* On a laptop or a TV the whole board stays in view: its height is what is left under the header,
     the stepper and whatever notices stand above it (they come and go) and the hint under it, never
     less than 320 px. On a phone the board takes the full width instead (or more, see above) and the
     page scrolls. The setup page is read from the top (instructions first), so its board keeps the
     plain limit. */
  function fitAll() {
    drawn.forEach((b) => { if (b.svg.isConnected) b.fit(); else drawn.delete(b); });
  }
  window.addEventListener("resize", fitAll);
  /* a notice or banner appearing above the board moves it down (this script runs after the body) */
  const aboveBoard = window.ResizeObserver ? new ResizeObserver(() => fitAll()) : null;
  if (aboveBoard) ["header", "#stepper", "#banner", "#open-panel"].forEach((sel) => {
    const e = document.querySelector(sel); if (e) aboveBoard.observe(e);
  });
  Board.fitAll = fitAll;
  Board.watch = (e) => { if (aboveBoard) aboveBoard.observe(e); };
  Board.MIN_PX = MIN_PX;
  return Board;
})();
