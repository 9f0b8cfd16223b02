/* Highlight the sung character under the playhead: each <audio data-movement=M> drives the spans of
   .sung[data-movement=M] that carry data-start/data-end (seconds). */
(function () {
  function attach(audio) {
    var line = document.querySelector('.sung[data-movement="' + audio.dataset.movement + '"]');
    if (!line) return;
    var chars = Array.prototype.slice.call(line.querySelectorAll('.ch[data-start]'));
    var current = null;
    audio.addEventListener('timeupdate', function () {
      var t = audio.currentTime, found = null;
      for (var i = 0; i < chars.length; i++) {
        if (t >= +chars[i].dataset.start && t < +chars[i].dataset.end) { found = chars[i]; break; }
      }
      if (found === current) return;
      if (current) current.classList.remove('now');
      if (found) found.classList.add('now');
      current = found;
    });
  }
  document.querySelectorAll('audio[data-movement]').forEach(attach);
})();
