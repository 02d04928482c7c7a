// The reading chart names the reading nearest to the pointer, on hover with a mouse and on a tap with
// a finger, above the chart and with a line through its points. Without script each point's title
// does the same on hover, and the table below the chart lists the latest readings. The listeners sit
// on the document, so a chart drawn again with new readings (live.js) works the same.
"use strict";
(function () {
  var active = null;

  function show(event) {
    var svg = event.target && event.target.closest ? event.target.closest("svg.reading-chart") : null;
    if (!svg) return;
    var readout = document.getElementById(svg.getAttribute("data-readout"));
    var marker = svg.querySelector(".hover-marker");
    var readings = svg.querySelectorAll("g.reading");
    var ctm = svg.getScreenCTM();
    if (!readout || !marker || readings.length === 0 || !ctm) return;
    var point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var x = point.matrixTransform(ctm.inverse()).x;
    var best = 0;
    var xs = Array.prototype.map.call(readings, function (g) { return Number(g.getAttribute("data-x")); });
    for (var i = 1; i < xs.length; i++) if (Math.abs(xs[i] - x) < Math.abs(xs[best] - x)) best = i;
    if (active) active.classList.remove("active");
    active = readings[best];
    active.classList.add("active");
    marker.setAttribute("x1", xs[best]);
    marker.setAttribute("x2", xs[best]);
    marker.setAttribute("visibility", "visible");
    readout.textContent = active.getAttribute("data-label");
  }

  document.addEventListener("pointermove", show);
  document.addEventListener("pointerdown", show);
})();
