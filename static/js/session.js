// A websocket closed because its session ended (log-out, password change, deactivation):
// reload, so the page shows whoever is logged in now. The code is SESSION_ENDED_CLOSE_CODE
// of accounts/socket_sessions.py.
(function () {
  "use strict";
  var SESSION_ENDED = 4401;
  document.body.addEventListener("htmx:wsClose", function (event) {
    var close = event.detail && event.detail.event;
    if (close && close.code === SESSION_ENDED) window.location.reload();
  });
})();
