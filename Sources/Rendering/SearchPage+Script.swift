extension SearchPage {
    /// The page's script (inline, strict mode, no library): picture loading and preview,
    /// the region selector (pointer, keyboard, numeric field) in upright natural pixels,
    /// the calls to the `/v1` API with time limits, and the rendering of results, messages
    /// and the entity dialog. All text from the server is set with `textContent`, never as
    /// HTML.
    static let script = #"""
"use strict";
(() => {
const $ = (id) => document.getElementById(id);
const el = (tag, props, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
};
const params = new URLSearchParams(location.search);
const SEARCH_TIMEOUT_MS = Number(params.get("timeout_ms")) || 30000;
const GET_TIMEOUT_MS = 15000;
const api = (path) => new URL(path, document.baseURI).toString();
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const state = { file: null, objectURL: null, natural: null, region: null, drag: null, search: null,
  nextToken: null, shown: 0, query: "", history: [], entityCall: null };

// Options from the page's own URL (?page_size=3&deadline_ms=50&min_score=0.3&labels=a,b).
for (const [param, id] of [["page_size", "page-size"], ["deadline_ms", "deadline"]]) {
  const value = params.get(param);
  if (value && /^\d+$/.test(value)) {
    const select = $(id);
    if (![...select.options].some((o) => o.value === value)) select.append(el("option", { text: value, value }));
    select.value = value;
  }
}
if (params.get("labels")) $("labels").value = params.get("labels");
{
  const value = params.get("min_score");
  if (value && /^(0(\.\d+)?|1(\.0+)?)$/.test(value)) {
    if (![...$("min-score").options].some((o) => o.value === value)) $("min-score").append(el("option", { text: value, value }));
    $("min-score").value = value;
  }
}

// ---- Calls to the server -------------------------------------------------------------
class CallError extends Error {
  constructor(kind, status, body, retryAfter, message) {
    super(message || kind); this.kind = kind; this.status = status; this.body = body; this.retryAfter = retryAfter;
  }
}
// fetch with a time limit; resolves to the parsed JSON body of a 2xx answer, rejects with
// a CallError of kind "http" (with the JSON error body), "timeout", "network", "aborted".
async function call(url, options, timeoutMs, outer) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
  const relay = () => controller.abort();
  if (outer) { if (outer.aborted) controller.abort(); else outer.addEventListener("abort", relay); }
  try {
    let response, text;
    try {
      response = await fetch(url, { ...options, signal: controller.signal, cache: "no-store" });
      text = await response.text();
    } catch (error) {
      if (timedOut) throw new CallError("timeout", 0, null, null, `no answer within ${Math.round(timeoutMs / 1000)} s`);
      if (controller.signal.aborted) throw new CallError("aborted");
      throw new CallError("network", 0, null, null, String(error && error.message || error));
    }
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch (_) { body = null; }
    if (!response.ok) throw new CallError("http", response.status, body, response.headers.get("Retry-After"));
    if (body === null || typeof body !== "object") throw new CallError("http", response.status, null, null, "the answer is not JSON");
    return body;
  } finally {
    clearTimeout(timer);
    if (outer) outer.removeEventListener("abort", relay);
  }
}

// A readable message for a failed call: [headline, detail].
function describe(error, what) {
  const serverMessage = error.body && typeof error.body.message === "string" ? error.body.message : "";
  const code = error.body && typeof error.body.error === "string" ? ` (${error.body.error})` : "";
  switch (error.kind) {
    case "timeout": return [`The server did not answer in time`, `${what}: ${error.message}. It may be busy or stuck; try again.`];
    case "network": return [`Cannot reach the Glimpse server`, `${what} failed: the server at ${location.host} did not answer (${error.message}). Is glimpse serve still running?`];
    case "aborted": return [`Cancelled`, `${what} was cancelled.`];
  }
  const status = error.status;
  if (status === 413) return [`The file is too large`, serverMessage || `The server refused the upload (HTTP 413).`];
  if (status === 415 || status === 422) return [`This file cannot be searched`, `${serverMessage || "The server cannot read it as an image."}${code}`];
  if (status === 429) {
    const wait = Number(error.retryAfter);
    return [`The server is busy`, `Too many searches at once${Number.isFinite(wait) && wait > 0 ? `; try again in ${wait} s` : "; try again shortly"}.`];
  }
  if (status === 410) return [`These results have expired`, `${serverMessage || "The server no longer holds this ranking."} Search again to see more.`];
  if (status === 404) return [`Not found`, serverMessage || `${what}: nothing by that id (HTTP 404).`];
  if (status === 503) {
    const wait = Number(error.retryAfter);
    return [`The server is unavailable`, `${serverMessage || "It cannot answer right now."}${Number.isFinite(wait) && wait > 0 ? ` Try again in ${wait} s.` : ""}`];
  }
  if (status >= 500) return [`The server failed (HTTP ${status})`, `${serverMessage || error.message}${code}`];
  if (status >= 400) return [`The request was refused (HTTP ${status})`, `${serverMessage || error.message}${code}`];
  return [`Unexpected answer (HTTP ${status})`, serverMessage || error.message];
}

// Scrolls `node` into view when it is outside the window (the results panel is below
// the picture on a narrow window).
function reveal(node) {
  const box = node.getBoundingClientRect();
  if (box.top > window.innerHeight * 0.6 || box.bottom < 0) node.scrollIntoView({ block: "start" });
}
function showAlert(headline, detail) {
  const box = $("alert");
  box.replaceChildren(el("strong", { text: headline }), detail ? document.createTextNode(detail) : "");
  box.hidden = false;
  reveal($("results-heading"));
}
function clearAlert() { $("alert").hidden = true; $("alert").replaceChildren(); }
function setStatus(text, busy) {
  const status = $("status");
  status.replaceChildren();
  if (busy) {
    status.append(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text }),
      el("button", { type: "button", id: "cancel", text: "Cancel", onclick: () => state.search && state.search.abort() }));
  } else if (text) status.append(el("span", { text }));
}

