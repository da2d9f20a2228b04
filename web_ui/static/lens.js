"use strict";
/* The lens calibration in steps: views taken one tap each, the reason in words when one is not kept. */
(async () => {
  const status = document.getElementById("lens-status");
  const progress = document.getElementById("lens-progress");
  const take = document.getElementById("lens-take"), compute = document.getElementById("lens-compute");
  const restart = document.getElementById("lens-restart"), forget = document.getElementById("lens-forget");
  let last = {};
  function describe(s) {
    if (s.problem) return "The lens calibration cannot be used: " + s.problem + ".";
    if (!s.calibrated) return "No lens calibration: the camera is read as a perfect pinhole camera.";
    const l = s.lens;
    return "Calibrated from " + l.views + " views (" + l.width + "×" + l.height + ", error " + l.rms_px.toFixed(2) +
      " px); at the picture's corners the lens moves points by " + Math.round(l.edge_shift_px) + " px" +
      (s.in_use ? ". The camera is read through it." : ", but the camera is not using it yet.");
  }
  function show(s, said) {
    last = s;
    status.textContent = describe(s);
    const more = Math.max(0, s.needed - s.views);
    progress.textContent = (said ? said + " " : "") + s.views + " views taken" +
      (more ? "; " + more + " more needed." : s.views < s.most ? "; more (up to " + s.most + ") make it better." :
        "; that is enough.");
    compute.disabled = s.views < s.needed || s.camera !== "real";
    take.disabled = s.camera !== "real";
    if (s.camera === "simulated") progress.textContent = "The simulated table has no lens to calibrate: this is for a real camera.";
    if (s.camera === "none") progress.textContent = "No camera is running: start the companion with its camera to calibrate.";
    forget.hidden = !s.calibrated;
  }
  async function refresh(said) {
    const res = await Fog.api("GET", "/api/lens");
    if (res.ok) show(res.data, said);
  }
  take.addEventListener("click", async () => {
    take.disabled = true;
    const res = await Fog.api("POST", "/api/lens/views");
    take.disabled = false;
    if (!res.ok) return;
    const r = res.data;
    await refresh(r.accepted ? "View kept (" + r.corners + " corners)." : "Not kept: " + r.reason + ".");
  });
  compute.addEventListener("click", async () => {
    const body = {};
    if (last.calibrated) {
      if (!await Fog.confirmBox("Replace the lens calibration you have with this one?", [], "Replace", "Keep it")) return;
      body.confirm = true;
    }
    compute.disabled = true;
    const res = await Fog.api("POST", "/api/lens", body);
    if (res.ok) show(res.data, "Done.");
    else compute.disabled = false;
  });
  restart.addEventListener("click", async () => {
    const res = await Fog.api("DELETE", "/api/lens/views");
    if (res.ok) show(res.data, "Views cleared.");
  });
  forget.addEventListener("click", async () => {
    if (!await Fog.confirmBox("Remove the lens calibration? The camera is then read as a pinhole camera again.", [],
                              "Remove", "Keep it")) return;
    const res = await Fog.api("DELETE", "/api/lens", {confirm: true});
    if (res.ok) show(res.data, "Removed.");
  });
  Fog.connect();
  await refresh("");
})();
