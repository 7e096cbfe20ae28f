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

  // --- Preferences kept in this browser only: a checkbox and its key.
  function keptChoice(id, key, onChange) {
    var box = document.getElementById(id);
    box.checked = localStorage.getItem(key) === "1";
    box.addEventListener("change", function () {
      localStorage.setItem(key, box.checked ? "1" : "0");
      if (onChange) onChange(box.checked);
    });
    return box;
  }
  var soundBox = keptChoice("turn-sound-choice", "omaha.turnSound");
  var notifyBox = keptChoice("turn-notify-choice", "omaha.turnNotify", function (on) {
    // Asked only when the player ticks the box.
    if (on && window.Notification && Notification.permission === "default") Notification.requestPermission();
  });
  var foldConfirmBox = keptChoice("fold-confirm-choice", "omaha.foldConfirm");
  var bigBetConfirmBox = keptChoice("big-bet-confirm-choice", "omaha.bigBetConfirm"); // off unless ticked
  var amountSetByKey = false;
  if (localStorage.getItem("omaha.foldConfirm") === null) foldConfirmBox.checked = true; // on unless turned off

  // --- The turn cue: the title flashes, an optional sound and notification, focus to the
  // controls, and the announcer (a live region that stays in the page) says it.
  var baseTitle = document.title;
  var turnTitle = page.dataset.turnTitle;
  var flashTimer = null;
  var announcer = document.getElementById("turn-announcer");
  function startTurnCue(controls) {
    if (flashTimer === null) {
      var showing = true;
      document.title = turnTitle;
      flashTimer = setInterval(function () {
        showing = !showing;
        document.title = showing ? turnTitle : baseTitle;
      }, 1000);
    }
    var said = controls.querySelector(".your-turn");
    announcer.textContent = said ? said.textContent : turnTitle;
    if (soundBox.checked) {
      var sound = document.getElementById("turn-sound");
      sound.currentTime = 0;
      var playing = sound.play();
      if (playing && playing.catch) playing.catch(function () {}); // a browser may refuse before a click
    }
    if (notifyBox.checked && document.hidden && window.Notification && Notification.permission === "granted") {
      new Notification(turnTitle);
    }
    if (!typing(document.activeElement)) {
      var first = controls.querySelector(".action-buttons button[data-act]");
      if (first) first.focus();
    }
  }
  function stopTurnCue() {
    if (flashTimer !== null) clearInterval(flashTimer);
    flashTimer = null;
    document.title = baseTitle;
  }
  function typing(element) {
    if (!element) return false;
    var tag = element.tagName;
    return tag === "TEXTAREA" || tag === "SELECT" || element.isContentEditable ||
      (tag === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(element.type));
  }

  // --- Keyboard play: never while typing (chat, the amount box, any form field).
  function clickAct(kind) {
    var button = document.querySelector('#controls button[data-act="' + kind + '"]');
    if (!button) return false;
    button.click();
    return true;
  }
  function preset(label) {
    var buttons = document.querySelectorAll("#controls .preset");
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].textContent.trim().indexOf(label) === 0) {
        buttons[i].click();
        amountSetByKey = true;
        var amount = document.querySelector('#controls input[name="amount"]');
        if (amount) amount.focus();
        return true;
      }
    }
    return false;
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (!document.querySelector("#controls[data-sequence]")) return;
    var key = event.key.toLowerCase();
    var done = false;
    if (key === "f") done = clickAct("fold");
    else if (key === "c") done = clickAct("check") || clickAct("call");
    else if (key === "b" || key === "r") {
      var amount = document.querySelector('#controls input[name="amount"]');
      if (amount) {
        amount.focus();
        amount.select();
        done = true;
      } else {
        var wager = document.querySelector("#controls .wager-form button[data-act]");
        if (wager) wager.focus(); // one fixed amount (Limit): Enter confirms it
        done = Boolean(wager);
      }
    } else if (key === "p") done = preset("Pot") || preset("All-in");
    else if (key === "m") done = preset("Min");
    if (done) event.preventDefault();
  });

  // --- Guard: folding when checking is free asks first (a preference, on unless turned off).
  page.addEventListener("click", function (event) {
    var fold = event.target.closest('#controls button[data-act="fold"]');
    var controls = document.getElementById("controls");
    if (!fold || !foldConfirmBox.checked || controls.dataset.canCheck !== "yes") return;
    if (!window.confirm(page.dataset.foldConfirm || "You could check for free. Fold anyway?")) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // --- Guard: a wager of more than half the stack, its amount set by a key, asks once (a
  // preference, off unless ticked). Caught before the websocket extension sends the form.
  page.addEventListener("submit", function (event) {
    var form = event.target.closest("#controls .wager-form");
    if (!form || !amountSetByKey || !bigBetConfirmBox.checked) return;
    amountSetByKey = false; // once
    var controls = document.getElementById("controls");
    var amount = form.querySelector('input[name="amount"]');
    var putIn = Number(amount ? amount.value : 0) - Number(controls.dataset.bet || 0);
    if (putIn * 2 > Number(controls.dataset.stack || 0) && !window.confirm(page.dataset.bigBetConfirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  page.addEventListener("input", function (event) {
    if (event.target.name === "amount") amountSetByKey = false; // typed by hand
  });

  // A ticking number is written only when it changes: writing textContent replaces the text
  // node even with the same text, and the browser lays the page out again (four times a second).
  function show(element, value) {
    var text = String(value);
    if (element && element.textContent !== text) element.textContent = text;
  }

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
    // The time bank (a second countdown, after the turn's own) is shown whole.
    var bank = clock.classList.contains("time-bank");
    clock.classList.toggle("waiting", !bank && left > Number(clock.dataset.countdownSeconds) * 1000);
    show(clock.querySelector(".countdown-seconds"), Math.ceil(left / 1000));
  }
  setInterval(tick, 250);

  // --- Protected all-ins left (RULES 6.5): each used one comes back 24 hours after it was used.
  function countAllowance() {
    var allowance = page.querySelector(".protected-all-ins[data-returns-at]");
    if (!allowance) return;
    var now = Date.now();
    var away = allowance.dataset.returnsAt.split(" ").filter(function (at) { return at && Number(at) > now; });
    show(allowance.querySelector(".protected-left"), Math.max(0, Number(allowance.dataset.limit) - away.length));
  }
  setInterval(countAllowance, 1000);

  // --- Pre-action boxes: ticked while waiting, played when the turn arrives.
  var preActions = document.getElementById("pre-actions");
  var preBoxes = preActions.querySelectorAll("input[data-pre-action]");
  var lastHand = null;
  var playedSequence = null;
  var cuedSequence = null;
  function willPreAct() {
    return ticked("check-fold") || ticked("call-any");
  }
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
    if (!acting) stopTurnCue();
    else if (cuedSequence !== controls.dataset.sequence) {
      cuedSequence = controls.dataset.sequence;
      if (!willPreAct()) startTurnCue(controls);
    }
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

  // --- Chat: the box empties once its message is sent; dealer lines can be hidden (kept in this
  // browser); a player's own lines offer no "Mute"; the newest line stays in view.
  var chatForm = document.getElementById("chat-form");
  var DEALER_KEY = "omaha.chatDealerLines";
  var dealerBox = document.getElementById("chat-dealer-lines");
  function applyDealerLines(on) {
    page.classList.toggle("hide-dealer-lines", !on);
    dealerBox.checked = on;
  }
  applyDealerLines(localStorage.getItem(DEALER_KEY) !== "0");
  dealerBox.addEventListener("change", function () {
    localStorage.setItem(DEALER_KEY, dealerBox.checked ? "1" : "0");
    applyDealerLines(dealerBox.checked);
  });
  page.addEventListener("htmx:wsAfterSend", function (event) {
    if (chatForm && event.target === chatForm) chatForm.reset();
  });
  function tidyChat() {
    var lines = document.getElementById("chat-lines");
    if (!lines) return;
    if (chatForm) {
      lines.querySelectorAll('[data-author="' + chatForm.dataset.userId + '"] .mute-form').forEach(function (form) {
        form.remove();
      });
    } else {
      lines.querySelectorAll(".mute-form").forEach(function (form) { form.remove(); });
    }
    lines.scrollTop = lines.scrollHeight;
  }

  // The newest line of the hand log stays in view, and the log's announcer says it.
  var logAnnouncer = document.getElementById("log-announcer");
  var lastLogLine = null;
  function scrollLog() {
    var lines = page.querySelector("#hand-log .log-lines");
    if (!lines) return;
    lines.scrollTop = lines.scrollHeight;
    var newest = lines.querySelector("li:last-child");
    var text = newest ? newest.textContent.replace(/\s+/g, " ").trim() : "";
    if (text && text !== lastLogLine) {
      lastLogLine = text;
      logAnnouncer.textContent = text;
    }
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
    tidyChat();
    contribute();
  }
  page.addEventListener("htmx:wsAfterMessage", afterUpdate);
  afterUpdate();
})();
