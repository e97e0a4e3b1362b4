// "Pokaż na mapie" under the near-now answer: Leaflet (vendored, static/vendor/leaflet) is loaded only when
// asked for, so the answer stays light; the list is the answer and works without any of this. Every text on
// the map is set as text (textContent), never as HTML: parish names come from the internet.
"use strict";

function loadLeaflet(box, done) {
  if (window.L) return done();
  var css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = box.dataset.leafletCss;
  document.head.appendChild(css);
  var script = document.createElement("script");
  script.src = box.dataset.leaflet;
  script.onload = done;
  document.head.appendChild(script);
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
}

function popup(marker) {
  var div = document.createElement("div");
  var link = document.createElement("a");
  link.href = marker.url;
  link.textContent = marker.title;
  div.appendChild(link);
  marker.times.forEach(function (time) {
    var line = document.createElement("div");
    line.textContent = time;
    div.appendChild(line);
  });
  return div;
}

function drawMap(box, points) {
  var element = document.getElementById("map");
  element.hidden = false;
  var map = L.map(element, { attributionControl: true });
  // the attribution control writes HTML: the setting is escaped first
  var credit = '<a href="' + escapeHtml(box.dataset.attributionUrl) + '">' + escapeHtml(box.dataset.attribution) + "</a>";
  L.tileLayer(box.dataset.tiles, { maxZoom: 19, attribution: credit }).addTo(map);
  map.attributionControl.setPrefix(false);
  var bounds = [[points.here.lat, points.here.lng]];
  L.circleMarker([points.here.lat, points.here.lng], { radius: 6, color: "#1d4ed8", className: "here" })
    .addTo(map)
    .bindTooltip(document.createTextNode(points.here.title));
  points.markers.forEach(function (marker) {
    L.circleMarker([marker.lat, marker.lng], { radius: 9, color: "#7a1f2b", className: "church" })
      .addTo(map)
      .bindPopup(popup(marker));
    bounds.push([marker.lat, marker.lng]);
  });
  map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
  element.scrollIntoView({ block: "nearest" });
}

document.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("map-box");
  var data = document.getElementById("map-points");
  var button = document.getElementById("show-map");
  if (!box || !data || !button) return;
  var points = JSON.parse(data.textContent);
  button.hidden = false;
  button.addEventListener("click", function () {
    button.hidden = true;
    loadLeaflet(box, function () { drawMap(box, points); });
  });
});