// ---- The picture -------------------------------------------------------------------
const SIGNATURES = [
  ["PNG", [0x89, 0x50, 0x4e, 0x47]], ["JPEG", [0xff, 0xd8, 0xff]], ["GIF", [0x47, 0x49, 0x46, 0x38]],
  ["BMP", [0x42, 0x4d]], ["TIFF", [0x49, 0x49, 0x2a, 0x00]], ["TIFF", [0x4d, 0x4d, 0x00, 0x2a]],
];
// What the server decodes (ImageDecoder), whether or not this browser can display it.
const SERVER_FORMATS = new Set(["PNG", "JPEG", "WebP", "HEIC", "AVIF"]);
async function sniff(file) {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  for (const [name, bytes] of SIGNATURES) if (bytes.every((b, i) => head[i] === b)) return name;
  const ascii = String.fromCharCode(...head);
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "WebP";
  if (ascii.slice(4, 8) === "ftyp") {
    const brand = ascii.slice(8, 12);
    if (/^(avif|avis)$/.test(brand)) return "AVIF";
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return "HEIC";
  }
  return null;
}

async function choose(file) {
  if (!file) return;
  if (state.search) { const search = state.search; state.search = null; search.abort(); }
  if (state.objectURL) URL.revokeObjectURL(state.objectURL);
  state.file = file; state.natural = null; state.region = null; state.objectURL = URL.createObjectURL(file);
  resetResults();
  clearAlert();
  $("file-name").textContent = `${file.name || "pasted picture"} · ${formatBytes(file.size)}`;
  $("file-name").hidden = false;
  $("drop").classList.add("compact");
  $("drop-text").hidden = true;
  $("choose").textContent = "Choose another…";
  $("note").hidden = true;
  $("search").disabled = false;
  setRegionEnabled(false);
  const format = await sniff(file).catch(() => null);
  if (file !== state.file) return;
  const img = $("picture");
  img.onload = () => {
    if (file !== state.file) return;
    // naturalWidth/Height are the upright size: the browser applies the EXIF orientation.
    state.natural = { w: img.naturalWidth, h: img.naturalHeight };
    img.alt = `The picture to search, ${state.natural.w} × ${state.natural.h} pixels`;
    setRegionEnabled(true);
    drawSelection();
    setStatus(`${state.natural.w} × ${state.natural.h} pixels. Select a region or search the whole picture.`);
  };
  img.onerror = () => {
    if (file !== state.file) return;
    $("stage").hidden = true;
    const what = format ? `a ${format} file` : "a file this browser does not recognise";
    const note = $("note");
    note.replaceChildren(el("strong", { text: "No preview" }),
      document.createTextNode(format
        ? `This browser cannot display ${what}, so no region can be drawn here: Search sends the whole picture${SERVER_FORMATS.has(format) ? `, which Glimpse reads` : " and shows what the server says"}.`
        : `This does not look like a picture (${what}). Search sends it anyway and shows what the server says.`));
    note.hidden = false;
    setStatus("");
  };
  $("stage").hidden = false;
  img.src = state.objectURL;
}

function formatBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

$("file").addEventListener("change", (event) => { choose(event.target.files[0]); });
const drop = $("drop");
for (const type of ["dragenter", "dragover"]) document.addEventListener(type, (event) => {
  if ([...(event.dataTransfer && event.dataTransfer.types || [])].includes("Files")) { event.preventDefault(); drop.classList.add("over"); }
});
for (const type of ["dragleave", "dragend"]) document.addEventListener(type, (event) => {
  if (!event.relatedTarget) drop.classList.remove("over");
});
document.addEventListener("drop", (event) => {
  drop.classList.remove("over");
  const file = event.dataTransfer && event.dataTransfer.files[0];
  if (file) { event.preventDefault(); choose(file); }
});
document.addEventListener("paste", (event) => {
  const file = [...(event.clipboardData && event.clipboardData.files || [])][0];
  if (file) { event.preventDefault(); choose(file); }
});

// ---- The region, in upright natural pixels -----------------------------------------------
function setRegionEnabled(enabled) {
  $("region").disabled = !enabled; $("whole").disabled = !enabled;
  $("frame").tabIndex = enabled ? 0 : -1;
  if (!enabled) { $("region").value = ""; $("selection").hidden = true; setRegionError(""); }
}
function setRegionError(text) {
  $("region-error").textContent = text; $("region-error").hidden = !text;
  $("region").setAttribute("aria-invalid", text ? "true" : "false");
}
// Natural pixels per displayed CSS pixel, on each axis.
function scale() {
  const box = $("picture").getBoundingClientRect();
  return { box, sx: state.natural.w / box.width, sy: state.natural.h / box.height };
}
function clampRegion(r) {
  const { w: W, h: H } = state.natural;
  let x = Math.min(Math.max(0, Math.round(r.x)), W - 1), y = Math.min(Math.max(0, Math.round(r.y)), H - 1);
  let w = Math.max(1, Math.min(Math.round(r.w), W - x)), h = Math.max(1, Math.min(Math.round(r.h), H - y));
  return { x, y, w, h };
}
function setRegion(region, fromField) {
  state.region = region;
  if (!fromField) $("region").value = region ? `${region.x},${region.y},${region.w},${region.h}` : "";
  setRegionError("");
  drawSelection();
}
function drawSelection() {
  const selection = $("selection");
  if (!state.region || !state.natural) { selection.hidden = true; return; }
  const { sx, sy } = scale();
  const r = state.region;
  Object.assign(selection.style, { left: `${r.x / sx}px`, top: `${r.y / sy}px`, width: `${r.w / sx}px`, height: `${r.h / sy}px` });
  selection.hidden = false;
}
new ResizeObserver(() => drawSelection()).observe($("picture"));

