// The hand page's own check of its fairness proof, in this browser with Web Crypto: the same
// checks as verify_hand.py, written again from docs/fair-dealing.md (no code of the room's).
(function () {
  "use strict";

  var section = document.getElementById("fair-deal");
  var button = document.getElementById("verify-proof");
  var result = document.getElementById("verify-result");
  if (!section || !button || !result || !section.dataset.proofUrl) return;

  var RANKS = "23456789TJQKA", SUITS = "cdhs";
  var ORDERED = [];
  for (var r = 0; r < RANKS.length; r++) for (var s = 0; s < SUITS.length; s++) ORDERED.push(RANKS[r] + SUITS[s]);
  var encoder = new TextEncoder();

  function hex(bytes) {
    return Array.prototype.map.call(new Uint8Array(bytes), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  function unhex(text) {
    if (typeof text !== "string" || !/^([0-9a-f]{2})*$/.test(text)) throw new Error("not hexadecimal: " + text);
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
    return out;
  }
  function concat() {
    var parts = Array.prototype.map.call(arguments, function (p) { return typeof p === "string" ? encoder.encode(p) : new Uint8Array(p); });
    var length = parts.reduce(function (n, p) { return n + p.length; }, 0);
    var out = new Uint8Array(length), at = 0;
    parts.forEach(function (p) { out.set(p, at); at += p.length; });
    return out;
  }
  function sha256(data) { return crypto.subtle.digest("SHA-256", data).then(function (d) { return new Uint8Array(d); }); }
  function hmac(key, data) {
    return crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then(function (k) { return crypto.subtle.sign("HMAC", k, data); })
      .then(function (d) { return new Uint8Array(d); });
  }
  function leaf(position, card, salt) {
    return sha256(concat([0], "omaha-room/card/v1", [position], card, salt));
  }
  function node(left, right) { return sha256(concat([1], left, right)); }

  async function treeRoot(leaves) {
    if (leaves.length === 1) return leaves[0];
    var split = 1;
    while (split * 2 < leaves.length) split *= 2;
    return node(await treeRoot(leaves.slice(0, split)), await treeRoot(leaves.slice(split)));
  }
  async function rootFromPath(hash, index, size, path) {  // RFC 9162 2.1.3.2
    if (index >= size) return null;
    var fn = index, sn = size - 1;
    for (var i = 0; i < path.length; i++) {
      if (sn === 0) return null;
      if ((fn & 1) || fn === sn) {
        hash = await node(path[i], hash);
        while (!(fn & 1) && fn !== 0) { fn >>= 1; sn >>= 1; }
      } else {
        hash = await node(hash, path[i]);
      }
      fn >>= 1; sn >>= 1;
    }
    return sn === 0 ? hash : null;
  }
  function expectedPosition(seenAs, order) {
    var n = order.length;
    if (seenAs.kind === "hole") return seenAs.card_index * n + order.indexOf(seenAs.seat);
    var i = seenAs.board_index;
    return 4 * n + (i < 3 ? 1 : i - 1) + i;
  }
  async function derive(seed, contributions) {
    var sorted = contributions.slice().sort(function (a, b) { return a.seat - b.seat; });
    var material = concat(seed);
    sorted.forEach(function (c) { material = concat(material, [c.seat], unhex(c.value)); });
    var key = await hmac(encoder.encode("omaha-room/deal/v1"), material);
    var buffer = new Uint8Array(0), counter = 0, at = 0;
    async function nextUint32() {
      if (at + 4 > buffer.length) {
        var block = await hmac(key, concat("omaha-room/shuffle/v1", [counter >>> 24, (counter >>> 16) & 255, (counter >>> 8) & 255, counter & 255]));
        buffer = concat(buffer.slice(at), block); at = 0; counter++;
      }
      var v = ((buffer[at] * 16777216) + (buffer[at + 1] << 16) + (buffer[at + 2] << 8) + buffer[at + 3]);
      at += 4;
      return v;
    }
    var deck = ORDERED.slice();
    for (var i = 51; i > 0; i--) {
      var bound = i + 1, limit = 4294967296 - (4294967296 % bound), v;
      do { v = await nextUint32(); } while (v >= limit);
      var j = v % bound, t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    var salts = [];
    for (var p = 0; p < 52; p++) salts.push(await hmac(key, concat("omaha-room/salt/v1", [p])));
    return { deck: deck, salts: salts };
  }

  async function verify(proof) {
    var failures = [], checked = 0;
    var root = hex(unhex(proof.merkle_root));
    for (var k = 0; k < proof.cards.length; k++) {
      var card = proof.cards[k];
      var name = card.card + " (position " + card.position + ")";
      if (card.position !== expectedPosition(card.seen_as, proof.dealing_order)) failures.push(name + ": not where the dealing order puts it");
      var reached = await rootFromPath(await leaf(card.position, card.card, unhex(card.salt)), card.position, 52, card.path.map(unhex));
      if (!reached || hex(reached) !== root) failures.push(name + ": does not lead to the Merkle root");
      else checked++;
    }
    var reveal = proof.full_reveal;
    if (reveal) {
      var seed = unhex(reveal.server_seed);
      if (hex(await sha256(concat("omaha-room/seed/v1", [0], seed))) !== proof.seed_commitment) failures.push("the server seed does not match its commitment");
      for (var c = 0; c < reveal.contributions.length; c++) {
        var each = reveal.contributions[c];
        var standIn = hex(await hmac(seed, concat("omaha-room/stand-in/v1", [each.seat])));
        if (each.source === "server" && each.value !== standIn) failures.push("seat " + each.seat + ": the server's stand-in value is not the one the seed fixes");
      }
      var derived = await derive(seed, reveal.contributions);
      var leaves = [];
      for (var p = 0; p < 52; p++) leaves.push(await leaf(p, derived.deck[p], derived.salts[p]));
      if (hex(await treeRoot(leaves)) !== root) failures.push("the deck derived from the seeds does not give the Merkle root");
      proof.cards.forEach(function (c) { if (derived.deck[c.position] !== c.card) failures.push(c.card + ": the derived deck has " + derived.deck[c.position]); });
    }
    var own = proof.own_contribution, sentByThisBrowser = null;
    try {
      sentByThisBrowser = JSON.parse(localStorage.getItem("omaha.contributions") || "[]")
        .filter(function (each) { return each.commitment === proof.seed_commitment; })[0] || null;
    } catch (error) { sentByThisBrowser = null; }
    var ownUsed = false;
    if (own && sentByThisBrowser) {
      if (own.source === "player" && own.value === sentByThisBrowser.value) ownUsed = true;
      else failures.push(section.dataset.ownNotUsed);
    }
    return { failures: failures, checked: checked, full: Boolean(reveal), ownUsed: ownUsed };
  }

  button.addEventListener("click", function () {
    result.className = "verify-result";
    result.textContent = section.dataset.checking || "…";
    if (!window.crypto || !crypto.subtle) {
      result.textContent = section.dataset.noCrypto;
      return;
    }
    fetch(section.dataset.proofUrl, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(verify)
      .then(function (outcome) {
        if (outcome.failures.length) {
          result.className = "verify-result lost";
          result.textContent = section.dataset.failed + " " + outcome.failures.join("; ");
        } else {
          result.className = "verify-result won";
          result.textContent = section.dataset.verified.replace("%(count)s", outcome.checked) +
            (outcome.full ? " " + section.dataset.verifiedFull : "") +
            (outcome.ownUsed ? " " + section.dataset.ownUsed : "");
        }
        result.dataset.outcome = outcome.failures.length ? "failed" : "verified";
      })
      .catch(function (error) {
        result.className = "verify-result lost";
        result.dataset.outcome = "failed";
        result.textContent = section.dataset.failed + " " + error.message;
      });
  });
})();
