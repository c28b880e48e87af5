/// The one stylesheet of Glimpse's HTML: the search page that `glimpse serve` answers at
/// `GET /` (``SearchPage``) and the batch contact sheet of `glimpse match --report`
/// (``ContactSheet``) inline the same rules, so both look alike: a header, a summary with
/// counts, two-column grids of cards (landmarks with a blue badge, collections in violet
/// with a stacked-card edge), messages for notes, warnings and errors, a visible focus ring,
/// light and dark colours. Plain CSS with no `url()`, `@import` or web font: nothing is
/// fetched from anywhere.
public enum PageStyle {
    /// The stylesheet, to inline in a `<style>` element. About 7 KB.
    ///
    /// - Complexity: O(1): a constant.
    public static let css: String = #"""
:root{--bg:#f5f6f8;--fg:#1c1e22;--muted:#5d646e;--card:#fff;--line:#d7dbe1;--sunk:#eceef2;
--accent:#0b63d6;--accent-fg:#fff;--landmark:#0b63d6;--collection:#7b3ff2;--ok:#1a7a3a;
--warn:#7a5200;--warn-bg:#fff4d9;--err:#b3261e;--err-bg:#fdeceb;--info-bg:#e8f1fd;--radius:12px;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--fg:#e7e9ec;--muted:#a3a9b1;--card:#1d1f23;--line:#363940;
--sunk:#26292e;--accent:#74adff;--accent-fg:#0a1220;--landmark:#74adff;--collection:#c19cff;--ok:#7fd69a;
--warn:#f2c96a;--warn-bg:#352a10;--err:#ff8f86;--err-bg:#3a1614;--info-bg:#17263a}}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:var(--bg);color:var(--fg)}
header.top{padding:14px 20px;background:var(--card);border-bottom:1px solid var(--line)}
header.top h1{font-size:20px;margin:0;letter-spacing:-.01em}
header.top p{margin:2px 0 0;color:var(--muted);font-size:14px}
main{max-width:1180px;margin:0 auto;padding:16px 20px 48px}
h2{font-size:16px;margin:0 0 8px}
.summary{color:var(--muted);margin:0 0 12px}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px;padding:0;list-style:none}
.counts li{background:var(--card);border:1px solid var(--line);border-radius:999px;padding:2px 10px;font-size:13px}
.counts b{font-variant-numeric:tabular-nums}
.hint{color:var(--muted);font-size:13px;margin:4px 0 0}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button,.button{display:inline-flex;align-items:center;justify-content:center;gap:6px;min-height:36px;padding:6px 14px;
font:inherit;font-weight:600;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:999px;cursor:pointer;text-decoration:none}
button:hover,.button:hover{border-color:var(--accent)}
button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent)}
button:disabled{opacity:.5;cursor:not-allowed}
input[type=text],input:not([type]),select{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:8px;padding:6px 10px;min-height:36px;width:100%}
input[aria-invalid=true]{border-color:var(--err);outline-color:var(--err)}
label{font-weight:600;font-size:13px}
.message{margin:0 0 12px;padding:10px 12px;border-radius:8px;border:1px solid transparent;overflow-wrap:anywhere}
.message.info{background:var(--info-bg);border-color:var(--accent)}
.message.warn{background:var(--warn-bg);border-color:var(--warn);color:var(--fg)}
.message.error{background:var(--err-bg);border-color:var(--err);color:var(--fg)}
.message strong{display:block}
.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px;margin:0;padding:0;list-style:none}
.card{position:relative;display:flex;flex-direction:column;align-items:stretch;justify-content:flex-start;gap:0;width:100%;height:100%;padding:0;text-align:left;font:inherit;font-weight:normal;
color:inherit;background:var(--card);border:1px solid var(--line);border-radius:var(--radius);overflow:hidden;min-height:0}
button.card{cursor:pointer;border-radius:var(--radius)}
button.card:hover{border-color:var(--accent)}
.card .thumb{display:block;width:100%;aspect-ratio:4/3;object-fit:cover;background:var(--sunk)}
.card .placeholder{display:flex;align-items:center;justify-content:center;width:100%;aspect-ratio:4/3;background:var(--sunk);color:var(--muted);font-size:28px;font-weight:700}
.card .body{display:flex;flex-direction:column;gap:2px;padding:8px 10px 10px;min-width:0}
.card .title{font-weight:650;overflow-wrap:anywhere}
.card .subtitle{color:var(--muted);font-size:13px;overflow-wrap:anywhere}
.card .meta{display:flex;align-items:center;justify-content:space-between;gap:6px;margin-top:4px}
.badge{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.05em;padding:1px 7px;border-radius:999px;border:1px solid currentColor;white-space:nowrap}
.landmark .badge{color:var(--landmark)}
.collection .badge{color:var(--collection)}
.card.collection{border:2px solid var(--collection);box-shadow:5px 5px 0 -2px var(--card),5px 5px 0 0 var(--collection)}
.card.collection .thumb,.card.collection .placeholder{aspect-ratio:16/9}
.score{font-variant-numeric:tabular-nums;font-weight:700;font-size:13px}
.score.high{color:var(--ok)}
.photo.matched .badge.status{color:var(--ok)}.photo.no_match .badge.status{color:var(--muted)}.photo.error .badge.status{color:var(--err)}
.filters{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 14px;border:0;padding:0}
.filters legend{font-weight:600;font-size:13px;margin-right:6px;float:left;padding:6px 0}
.filters label{display:inline-flex;align-items:center;gap:4px;min-height:32px;padding:4px 12px;border:1px solid var(--line);border-radius:999px;background:var(--card);cursor:pointer;font-weight:600}
.filters input{margin:0}
.filters input:focus-visible{outline:none}
.filters label:has(input:checked){border-color:var(--accent);background:var(--info-bg)}
.filters label:has(input:focus-visible){outline:3px solid var(--accent);outline-offset:2px}
.sheet{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,360px),1fr));gap:14px;align-items:start}
section.photo{display:flex;flex-direction:column;gap:10px;background:var(--card);border:1px solid var(--line);border-left-width:5px;border-radius:var(--radius);padding:12px;min-width:0}
section.photo.matched{border-left-color:var(--ok)}section.photo.no_match{border-left-color:var(--line)}section.photo.error{border-left-color:var(--err)}
body:has(#show-matched:checked) section.photo:not(.matched),body:has(#show-no_match:checked) section.photo:not(.no_match),body:has(#show-error:checked) section.photo:not(.error){display:none}
section.photo>header{display:flex;gap:10px;align-items:flex-start;min-width:0}
section.photo>header img,section.photo>header .missing{flex:none;width:112px;height:112px;object-fit:cover;border-radius:8px;background:var(--sunk)}
section.photo h2{font-size:14px;font-weight:650;margin:0 0 4px;overflow-wrap:break-word;word-break:break-word}
.missing{display:flex;align-items:center;justify-content:center;color:var(--muted);font-size:12px;text-align:center}
.matches .card .thumb,.matches .card .missing{aspect-ratio:4/3;width:100%;height:auto}
.matches code{font-size:11px;color:var(--muted);overflow-wrap:anywhere}
.error-text{color:var(--err);margin:0;overflow-wrap:anywhere}
.none{color:var(--muted);margin:0}
@media (max-width:520px){main{padding:12px 12px 40px}header.top{padding:12px}.grid{gap:8px}.card .body{padding:6px 8px 8px}}
"""#
}
