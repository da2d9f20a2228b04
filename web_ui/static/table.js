"use strict";
(async () => {
  let hand = false, turning = false, faceDown = [];
  const status = (t) => { document.getElementById("table-status").textContent = t; };
  const board = await Fog.board("board", {
    onPiece: async (piece) => {
      if (!turning) return;
      const res = await Fog.api("POST", "/api/table/turn-over", {piece});
      if (res.ok) { faceDown = res.data.face_down; draw(res.data.table); status(piece + (faceDown.includes(piece) ? " turned over" : " turned face up")); }
    },
    onDrop: async (piece, cell) => {
      const res = await Fog.api("POST", "/api/table/move", {piece, cell});
      if (res.ok) { draw(res.data.table); status(piece + (cell ? " put on " + cell : " taken off the table")); }
    },
  });
  let owners = {};
  function draw(table) { board.render(table, {owners, faceDown}); }
  async function reload() {
    const res = await Fog.api("GET", "/api/table");
    if (res.ok) { faceDown = res.data.face_down || []; draw(res.data.table); }
  }
  document.getElementById("turn-over").onclick = (e) => {
    turning = !turning;
    e.target.setAttribute("aria-pressed", String(turning));
    e.target.textContent = turning ? "Done turning tokens over" : "Turn tokens over (tap them)";
    status(turning ? "tap a token to turn it over" : "");
  };
  document.getElementById("place-all").onclick = async () => {
    const res = await Fog.api("POST", "/api/table/setup", {});
    if (res.ok) { draw(res.data.table); status("pieces placed"); }
  };
  document.getElementById("hand").onclick = async (e) => {
    hand = !hand;
    await Fog.api("POST", "/api/table/hand", {where: hand ? "random" : null});
    e.target.textContent = hand ? "Take the hand away" : "Hold a hand over the board";
  };
  Fog.on("state", (s) => { owners = s.owners || {}; reload(); });
  Fog.connect();
})();
