// Every page: the header's chips follow a table's buy-in, top-up and cash-out, and the screen
// stays awake while the player is seated (a phone that sleeps on its own turn times out).
(function () {
  "use strict";
  var seatSignature = null;

  function seated() {
    return document.querySelector("#seat-panel .seat-summary") !== null;
  }

  function signature() {
    var summary = document.querySelector("#seat-panel .seat-summary");
    return (summary ? summary.textContent : "") + "|" + (document.getElementById("sit-form") ? "free" : "");
  }

  // The header's chips again, from the server, after the seat changed.
  function refreshChips() {
    var chips = document.getElementById("header-chips");
    if (!chips || !window.fetch) return;
    fetch(chips.dataset.url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var current = document.getElementById("header-chips");
        if (html && current) current.outerHTML = html.trim();
      })
      .catch(function () {});
  }

  // Screen Wake Lock where the browser has it; taken again when the page is shown again.
  var wakeLock = null;
  function keepAwake() {
    var wanted = seated() && document.visibilityState === "visible";
    if (wanted && !wakeLock && navigator.wakeLock) {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }).catch(function () {});
    } else if (!wanted && wakeLock) {
      wakeLock.release().catch(function () {});
      wakeLock = null;
    }
  }
  document.addEventListener("visibilitychange", keepAwake);

  // The player's turn came: their cards and buttons into view, if they are not (a phone
  // scrolled down to the chat or the seat panel).
  // The frames that follow the turn's own (the log, the chat) may move it again: for a
  // moment after the turn came it is kept in view, then the player scrolls as they like.
  var shownTurn = null;
  var turnCameAt = 0;
  function showTurn() {
    var controls = document.querySelector("#controls[data-sequence]");
    var turn = controls && controls.querySelector(".your-turn") ? controls.dataset.sequence : null;
    if (turn && turn !== shownTurn) turnCameAt = Date.now();
    shownTurn = turn;
    if (!turn || Date.now() - turnCameAt > 2000) return;
    var area = controls.closest(".action-area") || controls;
    var box = area.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      area.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "end" });
    }
  }

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    showTurn();
    var now = signature();
    if (seatSignature !== null && now !== seatSignature) refreshChips();
    seatSignature = now;
    keepAwake();
  });
  if (document.getElementById("seat-panel")) seatSignature = signature();
  showTurn();
  keepAwake();
})();
