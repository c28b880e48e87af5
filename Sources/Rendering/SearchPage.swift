import Foundation

/// The search page that `glimpse serve` answers at `GET /`: one self-contained HTML
/// document (inline CSS from ``PageStyle`` and an inline script, no fonts, scripts or images
/// from anywhere else) where a person drops, pastes or picks a picture, sees it upright,
/// drags a rectangle over it (or types `x,y,w,h`, or moves it with the keyboard) to select
/// a region in the picture's own upright pixel coordinates, optionally adds labels, and
/// gets the `POST /v1/search` results as a two-column grid of landmark and collection
/// cards; "More results" appends the next page through its page token, and a card opens the
/// entity (details, related entities, deferred properties on demand).
///
/// Every request has a time limit (`AbortController`) and every failure a message: no
/// match, a partial (deadline) page, a refused file (413/415/422), a busy server (429 with
/// `Retry-After`), an expired page (410), a server error, no network. A picture the browser
/// cannot display (HEIC, say) is still searched as a whole image, with a note.
///
/// Compiled in, so a single `glimpse` binary serves it with nothing beside it.
public enum SearchPage {
    /// The page, UTF-8 HTML, its script marked with `nonce` (``makeNonce()``, fresh for
    /// every response). Serve it as `text/html; charset=utf-8` with
    /// ``contentSecurityPolicy(nonce:)`` of the same nonce, so that the browser runs this
    /// script and no other (an injected inline script lacks the nonce). About 40 KB.
    ///
    /// - Complexity: O(page size): one concatenation of the parts built once.
    public static func html(nonce: String) -> String {
        parts.head + nonce + parts.tail
    }

