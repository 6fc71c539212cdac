// Pages already seen stay readable when the Wi-Fi drops (issue 21). Network first: while the
// server answers, every page, style and script comes from it as always (never a page kept from
// before); a copy of each is kept on the phone, and shown only when the server cannot be
// reached. Writes (POST) are never touched: they reach the server or fail as they would.
"use strict";

var KEPT = "seen-pages-2";
var MOST = 150; // pages and files kept: a few games' worth; the oldest go first
// The page's modules and the video that keeps a screen on, kept when the worker is installed:
// a module a page loads only when it needs it (the video's, the hand form's) is then there
// offline too. The server writes the list (pages/install.py: every file of static/js/ and
// static/media/).
var AHEAD = [];

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(caches.open(KEPT).then(function (cache) {
    return cache.addAll(AHEAD);
  }).catch(function () { /* kept as they are seen instead */ }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== KEPT; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// What a page is made of, besides the page itself; everything else (the polling of a game's
// state, the preview as one types) goes to the server untouched.
var PARTS = ["style", "script", "image", "manifest", "video"];

function keepable(response) {
  // Exports and backups say no-store: a shared phone's cache is no place for them.
  var control = response.headers.get("Cache-Control") || "";
  // A part of a file (206, the video's) cannot be kept: only whole ones.
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    control.indexOf("no-store") === -1;
}

function keep(request, response) {
  return caches.open(KEPT).then(function (cache) {
    return cache.put(request, response).then(function () { return cache.keys(); })
      .then(function (keys) {
        return Promise.all(keys.slice(0, Math.max(0, keys.length - MOST))
          .map(function (key) { return cache.delete(key); }));
      });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  // "Sign this phone out": what it saw goes too, so that a shared phone shows no game offline.
  if (request.method === "POST" && new URL(request.url).pathname.slice(-11) === "/pin/forget") {
    event.waitUntil(caches.delete(KEPT));
  }
  if (request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.mode !== "navigate" && PARTS.indexOf(request.destination) === -1) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (keepable(response)) event.waitUntil(keep(request, response.clone()));
      return response;
    }, function (offline) {
      return caches.match(request).then(function (kept) {
        if (kept) return kept;
        throw offline; // never seen: the browser says it is offline
      });
    })
  );
});
