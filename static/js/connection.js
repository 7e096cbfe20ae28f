// The page's websocket comes back by itself, and says so while it is away.
// htmx's websocket extension reconnects on an abnormal closure (1006) and on 1011/1012/1013;
// a server that stops gracefully closes with 1001 ("going away", tables/realtime/graceful_shutdown.py),
// on which the page reconnects here, to another server behind the proxy or the same one
// restarted. The snapshot sent on connect shows whatever happened meanwhile.
(function () {
  "use strict";
  var GOING_AWAY = 1001;
  var SESSION_ENDED = 4401; // session.js reloads the page instead
  // Back off between tries, but never wait more than five seconds for a server that is back.
  htmx.config.wsReconnectDelay = function (retries) {
    return Math.min(5000, 250 * Math.pow(2, retries)) * (0.5 + Math.random() / 2);
  };
  var status = document.getElementById("connection-status");
  var TRY_AGAIN_LATER = 1013; // the server is busy (tables/realtime/admission.py)
  // A socket refused for being busy opens and closes within moments, again at every try: the
  // status stays up until a socket has stayed open a while, so it does not flicker away.
  var SETTLED_MS = 1500;
  var settling = null;
  document.body.addEventListener("htmx:wsClose", function (event) {
    var close = event.detail && event.detail.event;
    if (!close || close.code === SESSION_ENDED) return;
    clearTimeout(settling);
    if (status) {
      status.textContent = close.code === TRY_AGAIN_LATER ? status.dataset.busy : status.dataset.lost;
      status.hidden = false;
    }
    if (close.code === GOING_AWAY && event.detail.socketWrapper) {
      var socket = event.detail.socketWrapper;
      setTimeout(function () { socket.reconnect(); }, 200 + Math.random() * 800);
    }
  });
  document.body.addEventListener("htmx:wsOpen", function () {
    clearTimeout(settling);
    settling = setTimeout(function () { if (status) status.hidden = true; }, SETTLED_MS);
  });
})();
