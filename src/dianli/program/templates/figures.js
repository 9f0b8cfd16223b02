/* Figures legible on a phone and a desktop (issue 27): a drawing whose smallest text would be drawn under
   11 CSS px is drawn wider — as wide as its smallest text needs — in a box that scrolls (pans) on its own;
   every box that scrolls is reachable by keyboard (tabindex 0) and named by its figure. Shared by the web
   pages and the booklet (dianli/program/templates/figures.js). */
(function () {
  var MIN_PX = 11;
  function drawnPx(t) {
    var m = t.getScreenCTM();
    if (!m) return Infinity;
    return parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  }
  function smallest(svg) {
    var min = Infinity;
    svg.querySelectorAll("text, tspan").forEach(function (t) {
      var own = Array.prototype.some.call(t.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
      if (!own || t.getBoundingClientRect().width === 0) return;
      var px = drawnPx(t);
      if (px > 0) min = Math.min(min, px);
    });
    return min;
  }
  function nameOf(el) {
    var fig = el.closest("figure"), cap = fig && fig.querySelector("figcaption");
    var svg = el.tagName.toLowerCase() === "svg" ? el : el.querySelector("svg");
    var title = svg && svg.querySelector("title");
    var words = "";
    if (cap) {  /* the caption's words, without the command lines it shows */
      var copy = cap.cloneNode(true);
      copy.querySelectorAll("code").forEach(function (c) { c.remove(); });
      words = copy.textContent;
    }
    var label = (svg && svg.getAttribute("aria-label")) || words || (title && title.textContent) || "";
    label = label.trim().replace(/\s+/g, " ");
    return (label ? label.slice(0, 140) : "a figure") + " (scrolls)";
  }
  function scroller(svg) {
    var p = svg.parentElement, s = getComputedStyle(p);
    if (/(auto|scroll)/.test(s.overflowX)) return p;
    var box = document.createElement("div");
    box.className = "figure-scroll";
    p.insertBefore(box, svg);
    box.appendChild(svg);
    return box;
  }
  function legible(svg) {
    if (svg.parentElement.closest("svg") || svg.closest("button, a, .no-legible")) return;
    var width = svg.getBoundingClientRect().width;
    if (width < 1) return;
    var min = smallest(svg);
    if (!(min < MIN_PX - 0.01)) return;
    scroller(svg);
    var wide = Math.ceil((width * MIN_PX) / min) + 2;
    svg.style.width = wide + "px";
    svg.style.minWidth = wide + "px";
    svg.style.maxWidth = "none";
    svg.style.height = "auto";
    focus(svg);
  }
  function focus(svg) {  /* a map opens on the region it is about (its data-focus, in its own units) */
    var at = (svg.getAttribute("data-focus") || "").split(","), box = svg.parentElement;
    var vb = svg.viewBox && svg.viewBox.baseVal;
    if (at.length !== 2 || !vb || !vb.width || box.scrollWidth <= box.clientWidth) return;
    var scale = svg.getBoundingClientRect().width / vb.width;
    box.scrollLeft = Math.max(0, +at[0] * scale - box.clientWidth / 2);
  }
  function reachable() {
    document.querySelectorAll("body *").forEach(function (el) {
      if (el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1) return;
      var s = getComputedStyle(el);
      var scrolls = (/(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
        (/(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1);
      if (!scrolls || el.tabIndex >= 0) return;
      el.tabIndex = 0;
      if (!el.getAttribute("role")) el.setAttribute("role", "region");
      if (!el.getAttribute("aria-label")) el.setAttribute("aria-label", nameOf(el));
    });
  }
  function run() {
    document.querySelectorAll("svg").forEach(legible);
    reachable();
  }
  /* printing shows what collapsed cards hold (祭器, 祭物, the other roles …): every closed <details> is
     opened for the print and closed again after it */
  var opened = [];
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details:not([open])").forEach(function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
  window.addEventListener("load", reachable);
  document.addEventListener("toggle", function (e) { if (e.target.open) run(); }, true);
  var resized;
  window.addEventListener("resize", function () { clearTimeout(resized); resized = setTimeout(run, 200); });
})();
