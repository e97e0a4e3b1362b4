// "Użyj mojej lokalizacji": the browser's position into the form's `near` field, then the search by distance.
// The page works without it: `near` can be typed, and the city search needs no script.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var button = document.getElementById("locate");
  var field = document.getElementById("near");
  if (!button || !field || !navigator.geolocation) {
    if (button) button.hidden = true;
    return;
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    button.disabled = true;
    navigator.geolocation.getCurrentPosition(
      function (position) {
        field.value = position.coords.latitude.toFixed(5) + "," + position.coords.longitude.toFixed(5);
        field.form.submit();
      },
      function () {
        button.disabled = false;
        button.textContent = "Nie udało się ustalić lokalizacji";
      },
      { timeout: 10000 }
    );
  });
});
