"""The search page (GET /) in a real headless Chromium driven through WebDriver (selenium),
against a live `glimpse serve` on the sample catalog. Run by scripts/browser-test.sh, which
builds glimpse, indexes the catalog, starts the server and passes:

    browser_test.py BASE_URL SCREENSHOT_DIR SERVER_PID CONTACT_SHEET_HTML

Every check is an assertion; the first that fails ends the run with exit 1. The browser
failing to start is a failure too, never a skip.
"""
import os
import signal
import struct
import sys
import tempfile
import time
import urllib.request
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE, SHOTS, SERVER_PID, SHEET = sys.argv[1].rstrip("/"), sys.argv[2], int(sys.argv[3]), sys.argv[4]
SAMPLE = os.path.join(ROOT, "testdata/samples/screenshot-hurricane-ridge.png")
ROTATED = os.path.join(ROOT, "testdata/exif-orientation/Landscape_6.jpg")  # stored 1200x1800, EXIF 6: upright 1800x1200
OTTER = os.path.join(ROOT, "testdata/catalog/animals/otter.jpg")  # 300x202; its top-left quarter scores 0.37 against itself
HEIC = os.path.join(ROOT, "testdata/heif/catalog-hurricane-ridge.heic")  # the catalog photo as HEIC (Chromium cannot show HEIC)
REGION = (4, 211, 712, 332)  # testdata/samples/README.md: a person's selection
checks = 0


def check(condition, what):
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1
    print(f"  ok  {what}", flush=True)


