/* Small conveniences: "/" focuses the search box; the rites list follows the place and year fields. */
(function () {
  var box = document.querySelector('header.site input[name="q"]');
  document.addEventListener('keydown', function (e) {
    if (e.key === '/' && box && document.activeElement.tagName !== 'INPUT') { e.preventDefault(); box.focus(); }
  });
  var place = document.getElementById('place'), year = document.getElementById('year');
  if (place && year) {
    var update = function () {
      document.querySelectorAll('a.rite-link').forEach(function (a) {
        var base = a.getAttribute('href').split('?')[0];
        a.setAttribute('href', base + '?place=' + encodeURIComponent(place.value) + '&year=' + encodeURIComponent(year.value));
      });
    };
    place.addEventListener('input', update); year.addEventListener('input', update); update();
  }
})();
