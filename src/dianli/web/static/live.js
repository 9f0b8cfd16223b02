/* The live run sheet: one device conducts, the others follow over a WebSocket; works offline once
   opened (service worker /live/sw.js); rehearses the ceremony's timeline at any speed. */
(function () {
  'use strict';
  var OPENED_KEY = 'dianli-live-opened', DEVICE_KEY = 'dianli-live-device';

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

  var device = localStorage.getItem(DEVICE_KEY);
  if (!device) {
    device = 'd' + Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
    localStorage.setItem(DEVICE_KEY, device);
  }
  var stateKey = 'dianli-live:' + S.key;
  var saved = JSON.parse(localStorage.getItem(stateKey) || '{}');

  var st = {
    step: typeof saved.step === 'number' && saved.step < total ? saved.step : 0,
    seq: saved.seq || 0,
    conductor: null, conductorName: '', conductorHere: false, count: 0,
    iConduct: !!saved.iConduct,
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
    if (st.rehearsing) parts.push('rehearsal ' + st.speed + '×');
    if (!st.connected) parts.push(navigator.onLine ? 'not connected · reconnecting' : 'offline · running on this device');
    else if (st.iConduct) parts.push('you conduct · ' + (st.count - 1) + ' following');
    else if (st.conductor) parts.push('following ' + (st.conductorName || 'the conductor') + (st.conductorHere ? '' : ' (away)'));
    else parts.push('connected · no one conducts');
    text('status', parts.join(' · '));
    document.body.dataset.mode = st.connected ? (st.iConduct ? 'conduct' : 'follow') : 'solo';
    document.body.dataset.step = String(st.step);
    $('handover').hidden = !(st.iConduct && st.connected);
    $('conduct').hidden = st.iConduct || (st.connected && !!st.conductor && st.conductorHere);
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
      text('status', 'following ' + (st.conductorName || 'the conductor') + ' — press “conduct” to take over when they hand over');
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
    q.set('name', (st.role || 'device') + ' ' + device.slice(1, 5));
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + location.pathname.replace(/\/$/, '') + '/ws?' + q.toString();
  }
  function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
  function connect() {
    if (ws && (ws.readyState === 0 || ws.readyState === 1)) return;
    clearTimeout(retryTimer);
    try { ws = new WebSocket(wsUrl()); } catch (e) { schedule(); return; }
    ws.onopen = function () { retry = 500; };
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
  window.addEventListener('online', function () { retry = 500; connect(); });
  window.addEventListener('offline', function () { if (ws) ws.close(); });

  function presence(m) {
    st.conductor = m.conductor; st.conductorName = m.conductor_name; st.conductorHere = m.conductor_here;
    st.count = m.count;
    var was = st.iConduct;
    st.iConduct = m.conductor === device;
    if (was && !st.iConduct) st.dirty = false;
  }
  function receive(m) {
    if (m.now) st.offset = m.now - Date.now();
    if (m.type === 'state') {
      st.connected = true;
      var wasConducting = st.iConduct, mine = st.step, dirty = st.dirty;
      presence(m);
      if (wasConducting && !m.conductor) { send({ type: 'take' }); st.iConduct = true; }
      if (st.iConduct && (dirty || (wasConducting && !m.history.length))) {
        // this device conducted on while the connection (or the server) was away: its step stands
        st.dirty = false;
        if (mine !== m.step || !m.history.length) send({ type: 'step', step: mine });
        st.seq = m.seq;
      } else if (!st.rehearsing) {
        st.history = m.history.slice();
        st.seq = m.seq;
        if (m.history.length || m.seq) go(m.step, true); else render();
      }
      persist(); renderStatus();
    } else if (m.type === 'step') {
      st.seq = m.seq;
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
      b.type = 'button'; b.textContent = d.name; b.dataset.device = d.id;
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
    render();
  }
  function stopRehearsal() {
    st.rehearsing = false; clearInterval(timer); timer = null;
    $('rehearse').setAttribute('aria-pressed', 'false');
    render();
  }

  // --- input ------------------------------------------------------------------------------------
  $('sheet').addEventListener('click', function () { move(1); });
  $('advance').addEventListener('click', function (e) { e.stopPropagation(); move(1); });
  $('back').addEventListener('click', function (e) { e.stopPropagation(); move(-1); });
  $('conduct').addEventListener('click', function () {
    if (st.connected) send({ type: 'take' });
    else { st.iConduct = true; persist(); renderStatus(); }
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
    st.speed = v; render();
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