const frame = $("frame");
function pointAt(event) {
  const { box, sx, sy } = scale();
  const x = Math.min(Math.max(event.clientX - box.left, 0), box.width), y = Math.min(Math.max(event.clientY - box.top, 0), box.height);
  return { x: x * sx, y: y * sy, dx: x, dy: y };
}
// What a press at display point p does: resize (the bottom-right handle), move (inside
// the selection) or draw a new one.
function dragMode(p) {
  const r = state.region;
  if (!r) return "draw";
  const { sx, sy } = scale();
  const right = (r.x + r.w) / sx, bottom = (r.y + r.h) / sy;
  if (Math.abs(p.dx - right) <= 12 && Math.abs(p.dy - bottom) <= 12) return "resize";
  if (p.dx >= r.x / sx && p.dx <= right && p.dy >= r.y / sy && p.dy <= bottom) return "move";
  return "draw";
}
const CURSORS = { draw: "crosshair", move: "move", resize: "nwse-resize" };
frame.addEventListener("pointerdown", (event) => {
  if (!state.natural || event.button !== 0) return;
  event.preventDefault();
  frame.focus({ preventScroll: true });
  frame.setPointerCapture(event.pointerId);
  const p = pointAt(event);
  state.drag = { mode: dragMode(p), start: p, region: state.region && { ...state.region }, moved: false };
});
function dragTo(event) {
  const d = state.drag, p = pointAt(event), a = d.start;
  if (!d.moved && Math.abs(p.dx - a.dx) < 3 && Math.abs(p.dy - a.dy) < 3) return;
  d.moved = true;
  const { w: W, h: H } = state.natural, r = d.region;
  if (d.mode === "move") {
    setRegion(clampRegion({ x: Math.min(Math.max(0, r.x + p.x - a.x), W - r.w), y: Math.min(Math.max(0, r.y + p.y - a.y), H - r.h), w: r.w, h: r.h }));
  } else if (d.mode === "resize") {
    setRegion(clampRegion({ x: r.x, y: r.y, w: Math.max(1, p.x - r.x), h: Math.max(1, p.y - r.y) }));
  } else {
    setRegion(clampRegion({ x: Math.min(a.x, p.x), y: Math.min(a.y, p.y), w: Math.abs(p.x - a.x), h: Math.abs(p.y - a.y) }));
  }
}
frame.addEventListener("pointermove", (event) => {
  if (state.drag) { dragTo(event); return; }
  if (state.natural) frame.style.cursor = CURSORS[dragMode(pointAt(event))];
});
frame.addEventListener("pointerup", (event) => {
  if (!state.drag) return;
  dragTo(event);
  const d = state.drag;
  state.drag = null;
  if (!d.moved && d.mode === "draw") setRegion(null); // a click outside the selection: the whole picture
});
frame.addEventListener("pointercancel", () => { state.drag = null; });
frame.addEventListener("keydown", (event) => {
  if (!state.natural) return;
  const { w: W, h: H } = state.natural;
  if (event.key === "Escape") { setRegion(null); event.preventDefault(); return; }
  if (event.key === "Enter") { event.preventDefault(); $("query").requestSubmit(); return; }
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  const r = state.region || { x: Math.round(W / 4), y: Math.round(H / 4), w: Math.round(W / 2), h: Math.round(H / 2) };
  if (!state.region) { setRegion(clampRegion(r)); return; }
  const stepX = event.altKey ? 1 : Math.max(1, Math.round(W / 50)), stepY = event.altKey ? 1 : Math.max(1, Math.round(H / 50));
  const next = { ...r };
  if (event.shiftKey) { next.w = r.w + move[0] * stepX; next.h = r.h + move[1] * stepY; }
  else { next.x = Math.min(Math.max(0, r.x + move[0] * stepX), W - r.w); next.y = Math.min(Math.max(0, r.y + move[1] * stepY), H - r.h); }
  setRegion(clampRegion(next));
});
// The numeric field: "x,y,w,h" (spaces or commas), empty for the whole picture.
function parseRegionField() {
  const text = $("region").value.trim();
  if (!text) return { region: null };
  const parts = text.split(/[\s,]+/);
  if (parts.length !== 4 || !parts.every((p) => /^\d+$/.test(p))) return { error: "Write four whole numbers: x, y, width, height (or leave it empty for the whole picture)." };
  const [x, y, w, h] = parts.map(Number);
  if (w < 1 || h < 1) return { error: "Width and height must be at least 1 pixel." };
  if (state.natural && (x + w > state.natural.w || y + h > state.natural.h))
    return { error: `The region must lie inside the picture (${state.natural.w} × ${state.natural.h} pixels).` };
  return { region: { x, y, w, h } };
}
$("region").addEventListener("input", () => {
  const parsed = parseRegionField();
  if (parsed.error) { setRegionError(parsed.error); return; }
  setRegion(parsed.region, true);
});
$("whole").addEventListener("click", () => setRegion(null));

