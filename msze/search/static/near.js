// The phone's extras; every page works without them (a place is typed, the form is submitted):
// - "Msze w pobliżu — teraz" with no place typed asks the browser for its position and sends it as `near`;
// - "Użyj mojej lokalizacji" puts the position into the full form's `near` field and searches by distance;
// - suggestions of places (/api/miejsca) in the <datalist> while a place is typed.
"use strict";

function locate(onFound, onFailed) {
  navigator.geolocation.getCurrentPosition(
    function (position) {
      onFound(position.coords.latitude.toFixed(5) + "," + position.coords.longitude.toFixed(5));
    },
    onFailed,
    { timeout: 10000 }
  );
}

function nearNow() {
  var button = document.getElementById("near-now");
  var here = document.getElementById("here");
  var place = document.getElementById("place");
  if (!button || !here || !place || !navigator.geolocation) return;
  document.getElementById("now-hint").hidden = false;
  button.form.addEventListener("submit", function (event) {
    if (place.value.trim() || here.value) return; // a typed place, or the position found already
    event.preventDefault();
    button.disabled = true;
    locate(
      function (near) {
        here.value = near;
        button.form.submit();
      },
      function () {
        button.disabled = false;
        button.textContent = "Nie udało się ustalić lokalizacji: wpisz miejsce";
        place.focus();
      }
    );
  });
}

function locateButton() {
  var button = document.getElementById("locate");
  var field = document.getElementById("near");
  if (!button || !field || !navigator.geolocation) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    button.disabled = true;
    locate(
      function (near) {
        field.value = near;
        var place = document.getElementById("f-place");
        if (place) place.value = ""; // a typed place would win over the position
        field.form.submit();
      },
      function () {
        button.disabled = false;
        button.textContent = "Nie udało się ustalić lokalizacji";
      }
    );
  });
}

function suggestions() {
  var list = document.getElementById("place-list");
  if (!list || !window.fetch) return;
  var timer = null;
  var asked = "";
  function ask(text) {
    if (text.length < 2 || text === asked) return;
    asked = text;
    fetch(list.dataset.url + "?q=" + encodeURIComponent(text))
      .then(function (response) { return response.ok ? response.json() : { places: [] }; })
      .then(function (body) {
        if (asked !== text) return;
        list.replaceChildren.apply(list, body.places.map(function (p) {
          var option = document.createElement("option");
          option.value = p.label; // text, never HTML
          option.label = p.kind + " · parafii: " + p.parishes;
          return option;
        }));
      })
      .catch(function () {});
  }
  document.querySelectorAll("input[list=place-list]").forEach(function (input) {
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { ask(input.value.trim()); }, 150);
    });
  });
}

document.addEventListener("DOMContentLoaded", function () {
  nearNow();
  locateButton();
  suggestions();
});

// Installable, and the last answer offline (static/sw.js); a browser without service workers loses nothing.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    var worker = document.body.dataset.sw;
    if (worker) navigator.serviceWorker.register(worker).catch(function () {});
  });
}
