"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("dance-data").textContent);
  const FIG = DATA.figure;
  const SVGNS = "http://www.w3.org/2000/svg";
  const chars = DATA.characters;
  // run to the end of the audio (its closing strokes after the last sung character), else the last character
  const total = DATA.timing.total_s || (chars.length ? chars[chars.length - 1].end : 0);
  const $ = (id) => document.getElementById(id);
  const stage = $("stage");
  const deg = Math.PI / 180;

  // ---------- projection: the courtyard seen from the hall (上), looking south ----------
  const W = 1100, H = 760;
  const figs = DATA.formation.figures;
  const zs = figs.map((f) => f.z), xs = figs.map((f) => f.x);
  const zMin = Math.min(...zs), zMax = Math.max(...zs);
  const xSpan = Math.max(...xs.map(Math.abs)) + 1.0;
  // The whole formation on the left of the stage; one dancer of each rank, large, on the right.
  const MAIN = { cx: 322, S: 0, top: 120, depth: 0, fig: 1.9, persp: 0.3 };
  MAIN.S = 620 / (2 * xSpan);
  MAIN.depth = (H - 120 - MAIN.top) / Math.max(1e-6, zMax - zMin + 1.0);
  const NEAR = { cx: 868, S: 165, top: 640, depth: 0, fig: 1, persp: 0 };
  function scaleAt(z, v) { return v.persp ? 1 - v.persp + v.persp * (z - zMin) / Math.max(1e-6, zMax - zMin) : 1; }
  function ground(x, z, v) {            // where a point on the ground lands on the screen
    const s = scaleAt(z, v);
    return [v.cx - x * v.S * (0.8 + 0.2 * s), v.depth ? v.top + (z - zMin) * v.depth : v.top];
  }
  function projectFig(base, p, v, yaw) {  // a figure point p (world offset from its base) on the screen
    if (yaw) p = yawRot(p, yaw);
    const g = ground(base[0], base[2], v);
    const k = v.S * scaleAt(base[2], v) * v.fig * (v.depth ? 0.55 : 1);
    return [g[0] - p[0] * k, g[1] - p[1] * k + p[2] * k * (v.depth ? 0.3 : 0.22), p[2]];
  }
  function project(p, v) { return projectFig([p[0], 0, p[2]], [0, p[1], 0], v); }

  // ---------- the figure in its own frame ----------
  const J = FIG.joints;
  const mirrorX = (p, side) => (side === "left" ? [-p[0], p[1], p[2]] : p.slice());
  const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const mul = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const len = (a) => Math.sqrt(dot(a, a));
  const norm = (a) => { const l = len(a) || 1; return mul(a, 1 / l); };
  const lerp = (a, b, t) => a + (b - a) * t;
  const lerp3 = (a, b, t) => [lerp(a[0], b[0], t), lerp(a[1], b[1], t), lerp(a[2], b[2], t)];
  function yawRot(p, a) { const c = Math.cos(a * deg), s = Math.sin(a * deg); return [p[0] * c + p[2] * s, p[1], -p[0] * s + p[2] * c]; }

  function ik(a, b, la, lb, pole) {
    let d = sub(b, a); let dist = len(d);
    const maxd = (la + lb) * 0.999; if (dist > maxd) { b = add(a, mul(norm(d), maxd)); d = sub(b, a); dist = maxd; }
    const u = norm(d);
    const along = (la * la - lb * lb + dist * dist) / (2 * dist || 1);
    const h = Math.sqrt(Math.max(0, la * la - along * along));
    let p = sub(pole, mul(u, dot(pole, u))); p = norm(p);
    return [add(add(a, mul(u, along)), mul(p, h)), b];
  }

  // Turn a phase state into joint positions in the body frame (x right, y up, z forward).
  function bodyPoints(st) {
    const drop = st.crouch * FIG.crouch_drop;
    const hipY = J.hip[1] - drop;
    const bow = st.bow * deg;
    const trunk = (p) => {          // bow the trunk about the hips
      const y = p[1] - J.hip[1], z = p[2];
      return [p[0], hipY + y * Math.cos(bow) - z * Math.sin(bow), y * Math.sin(bow) + z * Math.cos(bow)];
    };
    const pts = {};
    pts.neck = trunk(J.neck);
    pts.lsh = trunk(mirrorX(J.shoulder, "left"));
    pts.rsh = trunk(J.shoulder);
    pts.lhip = [-J.hip[0], hipY, 0];
    pts.rhip = [J.hip[0], hipY, 0];
    // head, turned and lowered
    const hd = (st.headDown + st.bow * 0.3) * deg;
    const headC = trunk([0, J.neck[1] + 0.15, 0.01]);
    pts.head = headC;
    pts.face = add(headC, yawRot([0, -Math.sin(hd) * 0.1, Math.cos(hd) * 0.1], st.head));
    // hands
    for (const side of ["left", "right"]) {
      const h = side === "left" ? st.lh : st.rh;
      let at = mirrorX(FIG.hands[h.at].at, side);
      if (h.joined) at = [side === "left" ? -FIG.joined_half_gap : FIG.joined_half_gap, at[1], at[2]];
      at = yawRot(at, h.az || 0);
      at = trunk(at);
      const sh = side === "left" ? pts.lsh : pts.rsh;
      const sx = side === "left" ? -1 : 1;
      const [el, hand] = ik(sh, at, J.upper_arm, J.forearm, [sx * 0.6, -1, -0.35]);
      pts[side[0] + "el"] = el; pts[side[0] + "ha"] = hand;
    }
    // legs
    for (const side of ["left", "right"]) {
      const f = FIG.feet[side === "left" ? st.lf : st.rf];
      const ankle = mirrorX(f.ankle, side);
      const hip = side === "left" ? pts.lhip : pts.rhip;
      const kneePole = [0, 0, 1 + (f.knee_forward || 0)];
      const [knee, an] = ik(hip, ankle, J.thigh, J.shin, kneePole);
      pts[side[0] + "kn"] = knee; pts[side[0] + "an"] = an;
      pts[side[0] + "toe"] = add(an, f.toe_down ? [0, -0.05, 0.1] : [0, -0.04, 0.13]);
    }
    return pts;
  }

  function lerpState(a, b, t) {
    let db = ((b.bearing - a.bearing) % 360 + 540) % 360 - 180;
    return { bearing: a.bearing + db * t, head: lerp(a.head, b.head, t), bow: lerp(a.bow, b.bow, t),
      crouch: lerp(a.crouch, b.crouch, t), headDown: lerp(a.headDown, b.headDown, t), adv: lerp(a.adv, b.adv, t),
      impl: t < 0.5 ? a.impl : b.impl, turning: b.turning, drum: b.drum };
  }
  function lerpPoints(pa, pb, t) { const o = {}; for (const k in pa) o[k] = lerp3(pa[k], pb[k], t); return o; }

  // ---------- drawing ----------
  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  const P = (q) => q[0].toFixed(1) + "," + q[1].toFixed(1);

  function drawDancer(g, base, st, pts, rank, dim, v, yaw) {
    const fwd = [Math.sin(st.bearing * deg), 0, Math.cos(st.bearing * deg)];
    const right = [Math.cos(st.bearing * deg), 0, -Math.sin(st.bearing * deg)];
    const adv = mul(fwd, st.adv * FIG.step_length);
    const W3 = (p) => add(add(add(adv, mul(right, p[0])), [0, p[1], 0]), mul(fwd, p[2]));
    const PR = (p) => projectFig(base, W3(p), v, yaw);
    const Q = {}; for (const k in pts) Q[k] = PR(pts[k]);
    const colour = rank === "east" ? "#a3322a" : "#1f5d7a";
    const grp = el("g", { opacity: dim ? 0.35 : 1 }, g);
    const s = v.S * scaleAt(base[2], v) * v.fig * (v.depth ? 0.55 : 1) / 60;
    const sh = projectFig(base, adv, v, yaw);
    el("ellipse", { cx: sh[0], cy: sh[1] + 2 * s, rx: 17 * s, ry: 5 * s, fill: "rgba(60,40,20,0.18)" }, grp);
    if (st.turning) el("path", { d: `M ${sh[0] - 20 * s} ${sh[1] + 6 * s} A ${20 * s} ${7 * s} 0 1 0 ${sh[0] + 18 * s} ${sh[1] - 2 * s}`,
      fill: "none", stroke: "#b8862b", "stroke-width": 2.2 * s, "marker-end": "url(#arrow)" }, grp);
    const facing = Math.cos((st.bearing - (yaw || 0)) * deg);     // > 0: facing the hall (the viewer)
    const lw = 4.4 * s;
    const limb = (pa, pb, pc, w, col) => el("polyline", { points: [pa, pb, pc].map(P).join(" "), fill: "none", stroke: col,
      "stroke-width": w, "stroke-linecap": "round", "stroke-linejoin": "round" }, grp);
    const sides = Q.lsh[2] < Q.rsh[2] ? ["l", "r"] : ["r", "l"];
    sides.forEach((k) => {
      limb(Q[k + "hip"], Q[k + "kn"], Q[k + "an"], lw * 1.15, "#2b2118");
      el("line", { x1: Q[k + "an"][0], y1: Q[k + "an"][1], x2: Q[k + "toe"][0], y2: Q[k + "toe"][1], stroke: "#1b140e",
        "stroke-width": lw * 1.4, "stroke-linecap": "round" }, grp);
    });
    // robe: from the shoulders to a hem above the knees
    const hemY = pts.lhip[1] - 0.3;
    const robe = [];
    for (const dz of [-0.11, 0.11]) {
      robe.push(PR(add(pts.lsh, [0.02, 0, dz])), PR(add(pts.rsh, [-0.02, 0, dz])));
      robe.push(PR([-0.26, hemY, pts.lhip[2] + dz * 1.4]), PR([0.26, hemY, pts.rhip[2] + dz * 1.4]));
    }
    el("polygon", { points: hull(robe).map(P).join(" "), fill: colour, stroke: "#2b2118", "stroke-width": 0.8 * s, "stroke-linejoin": "round" }, grp);
    const belt = (k) => lerp3(Q[k + "hip"], Q[k + "sh"], 0.25);
    const bl = belt("l"), br = belt("r");
    el("line", { x1: bl[0], y1: bl[1], x2: br[0], y2: br[1], stroke: "#d9b45a", "stroke-width": 2.4 * s }, grp);
    const implement = () => drawImplements(grp, st, pts, PR, s);
    const arm = (k) => limb(Q[k + "sh"], Q[k + "el"], Q[k + "ha"], lw, colour);
    arm(sides[0]);
    if (facing < 0) implement();
    const hr = J.head_radius * s * 60 / 1;
    const hc = Q.head;
    el("circle", { cx: hc[0], cy: hc[1], r: hr, fill: "#f1d3b0", stroke: "#2b2118", "stroke-width": 0.8 * s }, grp);
    const look = Math.cos((st.bearing + st.head - (yaw || 0)) * deg);
    const side = Math.sin((st.bearing + st.head - (yaw || 0)) * deg);
    if (look > -0.25) {
      const ex = hc[0] - side * hr * 0.6, ey = hc[1] + hr * (0.08 + st.headDown / 90 * 0.5);
      el("circle", { cx: ex - hr * 0.32 * Math.max(0.2, look), cy: ey, r: Math.max(0.8, 1.3 * s), fill: "#2b2118" }, grp);
      el("circle", { cx: ex + hr * 0.32 * Math.max(0.2, look), cy: ey, r: Math.max(0.8, 1.3 * s), fill: "#2b2118" }, grp);
    }
    el("path", { d: `M ${hc[0] - hr * 1.08} ${hc[1] - hr * 0.2} Q ${hc[0]} ${hc[1] - hr * 2} ${hc[0] + hr * 1.08} ${hc[1] - hr * 0.2} Z`, fill: "#1d1712" }, grp);
    el("circle", { cx: hc[0], cy: hc[1] - hr * 1.25, r: hr * 0.28, fill: "#c0392b" }, grp);
    arm(sides[1]);
    if (facing >= 0) implement();
  }

  function hull(points) {             // convex hull (monotone chain) of screen points
    const p = points.map((q) => [q[0], q[1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    const lower = [], upper = [];
    for (const q of p) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop(); lower.push(q); }
    for (const q of p.slice().reverse()) { while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop(); upper.push(q); }
    return lower.slice(0, -1).concat(upper.slice(0, -1));
  }

  function drawImplements(grp, st, pts, PR, s) {
    const L = FIG.implements.yue_length, D = FIG.implements.di_length;
    const lh = pts.lha, rh = pts.rha;
    let yue, di;       // segments in the body frame
    const centre = mul(add(lh, rh), 0.5);
    switch (st.impl) {
      case "joined": yue = [add(centre, [-L / 2, 0, 0.04]), add(centre, [L / 2, 0, 0.04])]; di = [add(centre, [0, -0.2, 0.05]), add(centre, [0, D - 0.2, 0.05])]; break;
      case "together": yue = [add(centre, [-0.03, -0.1, 0.04]), add(centre, [-0.03, L - 0.1, 0.04])]; di = [add(centre, [0.03, -0.1, 0.05]), add(centre, [0.03, D - 0.1, 0.05])]; break;
      case "clasped": yue = [add(centre, [-L * 0.4, -L * 0.3, 0.04]), add(centre, [L * 0.4, L * 0.3, 0.04])]; di = [add(centre, [D * 0.25, -D * 0.2, 0.05]), add(centre, [-D * 0.35, D * 0.6, 0.05])]; break;
      case "down": yue = [lh, add(lh, [0.05, -L, 0.06])]; di = [rh, add(rh, [-0.04, -D, 0.07])]; break;
      default: yue = [add(lh, [-0.08, 0, 0.03]), add(lh, [L - 0.08, 0, 0.03])]; di = [add(rh, [0, -0.12, 0.03]), add(rh, [0, D - 0.12, 0.03])];
    }
    const a = PR(yue[0]), b = PR(yue[1]);
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#c9a227", "stroke-width": 3.6 * s, "stroke-linecap": "round" }, grp);
    for (let i = 1; i <= 3; i++) {
      const q = lerp3(a, b, 0.22 * i + 0.08);
      el("circle", { cx: q[0], cy: q[1], r: 0.9 * s, fill: "#5a4210" }, grp);
    }
    const c = PR(di[0]), d = PR(di[1]);
    el("line", { x1: c[0], y1: c[1], x2: d[0], y2: d[1], stroke: "#5a3b1a", "stroke-width": 2.2 * s, "stroke-linecap": "round" }, grp);
    const m = lerp3(c, d, 0.42);
    const dx = d[0] - m[0], dy = d[1] - m[1];
    const nx = -dy * 0.16, ny = dx * 0.16;
    el("path", { d: `M ${m[0]} ${m[1]} Q ${m[0] + nx + dx * 0.5} ${m[1] + ny + dy * 0.5} ${d[0]} ${d[1]} Q ${m[0] - nx + dx * 0.5} ${m[1] - ny + dy * 0.5} ${m[0]} ${m[1]} Z`,
      fill: "#c2562b", stroke: "#6d2a12", "stroke-width": 0.6 * s }, grp);
  }

  function drawStaff(g, f, label, pulse, v) {
    const base = [f.x, 0, f.z];
    const s = v.S * scaleAt(f.z, v) * v.fig * 0.55 / 60;
    const p = projectFig(base, [0, 0, 0], v);
    const top = projectFig(base, [0, 1.5, 0], v);
    const hgt = p[1] - top[1];
    const grp = el("g", {}, g);
    el("ellipse", { cx: p[0], cy: p[1] + 2 * s, rx: 15 * s, ry: 4.5 * s, fill: "rgba(60,40,20,0.16)" }, grp);
    el("path", { d: `M ${p[0] - 12 * s} ${p[1]} L ${p[0] - 7 * s} ${top[1]} L ${p[0] + 7 * s} ${top[1]} L ${p[0] + 12 * s} ${p[1]} Z`, fill: "#7a6a4e", stroke: "#2b2118", "stroke-width": 0.8 }, grp);
    const hr = 0.11 * hgt / 1.5;
    el("circle", { cx: p[0], cy: top[1] - hr, r: hr, fill: "#f1d3b0", stroke: "#2b2118", "stroke-width": 0.8 }, grp);
    el("path", { d: `M ${p[0] - hr * 1.08} ${top[1] - hr * 1.2} Q ${p[0]} ${top[1] - hr * 3} ${p[0] + hr * 1.08} ${top[1] - hr * 1.2} Z`, fill: "#1d1712" }, grp);
    if (f.role === "節生") {
      const x = p[0] + 12 * s;
      el("line", { x1: x, y1: p[1], x2: x, y2: top[1] - hgt * 0.6, stroke: "#5a3b1a", "stroke-width": 2.2 * s }, grp);
      for (let i = 0; i < 3; i++) el("ellipse", { cx: x, cy: top[1] - hgt * (0.52 - i * 0.13), rx: 6 * s, ry: 5 * s, fill: "#c0392b", stroke: "#7c1f12", "stroke-width": 0.6 }, grp);
    } else if (f.role === "麾生") {
      const x = p[0] + 11 * s;
      el("line", { x1: x, y1: p[1], x2: x, y2: top[1] - hgt * 0.6, stroke: "#5a3b1a", "stroke-width": 2.2 * s }, grp);
      el("rect", { x: x, y: top[1] - hgt * 0.6, width: 22 * s, height: 30 * s, fill: "#d9b45a", stroke: "#7a5a14" }, grp);
    } else {
      const cy = top[1] + hgt * 0.25;
      if (pulse > 0) el("circle", { cx: p[0], cy: cy, r: (10 + 30 * (1 - pulse)) * s, fill: "none", stroke: "#b8862b", "stroke-width": 3 * pulse, opacity: pulse }, grp);
      if (f.role === "木鐸") el("path", { d: `M ${p[0] - 7 * s} ${cy + 7 * s} L ${p[0] - 4 * s} ${cy - 7 * s} L ${p[0] + 4 * s} ${cy - 7 * s} L ${p[0] + 7 * s} ${cy + 7 * s} Z`, fill: "#b8862b", stroke: "#5a4210" }, grp);
      else el("ellipse", { cx: p[0], cy: cy, rx: 10 * s, ry: 7 * s, fill: "#a3322a", stroke: "#5a1a12" }, grp);
    }
    const t = el("text", { x: p[0], y: p[1] + 18 * s + 6, "text-anchor": "middle", "font-size": 13, fill: "#6b5a3e" }, grp);
    t.textContent = label;
  }

  function drawGround(g) {
    const x0 = xSpan + 0.3, z0 = zMin - 0.9, z1 = zMax + 0.5;
    const c = [[-x0, z0], [x0, z0], [x0, z1], [-x0, z1]].map((q) => ground(q[0], q[1], MAIN));
    el("polygon", { points: c.map(P).join(" "), fill: "#ebe1c8", stroke: "#cdbd98" }, g);
    for (let z = z0 + 0.8; z <= z1; z += 1.6) {
      const a = ground(-x0, z, MAIN), b = ground(x0, z, MAIN);
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#ddd0b0", "stroke-width": 1 }, g);
    }
    const aisle = DATA.formation.aisle_m / 2 - 0.55;
    const a1 = [[-aisle, z0], [aisle, z0], [aisle, z1], [-aisle, z1]].map((q) => ground(q[0], q[1], MAIN));
    el("polygon", { points: a1.map(P).join(" "), fill: "#e3d5b3" }, g);
    const text = (x, y, str, attrs) => { const t = el("text", Object.assign({ x: x, y: y, "text-anchor": "middle" }, attrs), g); t.textContent = str; return t; };
    const e = ground(xSpan * 0.5, z0, MAIN), w = ground(-xSpan * 0.5, z0, MAIN);
    const hall = ground(0, z1, MAIN);
    const e2 = ground(xSpan * 0.55, z1, MAIN), w2 = ground(-xSpan * 0.55, z1, MAIN);
    text(e2[0], hall[1] + 28, "東班 east rank", { "font-size": 20, fill: "#a3322a", "font-weight": 700 });
    text(w2[0], hall[1] + 28, "西班 west rank", { "font-size": 20, fill: "#1f5d7a", "font-weight": 700 });
    el("rect", { x: 12, y: H - 40, width: 620, height: 30, rx: 4, fill: "#7d2a1c" }, g);
    text(MAIN.cx, H - 20, "大成殿 · 上 — seen from the hall, looking south over the courtyard", { "font-size": 14, fill: "#f5efe0" });
    text(MAIN.cx, 26, "南 · 下 (south)", { "font-size": 14, fill: "#7a6a58" });
    // the close-up: a panel behind the pair
    el("rect", { x: 648, y: 14, width: 440, height: H - 28, rx: 14, fill: "#fbf6ea", stroke: "#e2d6bd" }, g);
    text(NEAR.cx, 44, "the first 班 of each rank, close up", { "font-size": 15, fill: "#7a6a58" });
    const ce = ground(0.78, 0, NEAR), cw = ground(-0.78, 0, NEAR);
    text(ce[0], NEAR.top + 38, "東班", { "font-size": 20, fill: "#a3322a", "font-weight": 700 });
    text(cw[0], NEAR.top + 38, "西班", { "font-size": 20, fill: "#1f5d7a", "font-weight": 700 });
  }

  // ---------- timeline ----------
  const state = { t: 0, playing: false, speed: 1, last: null, sound: false };
  let audioCtx = null;
  const audio = $("music");
  function charAt(t) {               // the last character begun by time t (held through the gaps)
    let i = 0;
    for (let k = 0; k < chars.length; k++) if (t >= chars[k].start) i = k;
    return i;
  }
  const pointCache = new Map();
  function pointsOf(st) { const k = JSON.stringify(st); if (!pointCache.has(k)) pointCache.set(k, bodyPoints(st)); return pointCache.get(k); }
  function poseAt(i, rank, file, t) {
    const c = chars[i];
    const phases = c.poses[rank][file - 1];
    const n = phases.length;
    const frac = Math.min(0.9999, Math.max(0, (t - c.start) / (c.end - c.start)));
    const k = Math.min(n - 1, Math.floor(frac * n));
    const local = frac * n - k;
    const prev = k > 0 ? phases[k - 1] : (i > 0 ? lastPhase(i - 1, rank, file) : DATA.rest);
    const cur = phases[k];
    const ease = (x) => x < 0 ? 0 : x > 1 ? 1 : x * x * (3 - 2 * x);
    const u = ease(local / 0.45);
    return { st: lerpState(prev, cur, u), pts: lerpPoints(pointsOf(prev), pointsOf(cur), u), named: c.named[rank][file - 1] };
  }
  function lastPhase(i, rank, file) { const p = chars[i].poses[rank][file - 1]; return p[p.length - 1]; }

  function render() {
    while (stage.firstChild) stage.removeChild(stage.firstChild);
    stage.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const defs = el("defs", {}, stage);
    const m = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#b8862b" }, m);
    const g = el("g", {}, stage);
    el("rect", { x: 0, y: 0, width: W, height: H, fill: "#f5efe0" }, g);
    drawGround(g);
    const i = charAt(state.t);
    const c = chars[i];
    const sinceStart = state.t - c.start;
    const pulse = Math.max(0, 1 - sinceStart / 0.8);
    const order = figs.map((f, k) => k).sort((a, b) => figs[a].z - figs[b].z);
    for (const k of order) {
      const f = figs[k];
      if (f.role === "舞生") {
        const pose = poseAt(i, f.rank, f.file, state.t);
        drawDancer(g, [f.x, 0, f.z], pose.st, pose.pts, f.rank, !pose.named, MAIN);
      } else {
        drawStaff(g, f, f.role, f.role === "木鐸" || f.role === "相鼓" ? pulse : 0, MAIN);
      }
    }
    for (const [rank, x, yaw] of [["east", 0.78, -28], ["west", -0.78, 28]]) {
      const pose = poseAt(i, rank, 1, state.t);
      drawDancer(g, [x, 0, 0], pose.st, pose.pts, rank, false, NEAR, yaw);
    }
    updatePanel(i);
    $("scrub").value = String(state.t);
    $("time").textContent = `${state.t.toFixed(1)} / ${total.toFixed(1)} s`;
  }

  function esc(s) { return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch])); }
  function tokensHtml(tokens) { return tokens.map((t) => `<span class="tok" title="${esc(t.gloss)}">${esc(t.text)}</span>`).join("、"); }
  let shown = -1;
  function updatePanel(i) {
    if (i === shown) return;
    shown = i;
    const c = chars[i];
    $("char").textContent = c.char;
    $("pos").innerHTML = `<b>${c.index} / ${chars.length}</b><br>${esc(DATA.movement.title)}<br>${c.start.toFixed(1)}–${c.end.toFixed(1)} s`;
    [...$("verse").children].forEach((sp, k) => { sp.className = (k < i ? "done" : k === i ? "now" : "") + (chars[k].flags.length ? " flag" : ""); });
    $("east").innerHTML = `<h3>東班 EAST RANK</h3>${c.east.map((cl) => `<div>${esc(cl.subject)}：${tokensHtml(cl.tokens)}</div>`).join("")}`;
    $("west").innerHTML = `<h3>西班 WEST RANK</h3>${c.west.map((cl) => `<div>${esc(cl.subject)}：${tokensHtml(cl.tokens)}</div>`).join("")}`;
    $("flags").innerHTML = c.flags.map((f) => `<span class="badge ${f.kind === "asymmetry" ? "warn" : ""}">${esc(f.text)}</span>`).join("");
    $("gloss").innerHTML = c.gloss ? `<b>现代译文 (${esc(DATA.gloss_witness.title)})</b> ${esc(c.gloss)}` : "";
    $("others").innerHTML = c.others.map((o) => `<div><b>${esc(o.title)}</b>: ${esc(o.text)}</div>`).join("");
  }

  function bell() {
    if (!state.sound || !audioCtx) return;
    const t0 = audioCtx.currentTime;
    const o = audioCtx.createOscillator(), g = audioCtx.createGain();
    o.type = "triangle"; o.frequency.setValueAtTime(880, t0); o.frequency.exponentialRampToValueAtTime(660, t0 + 0.25);
    g.gain.setValueAtTime(0.12, t0); g.gain.exponentialRampToValueAtTime(0.001, t0 + 0.6);
    o.connect(g).connect(audioCtx.destination); o.start(t0); o.stop(t0 + 0.6);
    const d = audioCtx.createOscillator(), dg = audioCtx.createGain();
    d.type = "sine"; d.frequency.setValueAtTime(120, t0 + 0.12); d.frequency.exponentialRampToValueAtTime(60, t0 + 0.4);
    dg.gain.setValueAtTime(0.0001, t0); dg.gain.setValueAtTime(0.25, t0 + 0.12); dg.gain.exponentialRampToValueAtTime(0.001, t0 + 0.5);
    d.connect(dg).connect(audioCtx.destination); d.start(t0 + 0.1); d.stop(t0 + 0.55);
  }

  function tick(now) {
    if (!state.playing) return;
    if (state.last !== null) {
      const before = charAt(state.t);
      state.t = Math.min(total, state.t + (now - state.last) / 1000 * state.speed);
      if (charAt(state.t) !== before) bell();
      if (audio && !audio.paused && Math.abs(audio.currentTime - state.t) > 0.3) state.t = audio.currentTime;
      if (state.t >= total) setPlaying(false);
    }
    state.last = now;
    render();
    if (state.playing) requestAnimationFrame(tick);
  }
  function setPlaying(on) {
    state.playing = on; state.last = null;
    $("play").textContent = on ? "❚❚ pause" : "▶ play";
    if (on) {
      if (state.t >= total) state.t = 0;
      if (state.sound && !audioCtx && window.AudioContext) audioCtx = new AudioContext();
      if (audio) { audio.currentTime = state.t; audio.playbackRate = state.speed; audio.play().catch(() => {}); }
      bell();
      requestAnimationFrame(tick);
    } else if (audio) { audio.pause(); }
  }
  function show(i) {
    i = Math.max(0, Math.min(chars.length - 1, i));
    setPlaying(false);
    // the settled pose: late in the character's last phase
    state.t = chars[i].end - Math.min(0.05, (chars[i].end - chars[i].start) * 0.02);
    render();
    return chars[i].char;
  }

  // ---------- controls ----------
  function build() {
    const verse = $("verse");
    chars.forEach((c, k) => { const sp = document.createElement("span"); sp.textContent = c.char; sp.title = `${c.index}`; sp.onclick = () => show(k); verse.appendChild(sp); });
    $("scrub").max = String(total); $("scrub").step = "0.05";
    $("scrub").oninput = (e) => { setPlaying(false); state.t = parseFloat(e.target.value); render(); };
    $("play").onclick = () => setPlaying(!state.playing);
    $("prev").onclick = () => show(charAt(state.t) - 1);
    $("next").onclick = () => show(charAt(state.t) + 1);
    $("first").onclick = () => show(0);
    $("last").onclick = () => show(chars.length - 1);
    $("speed").onchange = (e) => { state.speed = parseFloat(e.target.value); if (audio) audio.playbackRate = state.speed; };
    $("sound").onchange = (e) => { state.sound = e.target.checked; if (state.sound && !audioCtx && window.AudioContext) audioCtx = new AudioContext(); };
    document.addEventListener("keydown", (e) => {
      if (e.key === " ") { e.preventDefault(); setPlaying(!state.playing); }
      else if (e.key === "ArrowRight") show(charAt(state.t) + 1);
      else if (e.key === "ArrowLeft") show(charAt(state.t) - 1);
    });
    window.addEventListener("resize", render);
  }
  window.dianliDance = { show, play: () => setPlaying(true), pause: () => setPlaying(false), count: chars.length };
  build();
  const m = /#char=(\d+)/.exec(location.hash);
  show(m ? parseInt(m[1], 10) - 1 : 0);
})();
