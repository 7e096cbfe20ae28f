// An alert for the player on whatever page is open (the room-alert fragment pushed to every
// socket of theirs, e.g. "your tournament has started" with a link to their table): the turn
// cue of the table page, from the same preferences (table.js: "Sound on my turn", "Notify me on
// my turn", kept in this browser): the title flashes, the sound plays, a notification shows
// when the page is hidden; the alert itself is a live region.
(function () {
  "use strict";
  var seen = {};
  var flashTimer = null;
  function cue(alert) {
    var key = alert.dataset.alert;
    if (!key || seen[key]) return;
    seen[key] = true;
    var title = alert.dataset.title;
    var baseTitle = document.title;
    if (flashTimer !== null) clearInterval(flashTimer);
    var flashes = 0;
    document.title = title;
    flashTimer = setInterval(function () {
      flashes += 1;
      document.title = flashes % 2 ? baseTitle : title;
      if (flashes >= 20 || (flashes % 2 && !document.hidden)) {
        clearInterval(flashTimer);
        flashTimer = null;
        document.title = baseTitle;
      }
    }, 1000);
    if (localStorage.getItem("omaha.turnSound") === "1" && alert.dataset.sound) {
      var playing = new Audio(alert.dataset.sound).play();
      if (playing && playing.catch) playing.catch(function () {}); // a browser may refuse before a click
    }
    if (localStorage.getItem("omaha.turnNotify") === "1" && document.hidden &&
        window.Notification && Notification.permission === "granted") {
      var note = new Notification(title, { tag: key }); // one notification for all the player's tabs
      note.onclick = function () {
        window.focus();
        if (alert.dataset.href) window.location.href = alert.dataset.href;
      };
    }
    document.documentElement.dataset.lastAlert = key; // for the browser tests
  }
  function check() {
    var alert = document.getElementById("room-alert");
    if (alert && alert.dataset.alert) cue(alert);
  }
  document.body.addEventListener("htmx:wsAfterMessage", check);
  check(); // shown with the page (the registration that started the tournament)
})();