// ---- Searching ----------------------------------------------------------------------
function resetResults() {
  state.nextToken = null; state.shown = 0;
  $("grid").replaceChildren(); $("more").hidden = true; $("partial").hidden = true;
  $("empty").hidden = false; $("empty").textContent = "Choose a picture and press Search. Results appear here.";
  setStatus("");
}
function thumbnailURL(kind, id) { return api(`v1/${kind === "collection" ? "collections" : "landmarks"}/${encodeURIComponent(id)}/thumbnail`); }
function entityURL(kind, id, withProps) {
  const base = api(`v1/${kind === "collection" ? "collections" : "landmarks"}/${encodeURIComponent(id)}`);
  return withProps ? `${base}?with=${encodeURIComponent(withProps)}` : base;
}
function thumbnail(kind, id, title, className) {
  const img = el("img", { class: className, alt: "", loading: "lazy", decoding: "async", src: thumbnailURL(kind, id) });
  img.addEventListener("error", () => img.replaceWith(el("span", { class: "placeholder", "aria-hidden": "true", text: (title || id || "?").trim().charAt(0).toUpperCase() })));
  return img;
}
function card(result, rank) {
  const kind = result.kind === "collection" ? "collection" : "landmark";
  const title = result.title || result.id;
  const score = Number(result.score);
  const label = `${title}${result.subtitle ? `, ${result.subtitle}` : ""}, ${kind}, score ${Number.isFinite(score) ? score.toFixed(2) : "unknown"}`;
  const button = el("button", { type: "button", class: `card ${kind}`, "aria-label": label, "data-id": result.id, "data-kind": kind,
      onclick: () => openEntity(kind, result.id, false) },
    thumbnail(kind, result.id, title, "thumb"),
    el("span", { class: "rank", "aria-hidden": "true", text: String(rank) }),
    el("span", { class: "body" },
      el("span", { class: "title", text: title }),
      result.subtitle ? el("span", { class: "subtitle", text: result.subtitle }) : null,
      el("span", { class: "meta" },
        el("span", { class: "badge", text: kind === "collection" ? "Collection" : "Landmark" }),
        el("span", { class: `score${score >= 0.8 ? " high" : ""}`, text: Number.isFinite(score) ? score.toFixed(2) : "–" }))));
  return el("li", {}, button);
}
function showPage(page, first) {
  const results = Array.isArray(page.results) ? page.results : [];
  const grid = $("grid");
  const firstNew = state.shown;
  for (const result of results) grid.append(card(result, ++state.shown));
  state.nextToken = typeof page.next_page_token === "string" && page.next_page_token ? page.next_page_token : null;
  $("more").hidden = !state.nextToken;
  $("empty").hidden = state.shown > 0;
  if (page.partial) {
    $("partial").replaceChildren(el("strong", { text: "Partial results" }),
      document.createTextNode("The search reached its deadline before it had compared the whole catalog: a better match may be missing or ranked lower. Search again with a longer deadline (Options) for the full ranking."));
    $("partial").hidden = false;
  }
  if (state.shown === 0) {
    $("empty").replaceChildren(el("strong", { text: page.partial ? "Nothing found before the deadline." : "No match." }), el("br"),
      document.createTextNode(page.partial ? "The search stopped before it had compared the whole catalog. Search again with a longer deadline (Options)."
        : `Nothing in the catalog looks like ${state.query}. Try a tighter region around the subject, the whole picture, or other labels.`));
  }
  const elapsed = Number.isFinite(page.elapsed_ms) ? ` in ${Math.round(page.elapsed_ms)} ms` : "";
  setStatus(state.shown === 0 ? `No match${elapsed}.`
    : `${plural(state.shown, "result", "results")} for ${state.query}${elapsed}${state.nextToken ? "" : " (all shown)"}.`);
  if (!first && results.length) grid.children[firstNew].querySelector("button").focus();
  // On a narrow window the results are below the picture: bring them into view.
  if (first) reveal($("results-heading"));
}

$("query").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.file) { showAlert("No picture", "Choose or drop a picture first."); return; }
  let region = null;
  if (state.natural) {
    const parsed = parseRegionField();
    if (parsed.error) { setRegionError(parsed.error); $("region").focus(); return; }
    region = parsed.region;
  }
  const query = new URLSearchParams();
  if (region) query.set("region", `${region.x},${region.y},${region.w},${region.h}`);
  const labels = $("labels").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (labels.length) query.set("labels", labels.join(","));
  query.set("page_size", $("page-size").value);
  if ($("deadline").value) query.set("deadline_ms", $("deadline").value);
  if ($("min-score").value) query.set("min_score", $("min-score").value);
  if (state.search) state.search.abort();
  const controller = new AbortController();
  state.search = controller;
  resetResults(); clearAlert();
  state.query = region ? `the region at ${region.x},${region.y} (${region.w} × ${region.h} px)` : "the whole picture";
  setStatus(`Searching ${state.query}…`, true);
  $("search").disabled = true;
  try {
    const page = await call(api(`v1/search?${query}`), { method: "POST", body: state.file,
      headers: { "Content-Type": state.file.type || "application/octet-stream" } }, SEARCH_TIMEOUT_MS, controller.signal);
    if (state.search !== controller) return;
    showPage(page, true);
  } catch (error) {
    if (error.kind === "aborted") { if (state.search === controller) setStatus("Search cancelled."); return; }
    if (state.search !== controller) return;
    const [headline, detail] = describe(error, "The search");
    const name = state.file && state.file.name ? `“${state.file.name}”: ` : "";
    showAlert(headline, (error.status === 413 || error.status === 415 || error.status === 422) ? name + detail : detail);
    setStatus("");
    $("empty").hidden = true;
  } finally {
    if (state.search === controller) { state.search = null; $("search").disabled = !state.file; }
  }
});

