// The annotator page: fetches JSON, builds the text with DOM text nodes (page text is never parsed as HTML).
(function () {
  "use strict";

  var READ_KEY = "msze_instructions_read";
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var $ = function (id) { return document.getElementById(id); };
  var itemBox = $("item"), source = $("source"), statusBox = $("status"), previous = $("previous");
  var progress = $("progress"), yesBtn = $("btn-yes"), noBtn = $("btn-no"), undoBtn = $("btn-undo");
  var help = $("help"), helpBody = $("help-body"), closeBtn = $("btn-close-help"), hint = $("help-hint");
  var current = null, canUndo = false, busy = false;

  // Screen facts for the fingerprint (the server only links identities with it, for cheater detection).
  function screenInfo() {
    var tz = "";
    try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { tz = ""; }
    return {
      sw: screen.width, sh: screen.height, cd: screen.colorDepth, dpr: window.devicePixelRatio || 1, tz: tz,
      langs: (navigator.languages || []).join(","), platform: navigator.platform || "",
      cores: navigator.hardwareConcurrency || 0, touch: navigator.maxTouchPoints || 0
    };
  }
  var fp = screenInfo();

  function api(path, payload) {
    var body = Object.assign({ fp: fp }, payload || {});
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          var err = new Error(data.error || ("HTTP " + response.status));
          err.status = response.status;
          throw err;
        }
        return data;
      });
    });
  }

  function setButtons() {
    var hasItem = current !== null;
    yesBtn.disabled = busy || !hasItem;
    noBtn.disabled = busy || !hasItem;
    undoBtn.disabled = busy || !canUndo;
  }

  function render(state) {
    current = state.item;
    canUndo = !!state.can_undo;
    itemBox.textContent = "";
    if (!current) {
      source.textContent = "";
      var done = document.createElement("p");
      done.className = "done";
      done.textContent = "Dziękujemy! Nie ma teraz więcej godzin do oznaczenia.";
      itemBox.appendChild(done);
      previous.hidden = true;
    } else {
      source.textContent = current.source || "";  // null: no web address (a local file)
      if (current.cut_before) { appendCut("… "); }
      itemBox.appendChild(document.createTextNode(current.before));
      var mark = document.createElement("mark");
      mark.id = "hl";
      mark.textContent = current.hour;
      itemBox.appendChild(mark);
      itemBox.appendChild(document.createTextNode(current.after));
      if (current.cut_after) { appendCut(" …"); }
      // Centre the hour inside the text box (the box scrolls, the page keeps its buttons in place).
      itemBox.scrollTop = Math.max(0, mark.offsetTop - (itemBox.clientHeight - mark.offsetHeight) / 2);
      if (current.previous_answer) {
        previous.textContent = "Poprzednia odpowiedź: " + (current.previous_answer === "yes" ? "Tak" : "Nie") +
          ". Wybierz ponownie.";
        previous.hidden = false;
      } else {
        previous.hidden = true;
      }
    }
    progress.textContent = "Twoje odpowiedzi: " + state.answered;
    itemBox.dataset.itemId = current ? String(current.id) : "";
  }

  function appendCut(text) {
    var span = document.createElement("span");
    span.className = "cut";
    span.textContent = text;
    itemBox.appendChild(span);
  }

  function showError(err) {
    var messages = {
      400: "Sesja wygasła albo żądanie było błędne — odśwież stronę.",
      403: "Nie rozpoznano urządzenia — odśwież stronę.",
      409: null,
      429: "Zbyt wiele nowych urządzeń z tego adresu. Spróbuj ponownie za jakiś czas."
    };
    var text = messages[err.status];
    statusBox.textContent = text || ("Błąd: " + err.message + ". Spróbuj ponownie.");
  }

  function act(kind) {
    if (busy) { return; }
    if ((kind === "yes" || kind === "no") && !current) { return; }
    if (kind === "undo" && !canUndo) { return; }
    busy = true;
    setButtons();
    statusBox.textContent = "";
    var request;
    if (kind === "yes" || kind === "no") {
      request = api("/api/answer", { item: current.id, answer: kind });
    } else if (kind === "undo") {
      request = api("/api/undo");
    } else {
      request = api("/api/current");
    }
    return request.then(function (state) {
      render(state);
      if (kind === "yes" || kind === "no") {
        // Keep Tak/Nie under the thumb: always the bottom of the page. Cofnij does not scroll.
        window.scrollTo(0, document.documentElement.scrollHeight);
      }
    }).catch(function (err) {
      if (err.status === 409 && kind !== "load") {
        // Answered already (a double tap, or another tab): just show where this device really is.
        return api("/api/current").then(render).catch(showError);
      }
      showError(err);
    }).then(function () {
      busy = false;
      setButtons();
      document.body.dataset.ready = "1";
    });
  }

  // Instructions: on first visit they can only be closed after scrolling to their end.
  function atEnd() {
    return helpBody.scrollTop + helpBody.clientHeight >= helpBody.scrollHeight - 4;
  }
  function updateClose() {
    if (!closeBtn.disabled) { return; }
    if (atEnd()) {
      closeBtn.disabled = false;
      hint.textContent = "Dziękujemy za przeczytanie.";
    }
  }
  function openHelp(firstVisit) {
    help.hidden = false;
    helpBody.scrollTop = 0;
    closeBtn.disabled = !!firstVisit;
    hint.textContent = firstVisit ? "Przewiń instrukcję do końca, aby ją zamknąć." : "";
    helpBody.focus();
    if (firstVisit) { updateClose(); }
  }
  function closeHelp() {
    if (closeBtn.disabled) { return; }
    help.hidden = true;
    try { localStorage.setItem(READ_KEY, "1"); } catch (e) { /* private mode: shown again next time */ }
  }
  helpBody.addEventListener("scroll", updateClose);
  window.addEventListener("resize", function () { if (!help.hidden) { updateClose(); } });
  closeBtn.addEventListener("click", closeHelp);
  $("btn-help").addEventListener("click", function () { openHelp(false); });

  yesBtn.addEventListener("click", function () { act("yes"); });
  noBtn.addEventListener("click", function () { act("no"); });
  undoBtn.addEventListener("click", function () { act("undo"); });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (!help.hidden) {
      if (event.key === "Escape") { closeHelp(); }
      return;
    }
    var key = event.key.toLowerCase();
    if (key === "t") { act("yes"); } else if (key === "n") { act("no"); } else if (key === "c") { act("undo"); }
  });

  var read = false;
  try { read = localStorage.getItem(READ_KEY) === "1"; } catch (e) { read = false; }
  if (!read) { openHelp(true); }
  act("load");
})();
