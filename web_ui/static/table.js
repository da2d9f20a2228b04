"use strict";
(async () => {
  let hand = false;
  const status = (t) => { document.getElementById("table-status").textContent = t; };
  const board = await Fog.board("board", {
    onDrop: async (piece, cell) => {
      const res = await Fog.api("POST", "/api/table/move", {piece, cell});
      if (res.ok) { draw(res.data.table); status(piece + (cell ? " put on " + cell : " taken off the table")); }
    },
  });
  let owners = {};
  function draw(table) { board.render(table, {owners}); }
  async function reload() { const res = await Fog.api("GET", "/api/table"); if (res.ok) draw(res.data.table); }
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
