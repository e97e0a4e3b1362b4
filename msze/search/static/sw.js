// The search app's service worker (served as /sw.js, scope "/"): the style and scripts from the cache, and
// the last near-now answer kept so that, offline, the phone shows it again, marked with the time it was
// fetched. Everything else goes to the network as usual.
"use strict";
var SHELL = "msze-shell-v1";
var LAST = "msze-last-answer-v1";
var LAST_KEY = "/ostatnia-odpowiedz";

self.addEventListener("install", function (event) {
  var files = ["/static/style.css", "/static/near.js", "/static/map.js"];
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(files); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function isAnswer(url) {
  return url.pathname === "/" && url.searchParams.has("when");
}

function saved(response) {
  // the answer as it came, with the time it came at
  return response.clone().text().then(function (body) {
    var headers = { "Content-Type": "text/html; charset=utf-8", "X-Msze-Saved": new Date().toISOString() };
    return caches.open(LAST).then(function (cache) {
      return cache.put(LAST_KEY, new Response(body, { headers: headers }));
    });
  });
}

function offlineAnswer() {
  return caches.open(LAST).then(function (cache) {
    return cache.match(LAST_KEY);
  }).then(function (last) {
    if (!last) {
      var page = "<!doctype html><html lang=pl><meta charset=utf-8><title>Bez połączenia</title>" +
        "<p>Bez połączenia z internetem i bez zapisanej odpowiedzi.</p>";
      return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
    var when = new Date(last.headers.get("X-Msze-Saved"));
    var stamp = when.toLocaleString("pl-PL", {
      timeZone: "Europe/Warsaw", hour: "2-digit", minute: "2-digit", day: "numeric", month: "long",
    });
    return last.text().then(function (body) {
      var note = '<p class="offline" role="status">Bez połączenia: ostatnia odpowiedź, pobrana ' + stamp +
        ". Godziny mogły minąć.</p>";
      return new Response(body.replace("<main>", "<main>" + note), { headers: last.headers });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && isAnswer(url)) event.waitUntil(saved(response));
        return response;
      }).catch(offlineAnswer)
    );
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      fetch(request).catch(function () { return caches.match(request); })
    );
  }
});
