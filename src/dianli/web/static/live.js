/* The live run sheet: one device conducts, the others follow over a WebSocket; works offline once
   opened (service worker /live/sw.js); rehearses the ceremony's timeline at any speed. */
(function () {
  'use strict';
  var OPENED_KEY = 'dianli-live-opened', DEVICE_KEY = 'dianli-live-device', CODE_KEY = 'dianli-live-code';

  // a conduct code in the address (the QR code of dianli serve or of the conducting phone): kept for this
  // tab only, and taken out of the address so that it is neither bookmarked nor shown
  (function () {
    var m = /(?:^#|&)code=([^&]+)/.exec(location.hash);
    if (!m) return;
    try { sessionStorage.setItem(CODE_KEY, decodeURIComponent(m[1])); } catch (e) {}
    history.replaceState(null, '', location.pathname + location.search);
  })();

  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/live/sw.js', { scope: '/live/' }).catch(function () {});
  }

  var list = document.getElementById('opened');
  if (list) { // the start page of the installed app
    var opened = JSON.parse(localStorage.getItem(OPENED_KEY) || '[]');
    opened.forEach(function (o) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = o.url; a.textContent = o.title; li.appendChild(a); list.appendChild(li);
    });
    if (!opened.length) list.innerHTML = '<li>none yet</li>';
    return;
  }

  var dataNode = document.getElementById('live-data');
  if (!dataNode) return;
  var S = JSON.parse(dataNode.textContent);
  var steps = S.steps, total = steps.length;
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);

  // remember this ceremony for the installed app's start page
  (function () {
    var url = location.pathname + location.search, opened = JSON.parse(localStorage.getItem(OPENED_KEY) || '[]');
    opened = opened.filter(function (o) { return o.url !== url; });
    opened.unshift({ url: url, title: S.title + (params.get('role') ? ' · ' + params.get('role') : '') });
    localStorage.setItem(OPENED_KEY, JSON.stringify(opened.slice(0, 20)));
  })();

  // keep this sheet for offline use now (the service worker does so on later visits): one entry per
  // ceremony, whatever the role, under the key the service worker looks up (live-sw.js pageKey)
  if (window.caches && window.isSecureContext) {
    var key = new URL(location.href);
    key.searchParams.delete('role'); key.searchParams.sort(); key.hash = '';
    var keyUrl = key.origin + key.pathname + '?' + key.searchParams.toString();
    fetch(keyUrl, { credentials: 'same-origin' }).then(function (r) {
      if (r.ok) return caches.open('dianli-live-pages').then(function (c) { return c.put(keyUrl, r); });
    }).catch(function () {});
  }

  // one device id per tab (sessionStorage): two tabs of one browser are two devices. A duplicated tab
  // copies sessionStorage, so a tab asks the others whether its id is taken before it connects.
  function newDevice() {
    var a = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return 'd' + Array.prototype.map.call(a, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  var device = sessionStorage.getItem(DEVICE_KEY);
  if (!device) { device = newDevice(); sessionStorage.setItem(DEVICE_KEY, device); }
  var tabs = window.BroadcastChannel ? new BroadcastChannel('dianli-live-tabs') : null;
  if (tabs) {
    tabs.onmessage = function (ev) {
      if (ev.data && ev.data.asking === device) tabs.postMessage({ taken: device });
      else if (ev.data && ev.data.taken === device) {
        device = newDevice(); sessionStorage.setItem(DEVICE_KEY, device);
        if (ws) ws.close();
      }
    };
    tabs.postMessage({ asking: device });
  }
  var stateKey = 'dianli-live:' + S.key, batonKey = 'dianli-live-baton:' + S.key;
  var saved = JSON.parse(localStorage.getItem(stateKey) || '{}');

  var st = {
    step: typeof saved.step === 'number' && saved.step < total ? saved.step : 0,
    seq: saved.seq || 0,
    conducted: false, conductorName: '', conductorHere: false, count: 0,
    iConduct: !!sessionStorage.getItem(batonKey) && !!saved.iConduct,
    remoteRehearsal: false, remoteSpeed: 1, code: '', qr: '', server: null,
    dirty: !!saved.dirty,           // the conductor moved while the connection was down
    connected: false,
    offset: 0,                      // server clock − local clock (ms)
    history: saved.history || [],
    role: params.get('role') || '',
    rehearsing: false, speed: 1, sound: false,
    rehearseStart: 0, rehearseFrom: 0
  };

  function serverNow() { return Date.now() + st.offset; }
  function persist() {
    localStorage.setItem(stateKey, JSON.stringify({ step: st.step, seq: st.seq, iConduct: st.iConduct,
      dirty: st.dirty, history: st.history.slice(-500) }));
  }
  function hasRole(s, role) { return s.roles.indexOf(role) >= 0; }
  function text(id, value) { $(id).textContent = value || ''; }

  // --- what a step shows ------------------------------------------------------------------------
  function cueLine(s) {
    var c = s.music && S.cues[s.music], parts = [];
    if (c && s.music_action) {
      var verb = { start: 'begins 作', stop: 'stops 止', pause: 'pauses 暫止', resume: 'resumes 續作' }[s.music_action] || s.music_action;
      parts.push('♪ ' + c.name + ' ' + c.tune + '之章 ' + verb);
    } else if (s.sounding && S.cues[s.sounding]) {
      var cs = S.cues[s.sounding];
      parts.push('♪ sounding: ' + cs.name + ' ' + cs.tune + '之章');
    }
    if (s.dance) parts.push('舞 ' + ({ dance: 'dance 舞', hold: 'hold 執籥未舞', stop: 'stop 舞止' }[s.dance] || s.dance));
    else if (s.dancing === 'dance') parts.push('舞 dancing');
    if (s.posture) parts.push('posture ' + s.posture);
    if (s.door) parts.push('door ' + s.door);
    if (s.notes) parts.push(s.notes);
    return parts.join(' · ');
  }
  function fill(prefix, s) {
    text(prefix + '-who', s ? s.number + ' · ' + s.roles.join('、') : '');
    text(prefix + '-call', s && s.call ? '「' + s.call + '」' : '');
    text(prefix + '-act', s ? s.action : '');
  }
  function nextOfRole(from) {
    for (var i = from; i < total; i++) if (hasRole(steps[i], st.role)) return i;
    return -1;
  }

  function musicTime(i) {
    // seconds into the sounding movement at step i: rehearsal clock, else real time spent in its steps
    var s = steps[i];
    if (!s.sounding) return null;
    if (st.rehearsing) return s.music_at_s + Math.min((serverNow() - st.rehearseStart) / 1000 * st.speed, s.rehearse_s);
    var t = 0, h = st.history, end = serverNow();
    for (var k = h.length - 1; k >= 0 && k > h.length - 300; k--) {
      var hs = steps[h[k][0]];
      if (hs && hs.sounding === s.sounding) t += (end - h[k][1]) / 1000;
      end = h[k][1];
      if (hs && hs.music === s.sounding && hs.music_action === 'start') break;
    }
    return t;
  }
  function danceLine(i) {
    var s = steps[i], box = $('now-dance'), c = s.sounding && S.cues[s.sounding];
    if (!c) { box.hidden = true; return; }
    var t = musicTime(i), ch = null;
    for (var k = 0; k < c.characters.length; k++) {
      var x = c.characters[k];
      if (x.start_s !== null && t >= x.start_s && t < x.end_s + 0.9) { ch = x; break; }
    }
    if (!ch) { box.hidden = true; return; }
    box.hidden = false;
    box.innerHTML = '';
    var big = document.createElement('span'); big.className = 'char'; big.lang = 'zh-Hant'; big.textContent = ch.char;
    box.appendChild(big);
    if (ch.dance && s.dancing === 'dance') {
      var d = document.createElement('span'); d.className = 'desc'; d.lang = 'zh-Hant'; d.textContent = ch.dance;
      box.appendChild(d);
    }
  }

  function render() {
    var i = st.step, s = steps[i];
    text('num', s.number); text('part', S.several_rites ? s.rite_name + ' · ' + s.part : s.part);
    var mine = !st.role || hasRole(s, st.role);
    $('now').classList.toggle('idle', !mine);
    if (mine) {
      fill('now', s);
      text('now-gloss', s.gloss);
      text('now-cue', cueLine(s));
    } else {
      var n = nextOfRole(i);
      text('now-who', st.role + ' · waiting 候');
      text('now-call', '');
      text('now-act', 'ceremony: ' + s.number + ' ' + (s.call ? '「' + s.call + '」' : (s.action || '')));
      text('now-gloss', n < 0 ? 'no more cues for ' + st.role : 'your next cue: step ' + steps[n].number + ' (in ' + (n - i) + ')');
      text('now-cue', s.sounding ? cueLine(s) : '');
    }
    danceLine(i);
    // the next thing to show: the next step, or with a role the role's next cue
    var ni = st.role ? nextOfRole(i + 1) : (i + 1 < total ? i + 1 : -1);
    fill('next', ni >= 0 ? steps[ni] : null);
    if (ni < 0) text('next-act', 'end of the ceremony 禮畢');
    var warn = $('warn');
    if (st.role && ni >= 0 && ni - i <= 2) {
      if (warn.hidden && navigator.vibrate) navigator.vibrate(200);  // felt in the dark, phone in hand
      warn.hidden = false;
      warn.textContent = '⚠ ' + st.role + ': your cue in ' + (ni - i) + ' step' + (ni - i > 1 ? 's' : '') + ' — ' +
        (steps[ni].call ? '「' + steps[ni].call + '」' : steps[ni].action || '');
    } else { warn.hidden = true; warn.textContent = ''; }
    document.body.classList.toggle('my-turn', !!st.role && mine);
    renderStatus();
    syncAudio();
  }

  function renderStatus() {
    var parts = [];
    var followingRehearsal = st.connected && !st.iConduct && st.remoteRehearsal;
    if (st.rehearsing) parts.push('rehearsal ' + st.speed + '×');
    else if (followingRehearsal) parts.push('rehearsal ' + st.remoteSpeed + '× (not the ceremony)');
    if (!st.connected) parts.push(navigator.onLine ? 'not connected · reconnecting' : 'offline · running on this device');
    else if (st.iConduct) parts.push('you conduct · ' + (st.count - 1) + ' following');
    else if (st.conducted) parts.push('following ' + (st.conductorName || 'the conductor') + (st.conductorHere ? '' : ' (away)'));
    else parts.push('connected · no one conducts');
    text('status', parts.join(' · '));
    $('rehearsal-banner').hidden = !(followingRehearsal || (st.rehearsing && st.iConduct && st.connected));
    document.body.classList.toggle('rehearsal', followingRehearsal);
    document.body.dataset.mode = st.connected ? (st.iConduct ? 'conduct' : 'follow') : 'solo';
    document.body.dataset.step = String(st.step);
    $('handover').hidden = !(st.iConduct && st.connected);
    $('conduct').hidden = st.iConduct;
    $('show-code').hidden = !(st.iConduct && st.connected && st.code);
    $('advance').hidden = $('back').hidden = !canMove();
  }

  // --- moving -----------------------------------------------------------------------------------
  function canMove() { return !st.connected || st.iConduct || st.rehearsing; }
  function go(i, fromServer) {
    i = Math.max(0, Math.min(total - 1, i));
    if (i === st.step && !fromServer) return;
    st.step = i;
    st.history.push([i, serverNow()]);
    if (!fromServer && st.iConduct) {  // a conductor's rehearsal moves its followers too: they rehearse together
      if (st.connected) send({ type: 'step', step: i });
      else st.dirty = true;
    }
    persist();
    render();
  }
  function move(delta) {
    if (!canMove()) {
      text('status', 'following ' + (st.conductorName || 'the conductor') + ' — to conduct, press “conduct” and enter the code, or ask for a hand-over');
      return;
    }
    if (st.rehearsing) stopRehearsal();
    go(st.step + delta, false);
  }

  // --- the connection ---------------------------------------------------------------------------
  var ws = null, retry = 500, retryTimer = null;
  function wsUrl() {
    var q = new URLSearchParams(location.search);
    q.delete('role');
    q.set('device', device);
    q.set('name', st.role);
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + location.pathname.replace(/\/$/, '') + '/ws?' + q.toString();
  }
  function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
  function connect() {
    if (ws && (ws.readyState === 0 || ws.readyState === 1)) return;
    clearTimeout(retryTimer);
    try { ws = new WebSocket(wsUrl()); } catch (e) { schedule(); return; }
    ws.onopen = function () {
      retry = 500;
      var baton = sessionStorage.getItem(batonKey), code = sessionStorage.getItem(CODE_KEY);
      if (baton) send({ type: 'take', baton: baton });  // this tab conducted: it takes its ceremony back
      else if (code) { sessionStorage.removeItem(CODE_KEY); send({ type: 'take', code: code }); }
    };
    ws.onmessage = function (ev) { receive(JSON.parse(ev.data)); };
    ws.onclose = function () {
      st.connected = false; ws = null; renderStatus(); schedule();
    };
    ws.onerror = function () { try { ws.close(); } catch (e) {} };
  }
  function schedule() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  }
  setInterval(function () { send({ type: 'ping', t: Date.now() }); }, 15000);  // the hub drops the silent
  window.addEventListener('online', function () { retry = 500; connect(); });
  window.addEventListener('offline', function () { if (ws) ws.close(); });

  function presence(m) {
    st.conducted = m.conducted; st.conductorName = m.conductor_name; st.conductorHere = m.conductor_here;
    st.count = m.count; st.remoteRehearsal = m.rehearsing; st.remoteSpeed = m.speed;
  }
  function follow(m) {  // the server's step and history, unless this device rehearses by itself
    if (st.rehearsing) return;
    st.history = m.history.slice();
    st.seq = m.seq;
    if (m.history.length || m.seq) go(m.step, true); else render();
  }
  function receive(m) {
    if (m.now) st.offset = m.now - Date.now();
    if (m.type === 'state') {
      st.connected = true;
      presence(m);
      st.server = m;
      // a tab that conducted waits for its baton to be taken back (a "conduct" message) before following
      if (!(st.iConduct && sessionStorage.getItem(batonKey))) { st.iConduct = m.you_conduct; follow(m); }
      persist(); renderStatus();
    } else if (m.type === 'conduct') {
      if (m.you) {
        var mine = st.step, ahead = st.dirty || (st.server && mine !== st.server.step && st.iConduct);
        st.iConduct = true; st.code = m.code; st.qr = m.qr;
        sessionStorage.setItem(batonKey, m.baton);
        $('code-form').hidden = true;
        $('code-text').textContent = m.code;
        $('code-qr').innerHTML = m.qr;  // an SVG drawn by the server from its own code and address
        // this device conducted on while the connection (or the server) was away: its step stands
        if (ahead) send({ type: 'step', step: mine });
        st.dirty = false;
      } else {
        var was = st.iConduct;
        st.iConduct = false; st.dirty = false; st.code = ''; st.qr = '';
        sessionStorage.removeItem(batonKey);
        $('code-panel').hidden = true;
        if (was && st.server && !st.server.conducted && !st.server.seq) {
          // the server restarted without its state file: this device keeps its step, and sends it once it
          // conducts again (with the code the restarted server shows)
          st.dirty = true; $('code-form').hidden = false;
          text('status', 'the server restarted: enter its conduct code to conduct on from here');
        } else if (was && st.server) follow(st.server);
      }
      persist(); renderStatus();
    } else if (m.type === 'step') {
      st.seq = m.seq;
      if (st.server) { st.server.step = m.step; st.server.seq = m.seq; st.server.history.push([m.step, m.at]); }
      if (st.rehearsing || st.iConduct) return;  // the conductor's own steps, echoed: it is ahead already
      st.step = m.step; st.history.push([m.step, m.at]); persist(); render();
    } else if (m.type === 'presence') {
      presence(m); persist(); renderStatus();
    } else if (m.type === 'devices') {
      showDevices(m.devices);
    } else if (m.type === 'error') {
      text('status', m.message);
    }
  }

  function showDevices(devices) {
    var box = $('devices');
    box.innerHTML = '';
    var others = devices.filter(function (d) { return d.id !== device; });
    var p = document.createElement('p');
    p.textContent = others.length ? 'hand the ceremony to:' : 'no other device is connected';
    box.appendChild(p);
    others.forEach(function (d) {
      var b = document.createElement('button');
      b.type = 'button'; b.textContent = d.name;
      b.addEventListener('click', function (e) {
        e.stopPropagation(); send({ type: 'handover', to: d.id }); box.hidden = true;
      });
      box.appendChild(b);
    });
    box.hidden = false;
  }

  // --- sound ------------------------------------------------------------------------------------
  var audios = {}, playing = null;
  function audioFor(mid) {
    if (audios[mid]) return audios[mid];
    var a = new Audio();
    a.preload = 'auto';
    audios[mid] = a;
    fetch(S.cues[mid].audio).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.blob();
    }).then(function (b) { a.src = URL.createObjectURL(b); a.dataset.ready = '1'; syncAudio(); })
      .catch(function () { a.dataset.failed = '1'; });
    return a;
  }
  function syncAudio() {
    var s = steps[st.step], mid = st.sound ? s.sounding : null;
    if (playing && playing !== mid) { audios[playing].pause(); playing = null; }
    if (!mid) return;
    var a = audioFor(mid);
    if (!a.dataset.ready) return;
    var rate = Math.max(0.0625, Math.min(16, st.rehearsing ? st.speed : 1));
    a.playbackRate = rate;
    a.muted = st.rehearsing && st.speed > 16;
    var t = musicTime(st.step);
    if (t !== null && (playing !== mid || Math.abs(a.currentTime - t) > 2 * rate)) a.currentTime = Math.min(t, a.duration || t);
    if (a.paused) a.play().catch(function () {});
    playing = mid;
  }
  function saveAudio() {
    var ids = Object.keys(S.cues), done = 0, failed = 0, btn = $('save-audio');
    btn.disabled = true;
    (function next() {
      if (!ids.length) { btn.textContent = 'audio kept: ' + done + (failed ? ', ' + failed + ' failed' : ''); btn.disabled = false; return; }
      var mid = ids.shift();
      btn.textContent = 'keeping audio ' + (done + failed + 1) + '/' + Object.keys(S.cues).length + '…';
      fetch(S.cues[mid].audio).then(function (r) { if (r.ok) done++; else failed++; return r.blob(); })
        .catch(function () { failed++; }).then(next);
    })();
  }

  // --- rehearsal --------------------------------------------------------------------------------
  var timer = null;
  function tick() {
    var s = steps[st.step], elapsed = (serverNow() - st.rehearseStart) / 1000 * st.speed;
    if (elapsed >= s.rehearse_s) {
      if (st.step + 1 >= total) { stopRehearsal(); return; }
      st.rehearseStart = serverNow();
      go(st.step + 1, false);
    } else if (s.sounding) { danceLine(st.step); }
  }
  function startRehearsal() {
    st.rehearsing = true; st.sound = true;
    $('sound').setAttribute('aria-pressed', 'true');
    $('rehearse').setAttribute('aria-pressed', 'true');
    st.rehearseStart = serverNow();
    timer = setInterval(tick, 100);
    if (st.iConduct) send({ type: 'rehearse', on: true, speed: st.speed });  // every follower is told
    render();
  }
  function stopRehearsal() {
    st.rehearsing = false; clearInterval(timer); timer = null;
    $('rehearse').setAttribute('aria-pressed', 'false');
    if (st.iConduct) send({ type: 'rehearse', on: false, speed: st.speed });
    render();
  }

  // --- input ------------------------------------------------------------------------------------
  $('sheet').addEventListener('click', function () { move(1); });
  $('advance').addEventListener('click', function (e) { e.stopPropagation(); move(1); });
  $('back').addEventListener('click', function (e) { e.stopPropagation(); move(-1); });
  $('conduct').addEventListener('click', function () {
    if (!st.connected) { st.iConduct = true; persist(); renderStatus(); return; }  // alone, offline
    var form = $('code-form');
    form.hidden = !form.hidden;
    if (!form.hidden) $('code-input').focus();
  });
  $('code-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var code = $('code-input').value.trim();
    if (code) send({ type: 'take', code: code });
  });
  $('show-code').addEventListener('click', function () {
    var panel = $('code-panel');
    panel.hidden = !panel.hidden;
    this.setAttribute('aria-expanded', String(!panel.hidden));
  });
  $('handover').addEventListener('click', function () { send({ type: 'devices' }); });
  $('rehearse').addEventListener('click', function () { if (st.rehearsing) stopRehearsal(); else startRehearsal(); });
  $('speed').addEventListener('input', function () {
    var v = parseFloat(this.value);
    if (!(v >= 0.1 && v <= 100)) return;  // any speed from a tenth to a hundred times
    if (st.rehearsing) {  // keep the position within the step
      var elapsed = (serverNow() - st.rehearseStart) / 1000 * st.speed;
      st.rehearseStart = serverNow() - elapsed / v * 1000;
    }
    st.speed = v;
    if (st.rehearsing && st.iConduct) send({ type: 'rehearse', on: true, speed: v });
    render();
  });
  $('sound').addEventListener('click', function () {
    st.sound = !st.sound; this.setAttribute('aria-pressed', String(st.sound)); syncAudio();
  });
  $('save-audio').addEventListener('click', saveAudio);
  $('role').addEventListener('change', function () {
    st.role = this.value;
    var q = new URLSearchParams(location.search);
    if (st.role) q.set('role', st.role); else q.delete('role');
    history.replaceState(null, '', location.pathname + '?' + q.toString());
    send({ type: 'name', name: st.role });
    render();
  });
  document.addEventListener('keydown', function (e) {
    var tag = e.target && e.target.tagName;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag)) return;
    if (tag === 'BUTTON' && e.key !== ' ') return;  // Enter works the button; the space bar always advances
    if (e.key === ' ' || e.key === 'ArrowRight' || e.key === 'PageDown') { e.preventDefault(); move(1); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') { e.preventDefault(); move(-1); }
  });
  setInterval(function () { if (steps[st.step].sounding && !st.rehearsing) danceLine(st.step); }, 500);

  // keep the screen on while the sheet is open (where the browser allows it)
  var wake = null;
  function keepAwake() {
    if (!navigator.wakeLock || document.visibilityState !== 'visible' || wake) return;
    navigator.wakeLock.request('screen').then(function (w) {
      wake = w; w.addEventListener('release', function () { wake = null; });
    }).catch(function () {});
  }
  document.addEventListener('visibilitychange', keepAwake);
  document.addEventListener('click', keepAwake);

  render();
  connect();
  keepAwake();
})();
