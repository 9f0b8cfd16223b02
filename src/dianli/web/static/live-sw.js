/* The run sheet's service worker (scope /live/): keeps the sheet, its files and the music it played, so
   that a sheet once opened opens and runs with the network gone. Version __VERSION__. */
'use strict';
var SHELL_CACHE = 'dianli-live-shell-__VERSION__';
var PAGES_CACHE = 'dianli-live-pages';
var AUDIO_CACHE = 'dianli-live-audio';
var SHELL = __SHELL__;

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (c) { return c.addAll(SHELL); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) {
      return k.indexOf('dianli-live-shell-') === 0 && k !== SHELL_CACHE;
    }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

/* A sheet is the same page for every role (the role is read by the page): one cache entry per ceremony. */
function pageKey(url) {
  var u = new URL(url);
  u.searchParams.delete('role');
  u.searchParams.sort();
  return u.origin + u.pathname + '?' + u.searchParams.toString();
}

function networkFirst(request, cacheName, key) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(cacheName).then(function (c) { c.put(key, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(cacheName).then(function (c) { return c.match(key); }).then(function (hit) {
      return hit || caches.match(new URL(key).pathname);  // the start page is in the shell
    }).then(function (hit) {
      return hit || new Response('offline, and this page was not opened before on this device',
        { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    });
  });
}

function cacheFirst(request, cacheName) {
  return caches.open(cacheName).then(function (c) {
    return c.match(request, { ignoreVary: true }).then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (response) {
        if (response.ok) c.put(request, response.clone());
        return response;
      });
    });
  });
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === '/live/sw.js' || /\/ws$/.test(url.pathname)) return;
  if (/^\/music\/[^/]+\/audio\.ogg$/.test(url.pathname)) {
    event.respondWith(cacheFirst(request, AUDIO_CACHE));
  } else if (url.pathname.indexOf('/live/') === 0 && request.mode === 'navigate') {
    event.respondWith(networkFirst(request, PAGES_CACHE, pageKey(request.url)));
  } else if (SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(url.pathname).then(function (hit) {
      return hit || fetch(request);
    }));
  } else if (url.pathname.indexOf('/live/') === 0) {
    event.respondWith(networkFirst(request, PAGES_CACHE, pageKey(request.url)));
  }
});
