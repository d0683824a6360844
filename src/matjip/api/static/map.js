/* An offline map in SVG: administrative boundaries (GeoJSON from /v1/geo/...) drawn with our own
 * Web-Mercator projection, numbered result markers, "my location", optional OSM tiles (opt-in).
 *
 * Coordinates: "world" = Web-Mercator pixels at zoom 10 minus an origin near Seoul, so numbers stay
 * small and precise. The view is (center in world px, k = screen px per world px).
 * Screen = (world - center) * k + size / 2. Zoom level of the view = 10 + log2(k).
 */
(function () {
  "use strict";

  const SVG_NS = "http://www.w3.org/2000/svg";
  const BASE_ZOOM = 10;
  const WORLD = 256 * Math.pow(2, BASE_ZOOM);
  const MIN_K = 0.25; // zoom 8
  const MAX_K = 256; // zoom 18
  const FIT_MAX_K = 8; // fitting never zooms in beyond zoom 13 (keeps district context)
  const TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

  function mercX(lon) { return ((lon + 180) / 360) * WORLD; }
  function mercY(lat) {
    const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
    return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * WORLD;
  }
  const ORIGIN = { x: mercX(126.978), y: mercY(37.5665) };
  function project(lat, lon) { return { x: mercX(lon) - ORIGIN.x, y: mercY(lat) - ORIGIN.y }; }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function ringPath(ring) {
    let d = "";
    for (let i = 0; i < ring.length; i++) {
      const p = project(ring[i][1], ring[i][0]);
      d += (i ? "L" : "M") + p.x.toFixed(2) + " " + p.y.toFixed(2);
    }
    return d + "Z";
  }

  function geometryPath(geom) {
    if (!geom) return "";
    if (geom.type === "Polygon") return geom.coordinates.map(ringPath).join("");
    if (geom.type === "MultiPolygon") return geom.coordinates.map((poly) => poly.map(ringPath).join("")).join("");
    return "";
  }

  function bboxOf(points) {
    const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (const p of points) {
      b.x0 = Math.min(b.x0, p.x); b.y0 = Math.min(b.y0, p.y);
      b.x1 = Math.max(b.x1, p.x); b.y1 = Math.max(b.y1, p.y);
    }
    return b;
  }

  function largestRingCentroid(geom) {
    const polys = geom.type === "Polygon" ? [geom.coordinates] : geom.type === "MultiPolygon" ? geom.coordinates : [];
    let best = null, bestArea = 0;
    for (const poly of polys) {
      const pts = poly[0].map((c) => project(c[1], c[0]));
      let a = 0, cx = 0, cy = 0;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const f = pts[j].x * pts[i].y - pts[i].x * pts[j].y;
        a += f; cx += (pts[j].x + pts[i].x) * f; cy += (pts[j].y + pts[i].y) * f;
      }
      if (Math.abs(a) > bestArea && a !== 0) { bestArea = Math.abs(a); best = { x: cx / (3 * a), y: cy / (3 * a) }; }
    }
    return best;
  }

  class MatjipMap {
    constructor(container) {
      this.container = container;
      this.svg = container.querySelector("svg");
      this.gTiles = this.svg.querySelector("#map-tiles");
      this.gBase = this.svg.querySelector("#map-base");
      this.gLabels = this.svg.querySelector("#map-labels");
      this.gMe = this.svg.querySelector("#map-me");
      this.gMarkers = this.svg.querySelector("#map-markers");
      this.popup = container.querySelector("#map-popup");
      this.labels = [];
      this.markers = [];
      this.choices = [];
      this.me = null;
      this.tiles = false;
      this.center = { x: 0, y: 0 };
      this.k = 1.2;
      this.onMarkerClick = null;
      this.activeId = null;
      this._bindInteraction();
      new ResizeObserver(() => this.render()).observe(container);
    }

    size() { return { w: this.container.clientWidth || 1, h: this.container.clientHeight || 1 }; }

    toScreen(p) {
      const { w, h } = this.size();
      return { x: (p.x - this.center.x) * this.k + w / 2, y: (p.y - this.center.y) * this.k + h / 2 };
    }

    async loadBase() {
      try {
        const [sgg, gu] = await Promise.all([
          fetch("/v1/geo/korea_sigungu?region=capital").then((r) => (r.ok ? r.json() : null)),
          fetch("/v1/geo/seoul_gu").then((r) => (r.ok ? r.json() : null)),
        ]);
        const frag = document.createDocumentFragment();
        const seoulCodes = new Set();
        for (const f of (gu && gu.features) || []) seoulCodes.add(String(f.properties.SIG_CD || ""));
        for (const f of (sgg && sgg.features) || []) {
          const code = String(f.properties.code || "");
          if (code.startsWith("11")) continue; // Seoul is drawn from seoul_gu
          const d = geometryPath(f.geometry);
          if (!d) continue;
          const path = el("path", { d, class: "sgg" }, frag);
          el("title", {}, path).textContent = f.properties.name || "";
          const c = largestRingCentroid(f.geometry);
          if (c) this.labels.push({ p: c, text: f.properties.name || "", cls: "label sgg-label", minK: 1.6 });
        }
        for (const f of (gu && gu.features) || []) {
          const d = geometryPath(f.geometry);
          if (!d) continue;
          const path = el("path", { d, class: "gu" }, frag);
          el("title", {}, path).textContent = f.properties.SIG_KOR_NM || "";
          const c = largestRingCentroid(f.geometry);
          if (c) this.labels.push({ p: c, text: f.properties.SIG_KOR_NM || "", cls: "label", minK: 0.9 });
        }
        this.gBase.appendChild(frag);
        this.container.dataset.baseLoaded = "true";
      } catch (err) {
        console.warn("base map failed", err);
      }
      this.render();
    }

    setTiles(on) {
      this.tiles = !!on;
      this.container.classList.toggle("tiles-on", this.tiles);
      const attribution = this.container.querySelector("#map-attribution");
      if (attribution) {
        attribution.textContent = this.tiles ? "© OpenStreetMap contributors · 경계: 통계청" : "경계: 통계청·행정안전부";
      }
      this.render();
    }

    setMarkers(cards) {
      this.markers = [];
      this.choices = [];
      (cards || []).forEach((card, i) => {
        if (typeof card.lat === "number" && typeof card.lon === "number") {
          this.markers.push({ n: i + 1, card, p: project(card.lat, card.lon) });
        }
      });
      this.activeId = null;
      this.hidePopup();
      this.fit();
    }

    setChoices(choices) {
      this.choices = (choices || [])
        .filter((c) => typeof c.lat === "number" && typeof c.lon === "number")
        .map((c) => ({ n: c.index, label: c.label, p: project(c.lat, c.lon) }));
      if (this.choices.length) this.fit(this.choices.map((c) => c.p));
      else this.render();
    }

    setMe(lat, lon) {
      this.me = lat == null ? null : { p: project(lat, lon) };
      if (this.me && !this.markers.length) { this.center = { ...this.me.p }; this.k = Math.max(this.k, 16); }
      this.render();
    }

    fit(points) {
      let pts = points || this.markers.map((m) => m.p);
      if (!points && this.me) pts = pts.concat([this.me.p]);
      if (!pts.length) { this.render(); return; }
      const b = bboxOf(pts);
      const { w, h } = this.size();
      const bw = Math.max(b.x1 - b.x0, 1e-6), bh = Math.max(b.y1 - b.y0, 1e-6);
      let k = Math.min((w * 0.75) / bw, (h * 0.7) / bh);
      k = Math.max(MIN_K, Math.min(FIT_MAX_K, k));
      this.k = k;
      this.center = { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 };
      this.render();
    }

    zoomBy(factor, at) {
      const { w, h } = this.size();
      const sx = at ? at.x : w / 2, sy = at ? at.y : h / 2;
      const before = { x: (sx - w / 2) / this.k + this.center.x, y: (sy - h / 2) / this.k + this.center.y };
      this.k = Math.max(MIN_K, Math.min(MAX_K, this.k * factor));
      this.center = { x: before.x - (sx - w / 2) / this.k, y: before.y - (sy - h / 2) / this.k };
      this.render();
    }

    focus(id) {
      const m = this.markers.find((x) => x.card.id === id);
      if (!m) return;
      this.activeId = id;
      this.center = { ...m.p };
      this.k = Math.max(this.k, 24);
      this.render();
      this.showPopup(m);
    }

    showPopup(m) {
      const s = this.toScreen(m.p);
      const dist = typeof m.card.distance_m === "number" ? " · " + formatDistance(m.card.distance_m) : "";
      this.popup.innerHTML = "";
      const strong = document.createElement("strong");
      strong.textContent = m.n + ". " + m.card.name;
      const span = document.createElement("span");
      span.textContent = (m.card.cuisine || "") + dist;
      this.popup.append(strong, span);
      this.popup.style.left = s.x + "px";
      this.popup.style.top = s.y + "px";
      this.popup.hidden = false;
      this.popupFor = m;
    }

    hidePopup() { this.popup.hidden = true; this.popupFor = null; }

    render() {
      const { w, h } = this.size();
      const k = this.k;
      const tx = w / 2 - this.center.x * k, ty = h / 2 - this.center.y * k;
      this.gBase.setAttribute("transform", `matrix(${k} 0 0 ${k} ${tx} ${ty})`);
      this._renderTiles(w, h);
      // labels
      this.gLabels.textContent = "";
      for (const l of this.labels) {
        if (k < l.minK) continue;
        const s = this.toScreen(l.p);
        if (s.x < -50 || s.y < -20 || s.x > w + 50 || s.y > h + 20) continue;
        el("text", { x: s.x.toFixed(1), y: s.y.toFixed(1), class: l.cls }, this.gLabels).textContent = l.text;
      }
      // my location
      this.gMe.textContent = "";
      if (this.me) {
        const s = this.toScreen(this.me.p);
        el("circle", { cx: s.x, cy: s.y, r: 16, class: "me-halo" }, this.gMe);
        const dot = el("circle", { cx: s.x, cy: s.y, r: 7, class: "me-dot", "data-testid": "me-marker" }, this.gMe);
        el("title", {}, dot).textContent = "내 위치";
      }
      // clarification candidates
      this.gMarkers.textContent = "";
      for (const c of this.choices) {
        const s = this.toScreen(c.p);
        const g = el("g", { class: "choice-pin", transform: `translate(${s.x.toFixed(1)} ${s.y.toFixed(1)})` }, this.gMarkers);
        el("circle", { r: 11 }, g);
        el("text", {}, g).textContent = String(c.n);
        el("title", {}, g).textContent = c.label;
      }
      // a course (issue 14): its stops joined in the order to visit them
      const stops = this.markers.filter((m) => typeof m.card.stop === "number").sort((a, b) => a.card.stop - b.card.stop);
      if (stops.length > 1) {
        const d = stops.map((m, i) => {
          const s = this.toScreen(m.p);
          return `${i ? "L" : "M"}${s.x.toFixed(1)} ${s.y.toFixed(1)}`;
        }).join(" ");
        el("path", { d, class: "course-line", "data-testid": "course-line" }, this.gMarkers);
      }
      // result markers (last first so #1 is drawn on top)
      for (const m of [...this.markers].reverse()) {
        const s = this.toScreen(m.p);
        const g = el("g", {
          class: "marker" + (m.card.id === this.activeId ? " active" : ""),
          transform: `translate(${s.x.toFixed(1)} ${s.y.toFixed(1)})`,
          "data-id": m.card.id,
          "data-testid": "map-marker",
          tabindex: 0,
          role: "button",
          "aria-label": `${m.n}. ${m.card.name}`,
        }, this.gMarkers);
        el("circle", { r: 13 }, g);
        el("text", {}, g).textContent = String(m.n);
        el("title", {}, g).textContent = `${m.n}. ${m.card.name}`;
        const open = (ev) => {
          ev.stopPropagation();
          this.activeId = m.card.id;
          this.render();
          this.showPopup(m);
          if (this.onMarkerClick) this.onMarkerClick(m.card);
        };
        g.addEventListener("click", open);
        g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") open(ev); });
      }
      if (this.popupFor) {
        const s = this.toScreen(this.popupFor.p);
        this.popup.style.left = s.x + "px";
        this.popup.style.top = s.y + "px";
      }
    }

    _renderTiles(w, h) {
      this.gTiles.textContent = "";
      if (!this.tiles) return;
      const z = Math.max(0, Math.min(19, Math.round(BASE_ZOOM + Math.log2(this.k))));
      const scale = Math.pow(2, z - BASE_ZOOM); // tile px per world px
      const tileWorld = 256 / scale; // world px per tile
      const left = this.center.x - w / 2 / this.k + ORIGIN.x, top = this.center.y - h / 2 / this.k + ORIGIN.y;
      const right = left + w / this.k, bottom = top + h / this.k;
      const n = Math.pow(2, z);
      const x0 = Math.floor(left / tileWorld), x1 = Math.floor(right / tileWorld);
      const y0 = Math.max(0, Math.floor(top / tileWorld)), y1 = Math.min(n - 1, Math.floor(bottom / tileWorld));
      if ((x1 - x0 + 1) * (y1 - y0 + 1) > 80) return;
      const sizePx = tileWorld * this.k;
      for (let x = x0; x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          const wx = ((x % n) + n) % n;
          const s = this.toScreen({ x: x * tileWorld - ORIGIN.x, y: y * tileWorld - ORIGIN.y });
          el("image", {
            href: TILE_URL.replace("{z}", z).replace("{x}", wx).replace("{y}", y),
            x: s.x.toFixed(1), y: s.y.toFixed(1), width: (sizePx + 0.5).toFixed(1), height: (sizePx + 0.5).toFixed(1),
            preserveAspectRatio: "none",
          }, this.gTiles);
        }
      }
    }

    _bindInteraction() {
      const svg = this.svg;
      const pointers = new Map();
      let last = null, pinch = null;
      svg.addEventListener("pointerdown", (ev) => {
        if (ev.target.closest && ev.target.closest(".marker")) return;
        svg.setPointerCapture(ev.pointerId);
        pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
        last = { x: ev.clientX, y: ev.clientY };
        svg.classList.add("dragging");
        this.hidePopup();
      });
      svg.addEventListener("pointermove", (ev) => {
        if (!pointers.has(ev.pointerId)) return;
        pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
        if (pointers.size === 2) {
          const [a, b] = [...pointers.values()];
          const dist = Math.hypot(a.x - b.x, a.y - b.y);
          const rect = svg.getBoundingClientRect();
          const mid = { x: (a.x + b.x) / 2 - rect.left, y: (a.y + b.y) / 2 - rect.top };
          if (pinch) this.zoomBy(dist / pinch, mid);
          pinch = dist;
          return;
        }
        if (!last) return;
        this.center.x -= (ev.clientX - last.x) / this.k;
        this.center.y -= (ev.clientY - last.y) / this.k;
        last = { x: ev.clientX, y: ev.clientY };
        this.render();
      });
      const end = (ev) => {
        pointers.delete(ev.pointerId);
        if (pointers.size < 2) pinch = null;
        if (pointers.size === 0) { last = null; svg.classList.remove("dragging"); }
        else last = [...pointers.values()][0];
      };
      svg.addEventListener("pointerup", end);
      svg.addEventListener("pointercancel", end);
      svg.addEventListener("wheel", (ev) => {
        ev.preventDefault();
        const rect = svg.getBoundingClientRect();
        this.zoomBy(ev.deltaY < 0 ? 1.25 : 0.8, { x: ev.clientX - rect.left, y: ev.clientY - rect.top });
      }, { passive: false });
    }
  }

  function formatDistance(m) {
    return m < 1000 ? Math.round(m) + "m" : (m / 1000).toFixed(1) + "km";
  }

  window.MatjipMap = MatjipMap;
  window.matjipFormatDistance = formatDistance;
})();
