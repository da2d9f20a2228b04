/* Seats, in a game where each player keeps secrets (a closed fist, their own face-down pieces): this
   phone joins its player's seat with the code the table's screen shows, and keeps the code, so it is
   that seat again after the companion restarts. A phone joined to a seat is sent that seat's view only;
   when the game waits for this seat's own secret choice (its fist in a fight), the choices are offered
   here and nobody else's phone is shown what was chosen. */
"use strict";
(() => {
  const box = document.getElementById("seat-card");
  if (!box) return;
  const KEY = "fog-seat-code";
  const $ = (id) => document.getElementById(id);
  let seat = null;

  async function joinWith(code, quiet) {
    const r = await Fog.api("POST", "/api/seats/join", {code}, quiet);
    if (r.ok) {
      localStorage.setItem(KEY, code);
      location.reload();  /* the live stream opens again as this seat */
    } else if (quiet) {
      localStorage.removeItem(KEY);  /* a code of a game that is over: forgotten */
    }
  }

  async function load() {
    const r = await Fog.api("GET", "/api/seats", null, true);
    if (!r.ok) return;
    const d = r.data;
    box.hidden = d.seats.length === 0;
    if (!d.seats.length) return;
    seat = d.seat;
    const kept = localStorage.getItem(KEY);
    if (seat === null && kept) { await joinWith(kept, true); return; }
    const list = $("seat-list");
    list.replaceChildren(...d.seats.map((s) => {
      const li = document.createElement("li");
      li.textContent = s.name + (s.code ? ": " + s.code : "");
      if (s.seat === seat) li.className = "mine";
      return li;
    }));
    $("seat-codes-hidden").hidden = d.codes_shown;
    $("seat-mine").textContent = seat === null ? "none: this phone shows the whole table" : seat;
    $("seat-join").hidden = seat !== null;
    $("seat-leave").hidden = seat === null;
  }

  async function drawChoices() {
    const box = $("seat-choices");
    if (seat === null) { box.replaceChildren(); return; }
    const r = await Fog.api("GET", "/api/seats/choices", null, true);
    const offered = r.ok ? r.data.choices : [];
    box.replaceChildren(...offered.map((action) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = action;
      b.onclick = () => Fog.api("POST", "/api/seats/act", {action});
      return b;
    }));
  }

  $("seat-join").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("seat-code").value.trim();
    if (code) joinWith(code, false);
  });
  $("seat-leave").addEventListener("click", async () => {
    localStorage.removeItem(KEY);
    if ((await Fog.api("POST", "/api/seats/leave", {})).ok) location.reload();
  });
  load().then(() => Fog.on("state", drawChoices));
})();