$("more").addEventListener("click", async () => {
  if (!state.nextToken) return;
  const controller = new AbortController();
  if (state.search) state.search.abort();
  state.search = controller;
  const more = $("more");
  more.disabled = true;
  clearAlert();
  setStatus("Loading more results…", true);
  try {
    const page = await call(api(`v1/search?page_token=${encodeURIComponent(state.nextToken)}`), { method: "GET" }, GET_TIMEOUT_MS, controller.signal);
    if (state.search !== controller) return;
    showPage(page, false);
  } catch (error) {
    if (error.kind === "aborted") { if (state.search === controller) setStatus(`${plural(state.shown, "result", "results")} shown.`); return; }
    const [headline, detail] = describe(error, "Loading more results");
    showAlert(headline, detail);
    setStatus(`${plural(state.shown, "result", "results")} shown.`);
    if (error.status === 410) { state.nextToken = null; more.hidden = true; }
  } finally {
    more.disabled = false;
    if (state.search === controller) state.search = null;
  }
});

// ---- The entity dialog -----------------------------------------------------------------
const dialog = $("entity");
$("entity-close").addEventListener("click", () => dialog.close());
$("entity-back").addEventListener("click", () => {
  state.history.pop();
  const previous = state.history.pop();
  if (previous) openEntity(previous.kind, previous.id, false);
});
dialog.addEventListener("close", () => { state.history = []; if (state.entityCall) state.entityCall.abort(); });
dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });

async function openEntity(kind, id, withProps) {
  if (state.entityCall) state.entityCall.abort();
  const controller = new AbortController();
  state.entityCall = controller;
  if (!withProps) state.history.push({ kind, id });
  $("entity-back").hidden = state.history.length < 2;
  const content = $("entity-content");
  if (!withProps) content.replaceChildren(el("div", { class: "entity-body" },
    el("p", { class: "status" }, el("span", { class: "spinner", "aria-hidden": "true" }), el("span", { text: "Loading…" })),
    el("h2", { id: "entity-title", class: "visually-hidden", text: id })));
  if (!dialog.open) dialog.showModal();
  try {
    const entity = await call(entityURL(kind, id, withProps), { method: "GET" }, GET_TIMEOUT_MS, controller.signal);
    if (state.entityCall !== controller) return;
    renderEntity(kind, id, entity);
  } catch (error) {
    if (error.kind === "aborted") return;
    const [headline, detail] = describe(error, `Opening ${id}`);
    const message = el("div", { class: "message error", role: "alert" }, el("strong", { text: headline }), document.createTextNode(detail));
    if (withProps) { const slot = $("deferred"); if (slot) slot.replaceChildren(message); else content.prepend(message); }
    else content.replaceChildren(el("div", { class: "entity-body" }, el("h2", { id: "entity-title", text: id }), message));
  } finally {
    if (state.entityCall === controller) state.entityCall = null;
  }
}

const SHOWN = new Set(["kind", "id", "url", "title", "subtitle", "thumbnail", "display", "display_representation",
  "description", "continent", "keywords", "location", "images", "collections", "landmarks", "related", "image_statistics", "deferred"]);