    /// The document before and after its script's nonce, built once.
    static let parts: (head: String, tail: String) = (
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Glimpse: search by picture</title>
        <style>\(PageStyle.css)\(style)</style></head>
        <body>
        \(body)
        <script nonce="
        """,
        """
        ">\(script)</script>
        </body></html>

        """)

    /// A fresh nonce for one response: 128 random bits, base64. O(1).
    public static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The Content-Security-Policy header the page is written for: scripts only with the
    /// response's `nonce`, styles from the page itself, pictures also from `blob:` (the
    /// preview) and `data:`, requests to the same origin, and nothing from any other origin.
    ///
    /// - Complexity: O(1).
    public static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src 'self' blob: data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// The page's own rules, after the shared stylesheet.
    static let style = #"""
main.search{display:grid;grid-template-columns:minmax(0,5fr) minmax(0,6fr);gap:24px;align-items:start}
@media (max-width:820px){main.search{grid-template-columns:minmax(0,1fr);gap:16px}}
.panel{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:14px}
.drop{display:flex;flex-direction:column;align-items:center;gap:6px;padding:18px 12px;text-align:center;border:2px dashed var(--line);border-radius:var(--radius);background:var(--sunk)}
.drop p{margin:0}
.drop.over{border-color:var(--accent);background:var(--info-bg)}
.drop.compact{flex-direction:row;flex-wrap:wrap;justify-content:space-between;padding:8px 10px;text-align:left}
.drop .file-name{font-weight:600;overflow-wrap:anywhere;min-width:0}
#note.message{margin:12px 0 0}
.stage{margin:12px 0 0;display:flex;justify-content:center;background:var(--sunk);border-radius:8px;padding:8px}
.frame{position:relative;display:inline-block;max-width:100%;line-height:0;overflow:hidden;touch-action:none;cursor:crosshair;user-select:none;-webkit-user-select:none}
.frame img{display:block;max-width:100%;max-height:62vh;width:auto;height:auto;image-orientation:from-image;pointer-events:none}
.frame:focus-visible{outline:3px solid var(--accent);outline-offset:3px}
.selection{position:absolute;border:2px solid #fff;outline:2px solid var(--accent);box-shadow:0 0 0 9999px rgba(0,0,0,.45);pointer-events:none}
.selection::after{content:"";position:absolute;right:-6px;bottom:-6px;width:10px;height:10px;background:var(--accent);border:2px solid #fff;border-radius:2px}
form.query{display:flex;flex-direction:column;gap:12px;margin:12px 0 0}
.field{display:flex;flex-direction:column;gap:4px;min-width:0}
.row{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.row>input{flex:1 1 160px;width:auto}
.row>select{width:auto}
details.advanced summary{cursor:pointer;font-weight:600;font-size:13px;color:var(--muted)}
details.advanced .row{margin-top:8px}
.actions{display:flex;gap:8px;flex-wrap:wrap}
.results-head{display:flex;justify-content:space-between;align-items:baseline;gap:8px;flex-wrap:wrap}
.status{min-height:24px;color:var(--muted);margin:0 0 10px;display:flex;align-items:center;gap:8px;flex-wrap:wrap}
.spinner{width:16px;height:16px;border:2px solid var(--line);border-top-color:var(--accent);border-radius:50%;animation:spin .8s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:3s}}
.more{display:flex;justify-content:center;margin:16px 0 0}
.empty{color:var(--muted);text-align:center;padding:32px 8px;border:1px dashed var(--line);border-radius:var(--radius)}
.rank{position:absolute;top:6px;left:6px;background:rgba(0,0,0,.6);color:#fff;font-size:12px;font-weight:700;border-radius:999px;padding:0 7px;line-height:20px}
dialog.entity{width:min(720px,calc(100vw - 24px));max-height:calc(100vh - 24px);padding:0;border:1px solid var(--line);border-radius:var(--radius);background:var(--card);color:var(--fg)}
dialog.entity::backdrop{background:rgba(0,0,0,.5)}
.entity-head{display:flex;gap:14px;padding:16px;border-bottom:1px solid var(--line);align-items:flex-start}
.entity-head img,.entity-head .placeholder{flex:none;width:132px;height:99px;object-fit:cover;border-radius:8px;background:var(--sunk);display:flex;align-items:center;justify-content:center;font-size:28px;font-weight:700;color:var(--muted)}
.entity-head h2{font-size:19px;margin:2px 0}
.entity-head .subtitle{color:var(--muted);margin:0 0 6px}
.entity-body{padding:12px 16px 16px}
.entity-body dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 12px;margin:0 0 12px}
.entity-body dt{color:var(--muted);font-size:13px}
.entity-body dd{margin:0;overflow-wrap:anywhere}
.entity-body h3{font-size:14px;margin:14px 0 8px}
.entity-body table{border-collapse:collapse;width:100%;font-size:13px}
.entity-body th,.entity-body td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;overflow-wrap:anywhere}
.entity-body pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;background:var(--sunk);padding:8px;border-radius:8px}
.entity-foot{position:sticky;bottom:0;display:flex;justify-content:space-between;gap:8px;padding:10px 16px;flex-wrap:wrap;background:var(--card);border-top:1px solid var(--line)}
.related{grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}
.related .card .thumb,.related .card .placeholder{aspect-ratio:16/9}
@media (max-width:520px){.entity-head{flex-direction:column}.entity-head img,.entity-head .placeholder{width:100%;height:auto;aspect-ratio:16/9}.drop{padding:12px 8px}}
"""#

    /// The document body: the picture panel (drop zone, preview with the selection, region,
    /// labels, options, Search), the results panel, and the entity dialog.
    static let body = #"""
<header class="top"><h1>Glimpse</h1><p>Select part of a picture to find the landmarks and collections it shows.</p></header>
<main class="search">
<section class="panel" aria-labelledby="picture-heading">
<h2 id="picture-heading">Picture</h2>
<div id="drop" class="drop">
<p id="drop-text">Drop a picture here (PNG, JPEG, WebP, HEIC, AVIF), paste one, or</p>
<span class="file-name" id="file-name" hidden></span>
<label class="button" for="file" id="choose">Choose a picture…</label>
<input id="file" type="file" class="visually-hidden" accept="image/*,.png,.jpg,.jpeg,.heic,.heif,.avif,.webp">
</div>
<div id="stage" class="stage" hidden>
<div id="frame" class="frame" tabindex="0" role="group" aria-roledescription="region selector" aria-describedby="region-help">
<img id="picture" alt="The picture to search">
<div id="selection" class="selection" hidden></div>
</div>
</div>
<div id="note" class="message info" role="note" hidden></div>
<form id="query" class="query" novalidate>
<div class="field">
<label for="region">Region: x, y, width, height in the picture's pixels</label>
<div class="row"><input id="region" name="region" type="text" inputmode="numeric" autocomplete="off" spellcheck="false" placeholder="whole picture" aria-describedby="region-help region-error" disabled>
<button type="button" id="whole" disabled>Whole picture</button></div>
<p class="hint" id="region-help">Drag on the picture to select; drag the selection to move it, its corner to resize it; click for the whole picture. Keyboard: focus the picture, then arrow keys move, Shift+arrows resize, Alt+arrows by one pixel, Escape for the whole picture, Enter to search.</p>
<p class="hint error-text" id="region-error" hidden></p>
</div>
<div class="field">
<label for="labels">Labels (optional, comma-separated)</label>
<input id="labels" name="labels" type="text" autocomplete="off" placeholder="e.g. mountain, snow">
</div>
<details class="advanced"><summary>Options</summary>
<div class="row"><label for="page-size">Results per page</label><select id="page-size"><option>4</option><option selected>8</option><option>12</option><option>20</option></select>
<label for="deadline">Deadline (ms)</label><select id="deadline"><option value="">server default</option><option>50</option><option>200</option><option>1000</option><option>5000</option></select>
<label for="min-score">Lowest score shown</label><select id="min-score"><option value="">calibrated (0.40)</option><option value="0.3">0.30: find more, more false matches</option><option value="0.5">0.50: fewer false matches</option></select></div>
</details>
<div class="actions"><button id="search" class="primary" type="submit" disabled>Search</button></div>
</form>
</section>
<section class="panel" aria-labelledby="results-heading">
<div class="results-head"><h2 id="results-heading">Results</h2></div>
<div id="status" class="status" role="status" aria-live="polite"></div>
<div id="alert" class="message error" role="alert" hidden></div>
<div id="partial" class="message warn" hidden></div>
<p id="empty" class="empty">Choose a picture and press Search. Results appear here.</p>
<ul id="grid" class="grid" aria-label="Matching landmarks and collections"></ul>
<div class="more"><button id="more" type="button" hidden>More results</button></div>
</section>
</main>
<dialog id="entity" class="entity" aria-labelledby="entity-title">
<div id="entity-content"></div>
<div class="entity-foot"><button type="button" id="entity-back" hidden>← Back</button><button type="button" id="entity-close">Close</button></div>
</dialog>
"""#
}
