// The invite page: the code travels after "#" (never sent to the server, never in a log or Referer); it is
// moved into the form and taken out of the address bar and the history.
(function () {
  var match = /^#kod=([A-Za-z0-9_-]{1,100})$/.exec(window.location.hash);
  if (!match) return;
  document.addEventListener("DOMContentLoaded", function () {
    document.getElementById("code").value = match[1];
    history.replaceState(null, "", window.location.pathname);
  });
})();
