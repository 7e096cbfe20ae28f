// The page's websocket comes back by itself, and says so while it is away.
// htmx's websocket extension reconnects on an abnormal closure (1006) and on 1011/1012/1013;
// a server that stops gracefully closes with 1001 ("going away", tables/realtime/graceful_shutdown.py),
// on which the page reconnects here, to another server behind the proxy or the same one
// restarted. The snapshot sent on connect shows whatever happened meanwhile.
(function () {
  "use strict";
  var GOING_AWAY = 1001;
  var SESSION_ENDED = 4401; // session.js reloads the page instead
  var TRY_AGAIN_LATER = 1013; // the server is busy (tables/realtime/admission.py)
  // A socket refused for being busy opens and closes within moments, again at every try: the
  // status stays up, and the busy refusals keep counting, until a socket has stayed open a while.
  var SETTLED_MS = 1500;
  // A busy server refuses a socket after accepting it, and htmx counts its tries again from
  // zero at every open: its count would never grow. The page counts the busy refusals in a
  // row itself, and waits a random time up to a bound that doubles with each ("full jitter"),
  // so a room of refused pages spreads its tries out instead of coming back together.
  var BUSY_BASE_MS = 1000;
  // Longer than the 5 s for a lost server: a busy server is up and asks for patience, and
  // every page that comes back too soon is one more refusal for it to make.
  var BUSY_CAP_MS = 30000;
  // The refusal's frame asks for a least wait (data-retry-after, in seconds: longer the busier
  // the server): the page then waits between that bound's half and the whole of it.
  var RETRY_AFTER = /data-retry-after="(\d+)"/;
  var busyRefusals = 0;
  // A lost server: htmx counts its tries from zero at every open too, so a server that takes
  // the socket and drops it at once (a swamped one) would be tried again within 250 ms, for
  // ever. The page counts the losses before a socket settled in a row itself, and past a few
  // of them waits longer than htmx's 5 s (up to LOST_LONG_CAP_MS): a server back from a
  // restart is reached within seconds, a swamped one is not hammered by every page.
  var unsettledLosses = 0;
  var LOST_CAP_MS = 5000;
  var LOST_LONG_CAP_MS = 30000;
  var LOST_LONG_AFTER = 6; // losses in a row before the waits pass 5 s
  var openedAt = 0;
  var lastCode = null;
  var retryAfterMs = 0;
  htmx.createWebSocket = function (url) {
    var socket = new WebSocket(url, []);
    socket.binaryType = htmx.config.wsBinaryType;
    openedAt = 0;
    socket.addEventListener("open", function () { openedAt = Date.now(); });
    socket.addEventListener("message", function (event) {
      var asked = typeof event.data === "string" && RETRY_AFTER.exec(event.data);
      if (asked) retryAfterMs = Number(asked[1]) * 1000;
    });
    // Registered before the extension's own handler: the delay below sees this close.
    socket.addEventListener("close", function (event) {
      lastCode = event.code;
      if (event.code === TRY_AGAIN_LATER) busyRefusals += 1;
      else if (event.code !== GOING_AWAY && event.code !== SESSION_ENDED) {
        var settled = openedAt && Date.now() - openedAt >= SETTLED_MS;
        unsettledLosses = settled ? 0 : unsettledLosses + 1;
      }
      openedAt = 0;
    });
    return socket;
  };
  htmx.config.wsReconnectDelay = function (retries) {
    if (lastCode === TRY_AGAIN_LATER) {
      var bound = Math.min(BUSY_CAP_MS, BUSY_BASE_MS * Math.pow(2, busyRefusals - 1));
      if (retryAfterMs) {
        bound = Math.max(bound, retryAfterMs);
        retryAfterMs = 0;
        return bound / 2 + Math.random() * bound / 2;
      }
      return Math.random() * bound;
    }
    // A lost server: back off between tries, at most five seconds apart while the losses in a
    // row are few (a restart), longer once they keep coming (a server too busy to keep a socket).
    var lost = Math.max(retries, unsettledLosses);
    var cap = lost < LOST_LONG_AFTER ? LOST_CAP_MS : LOST_LONG_CAP_MS;
    return Math.min(cap, 250 * Math.pow(2, lost)) * (0.5 + Math.random() / 2);
  };
  var status = document.getElementById("connection-status");
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
  // A live list (the lobby's, the tournaments': marked data-keep-unchanged): a part its socket
  // sends again unchanged is left in place. The snapshot a socket sends on connecting repeats
  // the rows the page was served with, and swapping them anyway would make a click whose press
  // and release straddle that frame land on no link: nothing would open.
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail || !detail.fragment || detail.fragment.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (!detail.target.closest("[data-keep-unchanged]")) return;
    var incoming = detail.fragment.firstElementChild;
    if (detail.fragment.childElementCount === 1 && incoming.isEqualNode(detail.target)) detail.shouldSwap = false;
  });
  document.body.addEventListener("htmx:wsOpen", function () {
    clearTimeout(settling);
    settling = setTimeout(function () {
      busyRefusals = 0;
      unsettledLosses = 0;
      if (status) status.hidden = true;
    }, SETTLED_MS);
  });
})();
