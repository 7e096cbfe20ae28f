// The tournament lobby's countdowns (the next level, the end of a break, a scheduled start):
// each <time data-until> (seconds since the epoch, the server's clock) counts down every
// second as m:ss (h:mm:ss past an hour). The rows arrive over the socket with the server's
// time of rendering, which corrects this browser's clock.
(function () {
  "use strict";
  var skew = 0; // the server's clock minus this browser's, in seconds
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function text(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }
  function tick() {
    var now = Date.now() / 1000 + skew;
    document.querySelectorAll("#tournament-rows time.until[data-until]").forEach(function (time) {
      var shown = text(Math.max(0, Math.round(Number(time.dataset.until) - now)));
      if (time.textContent !== shown) time.textContent = shown; // the same text again would still replace the node
    });
  }
  function rendered() {
    var rows = document.getElementById("tournament-rows");
    if (rows && rows.dataset.renderedAt) skew = Number(rows.dataset.renderedAt) - Date.now() / 1000;
    tick();
  }
  document.body.addEventListener("htmx:wsAfterMessage", rendered);
  rendered();
  setInterval(tick, 1000);
})();