function renderEntity(kind, id, entity) {
  const display = entity.display_representation || entity.display || {};
  const title = entity.title || display.title || id;
  const subtitle = entity.subtitle || display.subtitle;
  const isCollection = (entity.kind || kind) === "collection";
  const facts = el("dl");
  const fact = (name, value) => { if (value !== undefined && value !== null && value !== "") facts.append(el("dt", { text: name }), el("dd", { text: String(value) })); };
  fact("About", entity.description);
  fact("Continent", entity.continent);
  if (Array.isArray(entity.keywords) && entity.keywords.length) fact("Keywords", entity.keywords.join(", "));
  if (entity.location && Number.isFinite(entity.location.latitude)) fact("Location", `${entity.location.latitude.toFixed(4)}, ${entity.location.longitude.toFixed(4)}`);
  if (Array.isArray(entity.images)) fact("Reference images", entity.images.length);
  fact("Id", entity.id || id);
  fact("URL", entity.url);
  for (const [key, value] of Object.entries(entity)) {
    if (SHOWN.has(key) || value === null || typeof value === "object") continue;
    fact(key.replace(/_/g, " "), value);
  }
  const related = entity.collections || entity.landmarks || entity.related || [];
  const relatedKind = isCollection ? "landmark" : "collection";
  const relatedList = el("ul", { class: "grid related" });
  for (const item of related) {
    const itemKind = item.kind === "collection" || item.kind === "landmark" ? item.kind : relatedKind;
    const itemTitle = item.title || (item.display_representation && item.display_representation.title) || item.id;
    relatedList.append(el("li", {}, el("button", { type: "button", class: `card ${itemKind}`, "data-id": item.id,
        "aria-label": `${itemTitle}, ${itemKind}`, onclick: () => openEntity(itemKind, item.id, false) },
      thumbnail(itemKind, item.id, itemTitle, "thumb"),
      el("span", { class: "body" }, el("span", { class: "title", text: itemTitle }),
        item.subtitle ? el("span", { class: "subtitle", text: item.subtitle }) : null))));
  }
  const relatedHeading = isCollection ? `${plural(related.length, "landmark", "landmarks")} in this collection`
    : related.length ? `In ${plural(related.length, "collection", "collections")}` : "In no collection";
  const deferred = el("div", { id: "deferred" });
  if (entity.image_statistics) deferred.append(statistics(entity.image_statistics));
  else if (!isCollection) deferred.append(el("button", { type: "button", id: "load-statistics", text: "Show image statistics",
    onclick: (event) => { event.target.disabled = true; event.target.textContent = "Computing…"; openEntity(kind, id, "image-statistics"); } }));
  const head = el("div", { class: "entity-head" }, thumbnail(isCollection ? "collection" : "landmark", entity.id || id, title, ""),
    el("div", {}, el("span", { class: `badge`, text: isCollection ? "Collection" : "Landmark" }),
      el("h2", { id: "entity-title", text: title }), subtitle ? el("p", { class: "subtitle", text: subtitle }) : null));
  head.classList.add(isCollection ? "collection" : "landmark");
  $("entity-content").replaceChildren(head, el("div", { class: "entity-body" }, facts,
    el("h3", { text: relatedHeading }), related.length ? relatedList : null,
    isCollection ? null : el("h3", { text: "Deferred properties" }), deferred,
    el("h3", { text: "Export" }),
    el("p", { class: "actions" }, ...[["json", "JSON"], ["text", "Text"], ["png", "Thumbnail (PNG)"]].map(([format, name]) =>
      el("a", { class: "button", href: `${entityURL(isCollection ? "collection" : "landmark", entity.id || id)}/export?as=${format}`,
        download: `${String(entity.id || id).replace(/[^A-Za-z0-9._-]+/g, "-")}.${format === "text" ? "txt" : format}`, text: name })))));
  $("entity-close").focus();
}
function statistics(stats) {
  const box = el("div", {});
  box.append(el("p", { text: stats.searchable === false ? "Not searchable: no informative view." : "Searchable." }));
  const images = Array.isArray(stats.images) ? stats.images : [];
  if (images.length) {
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...["Image", "Size", "Views", "Informative", "Quality"].map((t) => el("th", { text: t })))));
    const body = el("tbody");
    for (const image of images) body.append(el("tr", {}, ...[String(image.path || "").split("/").pop(),
      image.file_size === null || image.file_size === undefined ? "missing" : formatBytes(image.file_size),
      image.views, image.informative_views, image.mean_quality].map((v) => el("td", { text: v === undefined ? "" : String(v) }))));
    table.append(body);
    box.append(table);
  } else box.append(el("pre", { text: JSON.stringify(stats, null, 2) }));
  return box;
}
})();
"""#
}
