/* matjip chat page: POST /v1/chat and read its Server-Sent Events with a stream reader
 * (EventSource cannot POST). Events: session, plan, results, clarification, answer, trace, error, end. */
(function () {
  "use strict";

  const $ = (sel) => document.querySelector(sel);
  const log = $("#log");
  const form = $("#chat-form");
  const input = $("#message");
  const sendBtn = $("#send");
  const statusEl = $("#status");
  const gpsChip = $("#gps-chip");
  const locateBtn = $("#locate");
  const cardTemplate = $("#card-template");
  const SESSION_KEY = "matjip.session";

  const map = new window.MatjipMap($("#map"));
  map.loadBase();
  map.onMarkerClick = (card) => highlightCard(card.id, true);

  let sessionId = sessionStorage.getItem(SESSION_KEY) || null;
  let pendingGps = null; // {lat, lon} sent with the next message
  let busy = false;

  // --- helpers -----------------------------------------------------------------------------
  function elem(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }

  // --- safe markdown: **bold**, "- " lists, "1. " lists, paragraphs and line breaks, and CommonMark's
  // backslash escapes (answers escape crawled "[", "<" and "\\": agent/markdown.py). Every piece of
  // text is set with textContent / text nodes, so markup in the data is shown, never run; there are
  // no links or images.
  const unescapeMd = (text) => text.replace(/\\([!-\/:-@[-`{-~])/g, "$1");

  function inlineMd(parent, text) {
    for (const part of text.split(/(\*\*[^*\n]+?\*\*)/)) {
      if (!part) continue;
      if (part.length > 4 && part.startsWith("**") && part.endsWith("**")) {
        parent.appendChild(elem("strong", null, unescapeMd(part.slice(2, -2))));
      } else {
        parent.appendChild(document.createTextNode(unescapeMd(part)));
      }
    }
  }

  function renderMarkdown(text) {
    const frag = document.createDocumentFragment();
    let list = null;
    let para = null;
    for (const raw of String(text).split("\n")) {
      const line = raw.replace(/\s+$/, "");
      const bullet = /^\s*[-*•]\s+(.*)$/.exec(line);
      const numbered = /^\s*(\d{1,3})[.)]\s+(.*)$/.exec(line);
      if (bullet || numbered) {
        const tag = bullet ? "UL" : "OL";
        if (!list || list.tagName !== tag) {
          list = elem(tag.toLowerCase());
          if (numbered) list.start = Number(numbered[1]);
          frag.appendChild(list);
        }
        const li = elem("li");
        inlineMd(li, bullet ? bullet[1] : numbered[2]);
        list.appendChild(li);
        para = null;
        continue;
      }
      list = null;
      if (!line.trim()) { para = null; continue; }
      if (para) para.appendChild(document.createElement("br"));
      else { para = elem("p"); frag.appendChild(para); }
      inlineMd(para, line);
    }
    return frag;
  }
  window.matjipRenderMarkdown = renderMarkdown;

  const OPEN_STATES = ["open", "closing_soon", "break", "before_open", "closed_now", "day_off", "unknown"];

  function safeUrl(url) { return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null; }

  function won(n) { return typeof n === "number" ? n.toLocaleString("ko-KR") + "원" : ""; }

  function scrollDown() { log.scrollTop = log.scrollHeight; }

  function setStatus(text) { statusEl.textContent = text || ""; }

  function setBusy(value) {
    busy = value;
    sendBtn.disabled = value;
    input.readOnly = value;
    document.querySelectorAll(".choice, .example").forEach((b) => { b.disabled = value; });
  }

  // --- messages ----------------------------------------------------------------------------
  function addUser(text, withGps) {
    const msg = elem("div", "msg user");
    const bubble = elem("div", "bubble", text);
    if (withGps) bubble.appendChild(elem("span", "meta-loc", "· 내 위치 포함"));
    msg.appendChild(bubble);
    log.appendChild(msg);
    scrollDown();
  }

  function addAssistant() {
    const msg = elem("div", "msg assistant");
    msg.dataset.testid = "assistant-message";
    const bubble = elem("div", "bubble pending answer");
    bubble.dataset.testid = "answer";
    msg.appendChild(bubble);
    log.appendChild(msg);
    scrollDown();
    return { msg, bubble, raw: "", plan: null, trace: null, cards: [], sort: null };
  }

  function renderCards(turn, cards) {
    turn.cards = cards;
    let box = turn.msg.querySelector(".cards");
    if (!box) {
      box = elem("div", "cards");
      box.dataset.testid = "cards";
      turn.msg.insertBefore(box, turn.bubble.nextSibling);
    }
    box.textContent = "";
    cards.forEach((card, i) => box.appendChild(cardNode(card, i + 1)));
    map.setMarkers(cards);
    scrollDown();
  }

  function cardNode(card, n) {
    const node = cardTemplate.content.firstElementChild.cloneNode(true);
    node.dataset.id = card.id;
    node.dataset.testid = "card";
    node.querySelector(".badge").textContent = String(n);
    node.querySelector(".card-name").textContent = card.name;
    const meta = [card.cuisine, card.category && card.category !== card.cuisine ? card.category : null];
    if (typeof card.distance_m === "number") meta.push(window.matjipFormatDistance(card.distance_m));
    node.querySelector(".card-meta").textContent = meta.filter(Boolean).join(" · ");
    const chips = node.querySelector(".chips");
    for (const m of card.matched || []) chips.appendChild(elem("li", null, m));
    if (!chips.children.length) chips.remove();
    const menus = node.querySelector(".menus");
    for (const m of (card.menus || []).slice(0, 3)) {
      const li = elem("li");
      li.append(elem("span", null, m.name), elem("span", "price", won(m.price)));
      menus.appendChild(li);
    }
    if (!menus.children.length) menus.remove();
    const status = node.querySelector(".open-status");
    if (card.open_status && card.open_status.label) {
      status.textContent = card.open_status.label;
      if (OPEN_STATES.includes(card.open_status.state)) status.classList.add(card.open_status.state);
    } else if (card.source_type === "web") {
      node.querySelector(".card-status").remove();
    } else {
      status.textContent = "영업시간 정보 없음";
    }
    const facts = [];
    if (typeof card.rating === "number") {
      facts.push("★ " + card.rating.toFixed(1) + (card.review_count ? ` (리뷰 ${card.review_count.toLocaleString("ko-KR")})` : ""));
    }
    if (card.price_band) {
      const pb = card.price_band;
      const range = pb.min_won === pb.max_won ? won(pb.min_won) : `${won(pb.min_won)}~${won(pb.max_won)}`;
      facts.push(`${pb.label} (메뉴 ${range})`);
    }
    if (typeof card.walk_minutes === "number" && typeof card.travel_minutes !== "number") facts.push(`도보 약 ${card.walk_minutes}분`);
    // seed 003's strategies (issue 14): a course stop, a place along a route, a travel estimate
    if (typeof card.stop === "number") {
      const day = card.day_group && card.day_group > 1 ? `${card.day_group}일차 · ` : "";
      facts.unshift(`${day}${card.slot || ""} · ${card.trip_role || ""}`.trim());
      if (typeof card.leg_minutes === "number") facts.push(`앞 장소에서 약 ${card.leg_minutes}분`);
    }
    if (card.route_note) facts.push(card.route_note);
    if (typeof card.travel_minutes === "number") facts.push(`${card.travel_estimate ? "약 " : ""}${card.travel_minutes}분 거리`);
    if (card.source_type === "kakao") facts.push("카카오 실시간 (저장 안 함)");
    if (card.source_type === "google") facts.push("Google 실시간 (저장 안 함)");
    const factsEl = node.querySelector(".card-facts");
    if (facts.length) factsEl.textContent = facts.join(" · "); else factsEl.remove();
    const maps = node.querySelector(".card-maps");
    for (const link of card.map_links || []) {
      const href = safeUrl(link.url);
      if (!href) continue;
      const a = elem("a", "card-map ghost small" + (link.kind === "directions" ? " directions" : ""), link.label);
      a.href = href;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.dataset.testid = link.kind === "directions" ? "directions-link" : "map-link";
      a.addEventListener("click", (ev) => ev.stopPropagation());
      maps.appendChild(a);
    }
    const hours = node.querySelector(".card-hours");
    if (card.hours_today) hours.textContent = "오늘 " + card.hours_today; else hours.remove();
    const addr = node.querySelector(".card-address");
    if (card.address) addr.textContent = card.address; else addr.remove();
    const tel = node.querySelector(".card-tel");
    if (card.telephone) { tel.hidden = false; tel.href = "tel:" + card.telephone; tel.textContent = "전화 " + card.telephone; }
    const web = node.querySelector(".card-web");
    const detail = node.querySelector(".card-detail");
    if (card.source_type === "web") {
      detail.remove();
      const href = safeUrl(card.url);
      if (href) { web.hidden = false; web.href = href; }
    } else {
      detail.addEventListener("click", (ev) => { ev.stopPropagation(); toggleDetail(node, card.id); });
    }
    node.addEventListener("click", () => { highlightCard(card.id, false); map.focus(card.id); });
    node.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { highlightCard(card.id, false); map.focus(card.id); } });
    return node;
  }

  // --- sort and "더 보기": POST /v1/results re-runs the session's last search as a plan with
  // another order, or without the places already shown ---------------------------------------
  const SORTS = [["relevance", "추천 순"], ["distance", "가까운 순"], ["rating", "평점 순"], ["price", "가격 순"]];

  function internalIds(turn) { return turn.cards.filter((c) => !c.source_type || c.source_type === "internal").map((c) => c.id); }

  function addResultTools(turn) {
    const internal = turn.cards.filter((c) => !c.source_type || c.source_type === "internal");
    // a course is an order of stops, not a list to sort or page
    if (!sessionId || !turn.plan || turn.plan.intent !== "search" || turn.plan.strategy === "course" || !internal.length) return;
    // only the latest search can be paged: older tools would page the newest search
    document.querySelectorAll(".result-tools, .more-btn").forEach((n) => n.remove());
    turn.sort = turn.plan.sort || "relevance";
    const bar = elem("div", "result-tools");
    bar.dataset.testid = "sort-bar";
    bar.appendChild(elem("span", "label", "정렬"));
    const hasPoint = !!(turn.plan.location && typeof turn.plan.location.lat === "number");
    for (const [key, label] of SORTS) {
      const b = elem("button", "sort-btn ghost small", label);
      b.type = "button";
      b.dataset.sort = key;
      b.setAttribute("aria-pressed", String(key === turn.sort));
      if (key === "distance" && !hasPoint) { b.disabled = true; b.title = "기준 위치가 있는 검색에서만 쓸 수 있어요"; }
      b.addEventListener("click", () => { if (key !== turn.sort) loadResults(turn, key, false); });
      bar.appendChild(b);
    }
    const box = turn.msg.querySelector(".cards");
    turn.msg.insertBefore(bar, box);
    const more = elem("button", "more-btn ghost", "더 보기");
    more.type = "button";
    more.dataset.testid = "more";
    more.addEventListener("click", () => loadResults(turn, turn.sort, true));
    box.after(more);
    turn.moreBtn = more;
    turn.bar = bar;
  }

  async function loadResults(turn, sort, append) {
    if (busy) return;
    setBusy(true);
    turn.bar.querySelectorAll("button").forEach((b) => { b.dataset.wasDisabled = String(b.disabled); b.disabled = true; });
    turn.moreBtn.disabled = true;
    setStatus(append ? "결과를 더 불러오는 중…" : "다시 정렬하는 중…");
    let exhausted = false;
    try {
      const r = await fetch("/v1/results", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ session_id: sessionId, sort, exclude_ids: append ? internalIds(turn) : [] }),
      });
      const body = await r.json();
      if (!r.ok) { setStatus(body.detail || "결과를 불러오지 못했습니다."); return; }
      const fresh = body.cards || [];
      exhausted = !!body.exhausted;
      turn.sort = sort;
      if (body.plan) { turn.plan = body.plan; renderDebug(turn); }
      const start = append ? turn.cards.length : 0;
      renderCards(turn, append ? turn.cards.concat(fresh) : fresh);
      const first = turn.msg.querySelectorAll(".card")[start];
      if (append && first) first.scrollIntoView({ block: "nearest", inline: "start" });
      setStatus((body.notes || []).join(" ") || (append && !fresh.length ? "더 보여 드릴 곳이 없어요." : ""));
    } catch (err) {
      setStatus("결과를 불러오지 못했습니다.");
    } finally {
      turn.bar.querySelectorAll("button").forEach((b) => {
        b.disabled = b.dataset.wasDisabled === "true";
        b.setAttribute("aria-pressed", String(b.dataset.sort === turn.sort));
      });
      turn.moreBtn.disabled = exhausted;
      turn.moreBtn.textContent = exhausted ? "더 없어요" : "더 보기";
      setBusy(false);
    }
  }

  function highlightCard(id, scroll) {
    document.querySelectorAll(".card.active").forEach((c) => c.classList.remove("active"));
    const cards = document.querySelectorAll(`.card[data-id="${CSS.escape(id)}"]`);
    const card = cards[cards.length - 1];
    if (!card) return;
    card.classList.add("active");
    if (scroll) card.scrollIntoView({ behavior: "smooth", block: "nearest", inline: "nearest" });
  }

  async function toggleDetail(node, id) {
    const more = node.querySelector(".card-more");
    if (!more.hidden) { more.hidden = true; return; }
    more.hidden = false;
    more.textContent = "불러오는 중…";
    try {
      const r = await fetch("/v1/restaurants/" + encodeURIComponent(id), { headers: { Accept: "application/json" } });
      const doc = await r.json();
      if (!r.ok) { more.textContent = doc.detail || "정보를 불러오지 못했습니다."; return; }
      const lines = [];
      if (doc.summary) lines.push(doc.summary);
      if (doc.hours && doc.hours.raw) lines.push("영업시간: " + doc.hours.raw);
      if (doc.rating) lines.push("평점: " + doc.rating + (doc.review_count ? ` (${doc.review_count}건)` : ""));
      const menu = (doc.menus || []).slice(0, 8).map((m) => `${m.name}${m.price ? " " + won(m.price) : ""}`);
      if (menu.length) lines.push("메뉴: " + menu.join(", "));
      const tags = [...(doc.convenience || []), ...(doc.atmosphere || []), ...(doc.occasion || [])];
      if (tags.length) lines.push("특징: " + tags.join(", "));
      if (doc.reviews && doc.reviews.length) lines.push("리뷰: “" + doc.reviews[0].slice(0, 120) + "”");
      more.textContent = lines.join("\n") || "추가 정보가 없습니다.";
    } catch (err) {
      more.textContent = "정보를 불러오지 못했습니다.";
    }
  }

  function renderClarification(turn, clar) {
    const box = elem("div", "choices");
    box.dataset.testid = "choices";
    if (clar.kind === "gps") {
      const b = elem("button", "choice", "내 위치 보내기");
      b.type = "button";
      b.addEventListener("click", () => {
        locate(() => send("내 위치"));
      });
      box.appendChild(b);
    }
    for (const c of clar.choices || []) {
      const b = elem("button", "choice", c.label);
      b.type = "button";
      b.dataset.index = String(c.index);
      b.addEventListener("click", () => {
        box.querySelectorAll("button").forEach((x) => { x.disabled = true; });
        send(c.label);
      });
      box.appendChild(b);
    }
    turn.msg.appendChild(box);
    map.setChoices(clar.choices || []);
    scrollDown();
  }

  function renderDebug(turn) {
    let details = turn.msg.querySelector("details.debug");
    if (!details) {
      details = elem("details", "debug");
      details.dataset.testid = "debug";
      details.appendChild(elem("summary", null, "검색 계획 · 처리 과정 보기"));
      turn.msg.appendChild(details);
    }
    while (details.children.length > 1) details.lastChild.remove();
    if (turn.plan) {
      details.appendChild(elem("div", null, "검색 계획"));
      details.appendChild(elem("pre", "plan", JSON.stringify(turn.plan, null, 2)));
    }
    if (turn.trace && turn.trace.length) {
      const table = elem("table", "trace");
      const head = elem("tr");
      head.append(elem("th", null, "단계"), elem("th", null, "ms"), elem("th", null, "결정"));
      table.appendChild(head);
      let total = 0;
      for (const t of turn.trace) {
        total += t.ms || 0;
        const tr = elem("tr");
        tr.append(elem("td", null, t.node), elem("td", "ms", (t.ms || 0).toFixed(1)), elem("td", null, t.decision || ""));
        table.appendChild(tr);
      }
      const tr = elem("tr");
      tr.append(elem("th", null, "합계"), elem("td", "ms", total.toFixed(1)), elem("td"));
      table.appendChild(tr);
      details.appendChild(table);
    }
  }

  function showError(turn, problem) {
    const text = (problem && (problem.detail || problem.title)) || "오류가 발생했습니다.";
    const box = elem("div", "error", text);
    box.dataset.testid = "error";
    box.setAttribute("role", "alert");
    turn.msg.appendChild(box);
    scrollDown();
  }

  // --- SSE over fetch ----------------------------------------------------------------------
  function parseFrame(frame) {
    let event = "message";
    const data = [];
    for (const line of frame.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const idx = line.indexOf(":");
      const field = idx < 0 ? line : line.slice(0, idx);
      let value = idx < 0 ? "" : line.slice(idx + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (!data.length) return null;
    const raw = data.join("\n");
    let parsed = raw;
    if (event !== "end") {
      try { parsed = JSON.parse(raw); } catch (err) { parsed = raw; }
    }
    return { event, data: parsed };
  }

  async function* readEvents(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder("utf-8");
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const ev = parseFrame(frame);
        if (ev) yield ev;
      }
    }
    buffer += decoder.decode();
    if (buffer.trim()) { const ev = parseFrame(buffer); if (ev) yield ev; }
  }

  async function send(message, display) {
    if (busy) return;
    const text = (message || "").trim();
    if (!text) return;
    const gps = pendingGps;
    addUser(display || text, !!gps);
    const turn = addAssistant();
    setBusy(true);
    setStatus("답변을 만드는 중…");
    const body = { message: text };
    if (sessionId) body.session_id = sessionId;
    if (gps) body.location = gps;
    clearGps();
    let answered = false;
    try {
      const response = await fetch("/v1/chat", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        let problem = null;
        try { problem = await response.json(); } catch (err) { problem = null; }
        if (response.status === 429) {
          const wait = response.headers.get("Retry-After");
          problem = { detail: `요청이 너무 많습니다. ${wait || "잠시"}초 후 다시 시도해 주세요.` };
        }
        showError(turn, problem);
        return;
      }
      for await (const { event, data } of readEvents(response)) {
        switch (event) {
          case "session":
            if (data && data.session_id) {
              sessionId = data.session_id;
              sessionStorage.setItem(SESSION_KEY, sessionId);
            }
            break;
          case "plan":
            // a new search: 정렬 and 더 보기 of an earlier one would page this one
            if (!turn.plan) document.querySelectorAll(".result-tools, .more-btn").forEach((n) => n.remove());
            turn.plan = data;
            renderDebug(turn);
            break;
          case "results":
            renderCards(turn, Array.isArray(data) ? data : []);
            break;
          case "clarification":
            renderClarification(turn, data || {});
            break;
          case "answer":
            answered = true;
            turn.raw += String(data);
            turn.bubble.replaceChildren(renderMarkdown(turn.raw));
            scrollDown();
            break;
          case "answer_reset":
            turn.raw = "";
            turn.bubble.replaceChildren();
            break;
          case "trace":
            turn.trace = data;
            renderDebug(turn);
            break;
          case "error":
            showError(turn, data);
            break;
          case "end":
            break;
          default:
            break;
        }
      }
    } catch (err) {
      showError(turn, { detail: "서버와 연결이 끊어졌습니다. 다시 시도해 주세요." });
    } finally {
      turn.bubble.classList.remove("pending");
      if (!answered && !turn.raw) turn.bubble.remove();
      addResultTools(turn);
      turn.msg.dataset.done = "true";
      setBusy(false);
      setStatus("");
      scrollDown();
      input.focus();
    }
  }

  // --- GPS (seed 002: the position travels with the next message) ---------------------------
  function clearGps() {
    pendingGps = null;
    gpsChip.hidden = true;
    locateBtn.classList.remove("on");
  }

  function locate(then) {
    if (!navigator.geolocation) { setStatus("이 브라우저는 위치 기능을 지원하지 않습니다."); return; }
    setStatus("위치를 확인하는 중…");
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        pendingGps = { lat: pos.coords.latitude, lon: pos.coords.longitude };
        gpsChip.hidden = false;
        locateBtn.classList.add("on");
        map.setMe(pendingGps.lat, pendingGps.lon);
        setStatus("");
        if (then) then();
      },
      (err) => {
        setStatus(err && err.code === 1 ? "위치 권한이 거부되었습니다." : "위치를 가져오지 못했습니다.");
      },
      { enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 },
    );
  }

  // --- wiring ------------------------------------------------------------------------------
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value;
    if (!text.trim() || busy) return;
    input.value = "";
    autosize();
    send(text);
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
  function autosize() {
    input.style.height = "auto";
    input.style.height = Math.min(input.scrollHeight, 120) + "px";
  }
  input.addEventListener("input", autosize);
  document.querySelectorAll(".example").forEach((b) => b.addEventListener("click", () => send(b.textContent)));
  locateBtn.addEventListener("click", () => locate(null));
  $("#gps-clear").addEventListener("click", clearGps);
  $("#osm-toggle").addEventListener("change", (ev) => map.setTiles(ev.target.checked));
  $("#zoom-in").addEventListener("click", () => map.zoomBy(1.5));
  $("#zoom-out").addEventListener("click", () => map.zoomBy(1 / 1.5));
  $("#zoom-fit").addEventListener("click", () => map.fit());
  $("#new-chat").addEventListener("click", () => {
    sessionId = null;
    sessionStorage.removeItem(SESSION_KEY);
    log.querySelectorAll(".msg").forEach((m) => m.remove());
    map.setMarkers([]);
    map.setChoices([]);
    setStatus("새 대화를 시작합니다.");
    input.focus();
  });
  const toggleMap = $("#toggle-map");
  toggleMap.addEventListener("click", () => {
    const panel = $("#map-panel");
    const collapsed = panel.classList.toggle("collapsed");
    toggleMap.textContent = collapsed ? "지도 펼치기" : "지도 접기";
    toggleMap.setAttribute("aria-expanded", String(!collapsed));
    if (!collapsed) map.render();
  });
  (async () => {
    try {
      const r = await fetch("/v1/coverage", { headers: { Accept: "application/json" } });
      if (!r.ok) return;
      const body = await r.json();
      const el = $("[data-testid=coverage]");
      if (el && body.summary) { el.textContent = "데이터 범위: " + body.summary; el.hidden = false; }
    } catch (err) { /* the page works without it */ }
  })();
  window.matjip = { send, map };
})();
