// An open batch page takes new readings without a reload: every few seconds it asks this server
// whether a reading newer than the newest shown has come, and puts in the parts the server drew again
// (figures, both chart drawings, the latest readings, each device's last values). Without script the
// page shows what it had when loaded.
"use strict";
(function () {
  var root = document.getElementById("readings-live");
  if (!root || !root.getAttribute("data-live") || !window.fetch) return;
  var url = root.getAttribute("data-live");
  var after = root.getAttribute("data-after") || "";
  var busy = false;
  var timer = setInterval(poll, Number(root.getAttribute("data-every")) || 5000);

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?after=" + encodeURIComponent(after), { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (res) {
        // Signed out or the batch gone: nothing more will come.
        if (res.status === 401 || res.status === 404) clearInterval(timer);
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (!body || !body.parts) return;
        Object.keys(body.parts).forEach(function (id) {
          var part = document.getElementById(id);
          if (part) part.outerHTML = body.parts[id];
        });
        after = body.after === null ? "" : String(body.after);
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }
})();
