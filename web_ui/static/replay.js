"use strict";
(async () => {
  const game = document.getElementById("replay").dataset.game;
  const board = await Fog.board("board", {});
  let step = 0, steps = 0;
  async function show(n) {
    const res = await Fog.api("GET", `/api/games/${encodeURIComponent(game)}/replay?step=${Math.max(0, n)}`);
    if (!res.ok) return;
    const r = res.data;
    step = r.step; steps = r.steps;
    document.getElementById("step").textContent = step;
    document.getElementById("steps").textContent = steps;
    document.getElementById("replay-event").textContent = r.event ? `#${r.event.seq} ${r.event.kind}: ${r.event.data.action || r.event.data.undone || ""}` : "setup";
    board.render(r.placement, {owners: r.owners});
    // the buttons work once the length of the log is known
    ["first", "prev", "next", "last"].forEach((id) => { document.getElementById(id).disabled = false; });
  }
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(step - 1);
  document.getElementById("next").onclick = () => show(step + 1);
  document.getElementById("last").onclick = () => show(steps);
  show(0);
})();
