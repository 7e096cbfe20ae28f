// The table page's few client-side touches. Everything else arrives as HTML over the websocket.
(function () {
  "use strict";

  var page = document.getElementById("table-page");
  if (!page) return;

  // --- Four-colour deck: a display preference kept in this browser only.
  var DECK_KEY = "omaha.fourColourDeck";
  var deckBox = document.getElementById("four-colour-deck");
  function applyDeck(on) {
    document.documentElement.classList.toggle("four-colour", on);
    deckBox.checked = on;
  }
  applyDeck(localStorage.getItem(DECK_KEY) === "1");
  deckBox.addEventListener("change", function () {
    localStorage.setItem(DECK_KEY, deckBox.checked ? "1" : "0");
    applyDeck(deckBox.checked);
  });

  // --- Countdown (RULES 6.1): the server sends the time left; shown only in its last stretch.
  var deadline = null;
  function startCountdown() {
    var clock = page.querySelector(".countdown[data-remaining-ms]");
    deadline = clock ? Date.now() + Number(clock.dataset.remainingMs) : null;
    tick();
  }
  function tick() {
    var clock = page.querySelector(".countdown[data-remaining-ms]");
    if (!clock || deadline === null) return;
    var left = Math.max(0, deadline - Date.now());
    clock.classList.toggle("waiting", left > Number(clock.dataset.countdownSeconds) * 1000);
    clock.querySelector(".countdown-seconds").textContent = Math.ceil(left / 1000);
  }
  setInterval(tick, 250);

  // --- Pre-action boxes: ticked while waiting, played when the turn arrives.
  var preActions = document.getElementById("pre-actions");
  var preBoxes = preActions.querySelectorAll("input[data-pre-action]");
  var lastHand = null;
  var playedSequence = null;
  function ticked(name) {
    var box = preActions.querySelector('[data-pre-action="' + name + '"]');
    return box.checked;
  }
  function clearPreActions() {
    preBoxes.forEach(function (box) { box.checked = false; });
  }
  function submitAction(kind) {
    var button = document.querySelector('#controls button[data-act="' + kind + '"]');
    if (!button) return false;
    button.form.requestSubmit();
    return true;
  }
  function onControls() {
    var controls = document.getElementById("controls");
    if (!controls) return;
    if (controls.dataset.hand !== lastHand) {
      lastHand = controls.dataset.hand;
      clearPreActions();
    }
    var acting = controls.dataset.sequence !== undefined;
    preActions.hidden = acting || controls.dataset.inHand !== "yes";
    if (!acting || playedSequence === controls.dataset.sequence) return;
    var played = false;
    if (ticked("check-fold")) played = submitAction("check") || submitAction("fold");
    else if (ticked("call-any")) played = submitAction("call") || submitAction("check");
    if (played) {
      playedSequence = controls.dataset.sequence;
      clearPreActions();
    }
  }

  // --- Clicks: amount shortcuts fill the box; "Sit here" picks the seat in the sit-down form.
  page.addEventListener("click", function (event) {
    var preset = event.target.closest("button[data-amount]");
    if (preset) {
      preset.form.querySelector('input[name="amount"]').value = preset.dataset.amount;
      return;
    }
    var sitHere = event.target.closest("button[data-sit]");
    var sitForm = document.getElementById("sit-form");
    if (sitHere && sitForm) {
      sitForm.querySelector('select[name="seat_number"]').value = sitHere.dataset.sit;
      sitForm.querySelector('input[name="buy_in"]').focus();
    }
  });

  // A form with data-confirm asks first (the websocket extension ignores hx-confirm).
  page.addEventListener("htmx:wsConfigSend", function (event) {
    var form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // The newest line of the hand log stays in view.
  function scrollLog() {
    var lines = page.querySelector("#hand-log .log-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }

  // --- Fair dealing: this browser's random value for the next hand's deck, sent once per
  // published seed commitment (docs/fair-dealing.md). The seat panel carries the form only
  // for a seated player; the value never comes back from the server.
  // Only once the socket is open: before htmx has taken the form over, a submit would be an
  // ordinary form submission that leaves the page.
  var contributedFor = null;
  var socketOpen = false;
  page.addEventListener("htmx:wsOpen", function () {
    socketOpen = true;
    contribute();
  });
  page.addEventListener("htmx:wsClose", function () { socketOpen = false; });
  // The hand page compares what this browser sent with what the hand used (verify_hand.js).
  var SENT_KEY = "omaha.contributions";
  function remember(commitment, value) {
    try {
      var sent = JSON.parse(localStorage.getItem(SENT_KEY) || "[]");
      sent.push({ commitment: commitment, value: value });
      localStorage.setItem(SENT_KEY, JSON.stringify(sent.slice(-200)));
    } catch (error) { /* storage full or refused: the check on the hand page is skipped */ }
  }
  function contribute() {
    var form = document.getElementById("contribution-form");
    if (!socketOpen || !form || !window.crypto || !window.crypto.getRandomValues) return;
    var commitment = form.dataset.seedCommitment;
    if (!commitment || commitment === contributedFor) return;
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    form.querySelector('input[name="value"]').value = Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
    contributedFor = commitment;
    remember(commitment, form.querySelector('input[name="value"]').value);
    form.requestSubmit();
  }

  function afterUpdate() {
    startCountdown();
    onControls();
    scrollLog();
    contribute();
  }
  page.addEventListener("htmx:wsAfterMessage", afterUpdate);
  afterUpdate();
})();
