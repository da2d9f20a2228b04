/* Seats, in a game where each player keeps secrets (a closed fist, their own face-down pieces): this
   phone joins its player's seat with the code the table's screen shows, and keeps the code, so it is
   that seat again after the companion restarts. A phone joined to a seat is sent that seat's view only;
   the Seats box shows what the game tells this seat in words (the lines the view gives it) and, when the game
   waits for this seat's own choice (its fist in a fight), offers it as buttons in the game's words;
   nobody else's phone is shown what was chosen. The table's screen shows each seat's QR code next to its
   code: a phone's camera opens this page with the code after a "#join=", and the page joins with it as
   with a typed code, then drops it from the address (and so from the browser's history). */
"use strict";
(() => {
  const box = document.getElementById("seat-card");
  if (!box) return;
  const KEY = "fog-seat-code";
  const $ = (id) => document.getElementById(id);
  let seat = null;
  let asked = 0;  /* the choices drawn are those of the latest state only, however the answers come back */

  function say(text) {
    $("seat-error").textContent = text || "";
    $("seat-error").hidden = !text;
  }

  async function joinWith(code, quiet) {
    const r = await Fog.api("POST", "/api/seats/join", {code}, true);
    if (r.ok) {
      localStorage.setItem(KEY, code);
      location.reload();  /* the live stream opens again as this seat */
    } else if (quiet) {
      localStorage.removeItem(KEY);  /* a code of a game that is over: forgotten */
    } else {
      say(r.data.error || "The seat could not be joined: try again.");  /* a wrong code, or the wait, in words */
      $("seat-code").value = code;  /* a scanned code is shown as a typed one is */
      $("seat-code").select();
    }
    return r.ok;
  }

  async function load() {
    const r = await Fog.api("GET", "/api/seats", null, true);
    if (!r.ok) return;
    const d = r.data;
    box.hidden = d.seats.length === 0;
    if (!d.seats.length) return;
    seat = d.seat;
    const scanned = /^#join=([A-Za-z0-9]{1,40})$/.exec(location.hash);
    if (scanned) {
      history.replaceState(null, "", location.pathname + location.search);  /* the code leaves the address */
      if (await joinWith(scanned[1], false)) return;  /* joined: the page loads again as that seat */
    }
    const kept = localStorage.getItem(KEY);
    if (seat === null && kept) { await joinWith(kept, true); return; }
    $("seat-list").replaceChildren(...d.seats.map((s) => {
      const li = document.createElement("li");
      li.append(s.name);
      if (s.seat === seat) {
        li.className = "mine";
        li.append(" (this phone)");
      }
      if (s.code) {
        const code = document.createElement("code");
        code.textContent = s.code;
        li.append(": ", code);
      }
      if (s.qr && seat === null) {  /* for the table's screen: a joined phone needs no picture of its own seat */
        const img = document.createElement("img");
        img.className = "seat-qr";
        img.src = s.qr;
        img.alt = "QR code: scan it with " + s.name + "'s phone to join this seat";
        img.title = s.join_url;
        li.append(img);
      }
      return li;
    }));
    const mine = d.seats.find((s) => s.seat === seat);
    $("seat-codes-hidden").hidden = d.codes_shown || seat !== null;
    $("seat-mine").textContent = mine ? mine.name + "'s seat" : "no seat: it shows only what everyone sees";
    $("seat-why").hidden = seat !== null;
    $("seat-join").hidden = seat !== null;
    $("seat-leave").hidden = seat === null;
  }

  async function draw(state) {
    const lines = (state && state.seat_card) || [];
    $("seat-lines").replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    const list = $("seat-choices");
    if (seat === null) { list.replaceChildren(); return; }
    const mine = ++asked;
    const r = await Fog.api("GET", "/api/seats/choices", null, true);
    if (mine !== asked) return;  /* a newer state asked meanwhile */
    const offered = r.ok ? r.data.choices : [];
    list.replaceChildren(...offered.map((c) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c.label;
      b.dataset.action = c.action;
      b.onclick = async () => {
        list.querySelectorAll("button").forEach((x) => { x.disabled = true; });  /* one choice, one tap */
        if (!(await Fog.api("POST", "/api/seats/act", {action: c.action})).ok) {
          list.querySelectorAll("button").forEach((x) => { x.disabled = false; });
        }
      };
      return b;
    }));
  }

  $("seat-join").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = $("seat-code").value.trim();
    if (code) { say(""); joinWith(code, false); } else say("Type your seat's code first.");
  });
  $("seat-leave").addEventListener("click", async () => {
    localStorage.removeItem(KEY);
    if ((await Fog.api("POST", "/api/seats/leave", {})).ok) location.reload();
  });
  load().then(() => Fog.on("state", draw));
})();
