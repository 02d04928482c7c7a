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

  function stopped() {
    if (document.getElementById("live-stopped")) return;
    var note = document.createElement("p");
    note.id = "live-stopped";
    note.className = "notice";
    note.setAttribute("role", "status");
    note.appendChild(document.createTextNode("New readings no longer show here: your session has ended. "));
    var link = document.createElement("a");
    link.href = "/signin?next=" + encodeURIComponent(location.pathname + location.search) + "&expired=1";
    link.appendChild(document.createTextNode("Sign in again"));
    note.appendChild(link);
    root.parentNode.insertBefore(note, root);
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?after=" + encodeURIComponent(after), { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (res) {
        // Signed out or the batch gone: nothing more will come. An ended session is said so, with the
        // way back to this page, rather than leaving the page to look live.
        if (res.status === 401 || res.status === 404) clearInterval(timer);
        if (res.status === 401) stopped();
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
