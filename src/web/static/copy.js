// Copy buttons of the settings page. Without script the key stays visible and selectable; the
// buttons are hidden until this file shows them.
"use strict";
document.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
  var target = document.getElementById(button.getAttribute("data-copy"));
  if (!target) return;
  var status = document.querySelector(".copy-status");
  button.hidden = false;
  button.addEventListener("click", function () {
    var text = target.value !== undefined ? target.value : target.textContent;
    var done = function () { if (status) status.textContent = "Copied."; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(target); done(); });
    } else {
      fallback(target);
      done();
    }
  });
});

// Older browsers and plain-HTTP pages have no clipboard API: select the text and use the old command.
function fallback(target) {
  if (target.select) {
    target.select();
  } else {
    var range = document.createRange();
    range.selectNodeContents(target);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  try { document.execCommand("copy"); } catch (e) { /* the text stays selected for the user to copy */ }
}
