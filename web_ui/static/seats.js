/* Seats, in a game where each player keeps secrets (a closed fist, their own face-down pieces): this
   phone joins its player's seat with the code the table's screen shows, and keeps the code, so it is
   that seat again after the companion restarts. A phone joined to a seat is sent that seat's view only;
   the Seats box shows what the game tells this seat in words (the lines the view gives it) and, when the game
   waits for this seat's own choice (its fist in a fight), offers it as buttons in the game's words;
   nobody else's phone is shown what was chosen. The table's screen shows each seat's QR code next to its
   code: a phone's camera opens this page with the code after a "#join=", and the page joins with it as
   with a typed code, then drops it from the address (and so from the browser's history).
   When the game gives this seat something to share out over its own things (the view's "seat_share": rows,
   each with the most it takes, and every word the box says), the seat's box lays it out with - and + per
   row and one tap puts it all down (the rows' actions entered in order); the plan is kept while other
   players' moves redraw the page. */
"use strict";
(() => {
  const box = document.getElementById("seat-card");
  if (!box) return;
  const KEY = "fog-seat-code";
  const $ = (id) => document.getElementById(id);
  let seat = null;
  let asked = 0;  /* the choices drawn are those of the latest state only, however the answers come back */
  const planned = new Map();  /* row's action -> how many this phone has planned on it, not yet entered */

  function say(text) {
    $("seat-error").textContent = text || "";
    $("seat-error").hidden = !text;
  }

  async function joinWith(code, quiet) {
    /* the claim this phone was given when it joined before: a restart that forgot the cookie keeps the seat */
    const token = localStorage.getItem(KEY + "-token") || undefined;
    const r = await Fog.api("POST", "/api/seats/join", {code, token}, true);
    if (r.ok) {
      localStorage.setItem(KEY, code);
      localStorage.setItem(KEY + "-token", r.data.token);
      location.reload();  /* the live stream opens again as this seat */
    } else if (quiet) {
      localStorage.removeItem(KEY);  /* a code of a game that is over, or a seat released: forgotten */
      localStorage.removeItem(KEY + "-token");
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
      li.append(Fog.sentence(s.name));  /* a seat left unnamed is called by its colour: "Natural: BT3YWV" */
      if (s.seat === seat) {
        li.className = "mine";
        li.append(" (this phone)");
      }
      if (s.code) {
        const code = document.createElement("code");
        code.textContent = s.code;
        li.append(": ", code);
      }
      if (d.screen && s.held) {  /* the table's screen frees a seat whose phone is lost or changed */
        const release = Fog.el("button", {type: "button", "class": "secondary seat-release"}, "Release");
        release.setAttribute("aria-label", "Release " + s.name + "'s seat: another phone may then join it");
        release.onclick = async () => {
          if (await Fog.confirmBox(s.name + "'s seat is held by a phone. Release it, so that another phone can " +
                                   "join it with the code?", [], "Release the seat", "Cancel")) {
            if ((await Fog.api("POST", "/api/seats/" + encodeURIComponent(s.seat) + "/release", {})).ok) load();
          }
        };
        li.append(" (held by a phone) ", release);
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
    $("seat-codes-hidden").hidden = d.codes_shown || seat !== null || d.can_pair;
    $("seat-pair").hidden = $("seat-pair-why").hidden = !(d.can_pair && seat === null && !d.screen);
    $("seat-codes-pin").hidden = !d.pin_required;
    $("seat-unpair").hidden = !(d.screen && d.paired_here);
    $("seat-mine").textContent = mine ? mine.name + "'s seat" : "no seat: it shows only what everyone sees";
    $("seat-why").hidden = seat !== null;
    $("seat-join").hidden = seat !== null;
    $("seat-leave").hidden = seat === null;
  }

  /* a count in the game's words: words[0] for none, words[1] for one, words[2] with {n} for more */
  const counted = (words, n) => words[Math.min(n, 2)].replace("{n}", String(n));

  function drawShare(share) {
    const box = $("seat-share");
    box.hidden = !share || seat === null;
    if (box.hidden) { planned.clear(); box.replaceChildren(); return new Set(); }
    let room = share.must;
    share.rows.forEach((r) => {  /* a plan made before the last state still fits it */
      const n = Math.max(0, Math.min(planned.get(r.action) || 0, r.most, room));
      planned.set(r.action, n);
      room -= n;
    });
    [...planned.keys()].forEach((a) => { if (!share.rows.some((r) => r.action === a)) planned.delete(a); });
    const paint = () => {
      const used = share.rows.reduce((t, r) => t + planned.get(r.action), 0);
      const list = Fog.el("ul", {"class": "share-rows"});
      share.rows.forEach((r) => {
        const n = planned.get(r.action);
        const li = Fog.el("li", n ? {"class": "planned"} : {});
        const button = (words, sign) =>
          Fog.el("button", {type: "button", "class": "secondary", "aria-label": words + ": " + r.label}, sign);
        const less = button(share.less, "−");
        const more = button(share.more, "+");
        less.disabled = n === 0;
        more.disabled = n >= r.most || used >= share.must;
        less.onclick = () => { planned.set(r.action, n - 1); paint(); };
        more.onclick = () => { planned.set(r.action, n + 1); paint(); };
        li.append(Fog.el("span", {"class": "share-label"}, r.label + ": " + r.count.replace("{n}", String(r.now + n))),
                  less, more);
        li.dataset.action = r.action;
        list.appendChild(li);
      });
      const done = Fog.el("button", {type: "button", id: "seat-share-done"}, share.done);
      done.disabled = used !== share.must;
      done.onclick = async () => {
        const actions = share.rows.flatMap((r) => Array(planned.get(r.action)).fill(r.action));
        box.querySelectorAll("button").forEach((b) => { b.disabled = true; });  /* one tap puts it down */
        if ((await Fog.api("POST", "/api/seats/act", {actions})).ok) planned.clear(); else paint();
      };
      box.replaceChildren(Fog.el("p", {"class": "share-title"}, share.title), list,
                          Fog.el("p", {"class": "hint", "aria-live": "polite"}, counted(share.left, share.must - used)),
                          done);
    };
    paint();
    return new Set(share.rows.map((r) => r.action));
  }

  async function draw(state) {
    const lines = (state && state.seat_card) || [];
    $("seat-lines").replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    const list = $("seat-choices");
    const shared = drawShare(state && state.seat_share);  /* its rows' actions are not buttons of their own */
    if (seat === null) { list.replaceChildren(); return; }
    const mine = ++asked;
    const r = await Fog.api("GET", "/api/seats/choices", null, true);
    if (mine !== asked) return;  /* a newer state asked meanwhile */
    const offered = (r.ok ? r.data.choices : []).filter((c) => !shared.has(c.action));
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
  $("seat-unpair").addEventListener("click", async () => {
    if ((await Fog.api("POST", "/api/seats/screen", {pair: false})).ok) load();
  });
  $("seat-pair").addEventListener("click", async () => {
    if ((await Fog.api("POST", "/api/seats/screen", {pair: true})).ok) load();
  });
  $("seat-leave").addEventListener("click", async () => {
    localStorage.removeItem(KEY);
    localStorage.removeItem(KEY + "-token");
    if ((await Fog.api("POST", "/api/seats/leave", {})).ok) location.reload();
  });
  load().then(() => Fog.on("state", draw));
})();