def wait(driver, predicate, what, timeout=15):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d))
    except Exception as error:  # TimeoutException: name what we waited for
        raise AssertionError(f"timed out after {timeout} s waiting for: {what}") from error


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def png_pixels(data):
    """(width, height, channels, rows) of an 8-bit non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and interlace == 0 and colour in (2, 6), f"unexpected PNG {depth=} {colour=} {interlace=}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(stride):
            a = row[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1: row[i] = (row[i] + a) & 255
            elif kind == 2: row[i] = (row[i] + b) & 255
            elif kind == 3: row[i] = (row[i] + ((a + b) >> 1)) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(row)
        previous = row
    return width, height, channels, rows


def screenshot(driver, name, width, height, scroll_to=None):
    """Resizes the window, scrolls element `scroll_to` (an id) to the top or the page to its
    start, saves a screenshot and checks it is not blank: the grey levels of sampled pixels
    vary (variance) and the page drew many distinct colours (thumbnails)."""
    driver.set_window_size(width, height)
    time.sleep(0.2)
    if scroll_to:
        js(driver, "document.getElementById(arguments[0]).scrollIntoView({block: 'start'})", scroll_to)
    else:
        js(driver, "window.scrollTo(0, 0)")
    time.sleep(0.2)
    path = os.path.join(SHOTS, name)
    data = driver.get_screenshot_as_png()
    with open(path, "wb") as file:
        file.write(data)
    w, h, channels, rows = png_pixels(data)
    grey, colours = [], set()
    for y in range(0, h, 3):
        row = rows[y]
        for x in range(0, w, 3):
            px = bytes(row[x * channels:x * channels + 3])
            colours.add(px)
            grey.append((px[0] * 299 + px[1] * 587 + px[2] * 114) / 1000)
    mean = sum(grey) / len(grey)
    variance = sum((g - mean) ** 2 for g in grey) / len(grey)
    print(f"  screenshot {path}: {w}x{h}, grey variance {variance:.0f}, {len(colours)} distinct colours", flush=True)
    check(variance > 200 and len(colours) > 500, f"{name} ({w}x{h}) is not blank (variance {variance:.0f}, {len(colours)} colours)")
    return path


def upload(driver, path):
    driver.find_element(By.ID, "file").send_keys(path)


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#grid button.card")


def alert_text(driver):
    return js(driver, "const a = document.getElementById('alert'); return a.hidden ? '' : a.textContent")


def natural_size(driver):
    return js(driver, "const i = document.getElementById('picture'); return [i.naturalWidth, i.naturalHeight]")


def drag(driver, start, end):
    """Drags on the picture from one point to another, in fractions of its displayed box."""
    box = js(driver, "const r = document.getElementById('picture').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    img = driver.find_element(By.ID, "picture")
    # Offsets are from the element's centre.
    to = lambda f: (round((f[0] - 0.5) * box[2]), round((f[1] - 0.5) * box[3]))
    (x0, y0), (x1, y1) = to(start), to(end)
    ActionChains(driver, duration=50).move_to_element_with_offset(img, x0, y0).click_and_hold() \
        .move_by_offset((x1 - x0) // 2, (y1 - y0) // 2).move_by_offset(x1 - x0 - (x1 - x0) // 2, y1 - y0 - (y1 - y0) // 2) \
        .release().perform()
    return box


def region_field(driver):
    value = driver.find_element(By.ID, "region").get_attribute("value")
    return tuple(int(v) for v in value.split(",")) if value else None


def main():
    os.makedirs(SHOTS, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--window-size=1280,900", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        run(driver)
    finally:
        driver.quit()
    print(f"browser-test: {checks} passed, 0 failed")


def run(driver):
    driver.set_script_timeout(20)
    started = time.monotonic()

    print("The page loads, self-contained", flush=True)
    driver.get(f"{BASE}/?page_size=1")
    check(driver.title.startswith("Glimpse"), f"GET / is the search page (title {driver.title!r})")
    external = js(driver, """return [...document.querySelectorAll('[src],[href]')]
        .map(e => e.getAttribute('src') || e.getAttribute('href')).filter(u => /^(https?:)?\\/\\//.test(u))""")
    check(external == [], "no element loads anything from another origin")
    check(driver.find_element(By.ID, "search").get_attribute("disabled") is not None, "Search is disabled until a picture is chosen")
    with urllib.request.urlopen(f"{BASE}/", timeout=10) as response:
        headers = response.headers
    check(headers.get_content_type() == "text/html" and "default-src 'none'" in headers.get("Content-Security-Policy", ""),
          f"GET / is text/html with a Content-Security-Policy that loads nothing from elsewhere")

    print("Upload the sample screenshot and select the documented region", flush=True)
    upload(driver, SAMPLE)
    wait(driver, lambda d: natural_size(d) == [720, 1480], "the preview of the 720x1480 sample")
    # A mouse drag over the documented region lands on it within the display scale.
    box = drag(driver, (REGION[0] / 720, REGION[1] / 1480), ((REGION[0] + REGION[2]) / 720, (REGION[1] + REGION[3]) / 1480))
    scale = 720 / box[2]
    drawn = wait(driver, region_field, "a region in the field after the drag")
    check(all(abs(a - b) <= 2 * scale + 1 for a, b in zip(drawn, REGION)),
          f"the dragged rectangle maps to the picture's pixels: {drawn} ≈ {REGION} (display scale {scale:.2f})")
    field = driver.find_element(By.ID, "region")
    field.clear()
    field.send_keys(",".join(map(str, REGION)))
    overlay = js(driver, """const s = document.getElementById('selection').getBoundingClientRect(),
        p = document.getElementById('picture').getBoundingClientRect();
        return [s.left - p.left, s.top - p.top, s.width, s.height]""")
    expected = [v / scale for v in REGION]
    check(all(abs(a - b) <= 1.5 for a, b in zip(overlay, expected)), f"typing {REGION} moves the drawn selection there ({overlay})")
    centre = ((REGION[0] + REGION[2] / 2) / 720, (REGION[1] + REGION[3] / 2) / 1480)
    drag(driver, centre, (centre[0] - 0.1, centre[1] + 0.1))
    moved = region_field(driver)
    check(moved[2:] == REGION[2:] and moved[1] > REGION[1] and moved[0] == 0,
          f"dragging the selection moves it, same size, kept inside the picture ({moved})")
    field.clear()
    field.send_keys(",".join(map(str, REGION)))
    check(region_field(driver) == REGION, "the documented region is selected again")

    print("Search: the first card is Hurricane Ridge", flush=True)
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: len(cards(d)) >= 1 or alert_text(d), "the first result page")
    check(alert_text(driver) == "", f"no error message ({alert_text(driver)!r})")
    first = cards(driver)[0]
    check(first.get_attribute("data-id") == "landmarks/hurricane-ridge", f"first card is landmarks/hurricane-ridge ({first.get_attribute('data-id')})")
    check("Hurricane Ridge" in first.text, f"first card shows its title ({first.text!r})")
    check(len(cards(driver)) == 1, "page_size=1 shows one card")
    wait(driver, lambda d: js(d, "const i = document.querySelector('#grid img.thumb'); return i && i.complete && i.naturalWidth > 0"),
         "the first card's thumbnail from the thumbnail endpoint")
    check(True, "the first card's thumbnail loaded")

    print("More results appends the next page", flush=True)
    more = driver.find_element(By.ID, "more")
    check(more.is_displayed(), "More results is shown while there is a next page token")
    more.click()
    wait(driver, lambda d: len(cards(d)) == 2, "a second card appended")
    ids = [c.get_attribute("data-id") for c in cards(driver)]
    check(ids[0] == "landmarks/hurricane-ridge" and ids[1] != ids[0], f"the next page is appended after the first ({ids})")
    check("collection" in cards(driver)[1].get_attribute("class"), "the second result is a collection card")
    styles = js(driver, """return [...document.querySelectorAll('#grid button.card')].map(c => getComputedStyle(c).borderTopColor)""")
    check(styles[0] != styles[1], f"collections look different from landmarks (borders {styles})")
    check(js(driver, "return document.activeElement === document.querySelectorAll('#grid button.card')[1]"),
          "keyboard focus moves to the first appended card")
    check(not more.is_displayed() or more.get_attribute("disabled") is None, "More results is hidden or usable after the last page")

    print("Screenshots at a desktop and a phone width", flush=True)
    screenshot(driver, "search-desktop.png", 1280, 900)
    screenshot(driver, "search-phone.png", 390, 844, scroll_to="results-heading")
    columns = js(driver, "return getComputedStyle(document.getElementById('grid')).gridTemplateColumns.split(' ').length")
    check(columns == 2, f"the results are a two-column grid on a phone ({columns} columns)")
    overflow = js(driver, "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    check(overflow <= 0, f"no horizontal scrolling at 390 px ({overflow} px too wide)")
    driver.set_window_size(1280, 900)

    print("A card opens the entity, with deferred properties on demand", flush=True)
    first = cards(driver)[0]
    first.send_keys(Keys.ENTER)  # keyboard: cards are buttons
    wait(driver, lambda d: js(d, "const t = document.getElementById('entity-title'); return document.getElementById('entity').open && t && t.textContent === 'Hurricane Ridge'"),
         "the Hurricane Ridge entity dialog")
    body = driver.find_element(By.ID, "entity-content").text
    check("In 1 collection" in body or "collections" in body, f"the landmark lists its collections")
    driver.find_element(By.ID, "load-statistics").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#deferred table tbody tr") or d.find_elements(By.CSS_SELECTOR, "#deferred .message"),
         "the image statistics (a deferred property)")
    check(driver.find_elements(By.CSS_SELECTOR, "#deferred table tbody tr"), "image statistics loaded on demand")
    exports = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#entity-content a.button")]
    check(len(exports) == 3, f"the entity offers its three exports ({len(exports)})")
    for href in exports:
        with urllib.request.urlopen(href, timeout=10) as response:
            check(response.status == 200 and len(response.read()) > 0, f"export link answers: {href.split('/v1/')[1]}")
    screenshot(driver, "entity-desktop.png", 1280, 900, scroll_to="entity-title")
    driver.find_element(By.CSS_SELECTOR, "#entity-content .related button.card").click()
    wait(driver, lambda d: js(d, "const t = document.getElementById('entity-title'); return t && t.textContent !== 'Hurricane Ridge' && document.querySelector('#entity-content .related')"),
         "the collection's entity with its landmarks")
    related = [e.get_attribute("data-id") for e in driver.find_elements(By.CSS_SELECTOR, "#entity-content .related button.card")]
    check("landmarks/hurricane-ridge" in related, f"the collection lists its landmarks ({len(related)})")
    driver.find_element(By.ID, "entity-back").click()
    wait(driver, lambda d: js(d, "const t = document.getElementById('entity-title'); return t && t.textContent === 'Hurricane Ridge'"), "Back to the landmark")
    check(True, "Back returns to the landmark")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait(driver, lambda d: not js(d, "return document.getElementById('entity').open"), "Escape closes the dialog")
    check(True, "Escape closes the entity dialog")

    print("Keyboard region selection", flush=True)
    frame = driver.find_element(By.ID, "frame")
    frame.send_keys(Keys.ESCAPE)
    check(region_field(driver) is None, "Escape selects the whole picture")
    frame.send_keys(Keys.ARROW_RIGHT)
    start = region_field(driver)
    check(start == (180, 370, 360, 740), f"an arrow key starts a centred selection ({start})")
    frame.send_keys(Keys.ARROW_RIGHT)
    moved = region_field(driver)
    check(moved[0] > start[0] and moved[1:] == start[1:], f"arrow keys move it ({moved})")
    frame.send_keys(Keys.SHIFT, Keys.ARROW_DOWN)
    resized = region_field(driver)
    check(resized[3] > moved[3] and resized[:3] == moved[:3], f"Shift+arrow keys resize it ({resized})")
    field = driver.find_element(By.ID, "region")
    field.clear()
    field.send_keys("700,0,100,100")
    check(field.get_attribute("aria-invalid") == "true" and driver.find_element(By.ID, "region-error").is_displayed(),
          "a region outside the picture is flagged in the field")
    field.clear()

    print("An EXIF-rotated JPEG: upright preview, region in upright pixels", flush=True)
    upload(driver, ROTATED)
    wait(driver, lambda d: natural_size(d) == [1800, 1200], "the upright 1800x1200 preview of the 1200x1800 EXIF-6 JPEG")
    check(True, "the browser shows the EXIF-6 JPEG upright (1800x1200)")
    drag(driver, (0.1, 0.2), (0.6, 0.7))
    drawn = wait(driver, region_field, "a region on the rotated picture")
    box = js(driver, "const r = document.getElementById('picture').getBoundingClientRect(); return r.width")
    tolerance = 2 * 1800 / box + 1
    expected = (180, 240, 900, 600)
    check(all(abs(a - b) <= tolerance for a, b in zip(drawn, expected)), f"the drag maps to upright pixels {drawn} ≈ {expected}")
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: "Searching" not in d.find_element(By.ID, "status").text, "the rotated picture's search")
    check(alert_text(driver) == "", f"the server accepts the upright region ({alert_text(driver)!r})")
    outcome = driver.find_element(By.ID, "status").text
    check(outcome.startswith("No match") or "result" in outcome, f"the search answered: {outcome!r}")

    print("The lowest score shown: a weak match appears only below the calibrated threshold", flush=True)
    driver.get(f"{BASE}/?min_score=0.3")
    check(driver.find_element(By.ID, "min-score").get_attribute("value") == "0.3", "?min_score=0.3 selects that option")
    upload(driver, OTTER)
    wait(driver, lambda d: natural_size(d) == [300, 202], "the otter's preview")
    field = driver.find_element(By.ID, "region")
    field.clear()
    field.send_keys("0,0,150,101")
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: alert_text(d) or cards(d) or "No match" in d.find_element(By.ID, "status").text, "the quarter's search")
    check(alert_text(driver) == "" and cards(driver) and cards(driver)[0].get_attribute("data-id") == "animals/otter",
          f"at 0.30 the otter's quarter finds the otter ({alert_text(driver) or [c.get_attribute('data-id') for c in cards(driver)]})")
    driver.find_element(By.CSS_SELECTOR, "details.advanced summary").click()  # the Options a person opens
    Select(driver.find_element(By.ID, "min-score")).select_by_value("")
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: "No match" in d.find_element(By.ID, "status").text or alert_text(d), "the calibrated search's answer")
    check(not cards(driver) and alert_text(driver) == "", "at the calibrated 0.40 the same quarter is no match")
    driver.get(f"{BASE}/?page_size=1")

    print("A file that is not an image: the error message", flush=True)
    notes = os.path.join(tempfile.mkdtemp(), "notes.txt")
    with open(notes, "w") as file:
        file.write("this is not a picture\n" * 20)
    upload(driver, notes)
    wait(driver, lambda d: d.find_element(By.ID, "note").is_displayed(), "the no-preview note")
    check("does not look like a picture" in driver.find_element(By.ID, "note").text, "the page says the file does not look like a picture")
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: alert_text(d), "the server's refusal")
    text = alert_text(driver)
    check("cannot be searched" in text and "notes.txt" in text, f"a non-image shows the error message ({text!r})")
    check(not cards(driver), "and no result cards")

    print("A file over the server's body limit (4 MB here): refused with its reason", flush=True)
    big = os.path.join(tempfile.mkdtemp(), "huge.png")
    with open(big, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + bytes(6_000_000))
    upload(driver, big)
    wait(driver, lambda d: d.find_element(By.ID, "note").is_displayed(), "the no-preview note of the broken PNG")
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: alert_text(d), "the refusal of the large file")
    check("too large" in alert_text(driver) and "huge.png" in alert_text(driver), f"a file over the limit shows why ({alert_text(driver)!r})")

    print("A HEIC the browser cannot display: searched as a whole picture, with a note", flush=True)
    upload(driver, HEIC)
    wait(driver, lambda d: d.find_element(By.ID, "note").is_displayed(), "the HEIC note")
    note = driver.find_element(By.ID, "note").text
    check("HEIC" in note and "whole picture" in note, f"the note names the format and the whole-picture search ({note!r})")
    check(driver.find_element(By.ID, "region").get_attribute("disabled") is not None, "no region can be drawn")
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: alert_text(d) or cards(d) or "No match" in d.find_element(By.ID, "status").text, "the HEIC search's answer")
    check(alert_text(driver) == "" and cards(driver) and cards(driver)[0].get_attribute("data-id") == "landmarks/hurricane-ridge",
          f"the server decodes the HEIC: first card Hurricane Ridge ({alert_text(driver) or [c.get_attribute('data-id') for c in cards(driver)]})")

    print("The contact sheet of glimpse match --report: counts and the filter", flush=True)
    driver.get("file://" + os.path.abspath(SHEET))
    summary = driver.find_element(By.CSS_SELECTOR, ".summary").text
    check(summary == "4 photos: 2 matched, 1 no match, 1 failed.", f"the summary counts the rows ({summary!r})")
    visible = lambda d: sorted(s.get_attribute("class").split()[1] for s in d.find_elements(By.CSS_SELECTOR, "section.photo") if s.is_displayed())
    check(visible(driver) == ["error", "matched", "matched", "no_match"], f"All shows every row ({visible(driver)})")
    for status, expected in [("matched", ["matched", "matched"]), ("no_match", ["no_match"]), ("error", ["error"])]:
        driver.find_element(By.CSS_SELECTOR, f"label:has(#show-{status})").click()
        check(visible(driver) == expected, f"the {status} filter shows only those rows ({visible(driver)})")
    driver.find_element(By.ID, "show-all").send_keys(Keys.SPACE)
    check(len(visible(driver)) == 4, "All shows the four rows again (keyboard)")
    screenshot(driver, "contact-sheet.png", 1280, 900)
    driver.get(f"{BASE}/?page_size=1")

    print("The server goes away: a network error, no endless spinner", flush=True)
    upload(driver, SAMPLE)
    wait(driver, lambda d: natural_size(d) == [720, 1480], "the sample again")
    os.kill(SERVER_PID, signal.SIGTERM)
    gone = time.monotonic()
    while time.monotonic() - gone < 10:
        try:
            os.kill(SERVER_PID, 0)
            time.sleep(0.1)
        except ProcessLookupError:
            break
    driver.find_element(By.ID, "search").click()
    wait(driver, lambda d: alert_text(d), "the network error message", timeout=40)
    check("Cannot reach" in alert_text(driver), f"a stopped server shows the network message ({alert_text(driver)!r})")
    check(not driver.find_elements(By.CSS_SELECTOR, "#status .spinner"), "the spinner is gone")

    errors = [e["message"] for e in driver.get_log("browser")
              if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"] and "net::ERR" not in e["message"]]
    check(errors == [], f"no script errors in the console ({errors})")
    print(f"  (browser part took {time.monotonic() - started:.1f} s)")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"browser-test: FAILED: {error}", file=sys.stderr)
        print(f"browser-test: {checks} passed, 1 failed")
        sys.exit(1)
