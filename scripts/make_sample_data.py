#!/usr/bin/env python3
"""Builds Glimpse's bundled sample data from Debian packages.

Run by scripts/make-sample-data.sh, which downloads and extracts the packages and
provides Pillow. Usage: make_sample_data.py EXTRACTED_ROOT REPO_ROOT

EXTRACTED_ROOT holds one folder per package (PKG/usr/share/...), as made by
`dpkg-deb -x PKG.deb EXTRACTED_ROOT/PKG`. Writes, under REPO_ROOT/testdata:
  catalog/<collection>/<name>.jpg|png   the sample catalog (a few dozen real photos)
  catalog/manifest.json                 the same photos as landmarks and collections
  negatives/<name>.jpg                  real photos that are not in the catalog
  samples/screenshot-hurricane-ridge.png a phone-screenshot-like query image
  samples/README.md                     where the photo is inside the screenshot
  ATTRIBUTION.md, licenses/             per-file credits and the packages' licence texts

Deterministic: the same packages and Pillow version give the same bytes.
"""
import json
import os
import shutil
import sys

from PIL import Image, ImageDraw

CATALOG_LONG_SIDE = 640
NEGATIVE_LONG_SIDE = 512
JPEG_QUALITY = 85

TUX = "tuxpaint-stamps-default/usr/share/tuxpaint/stamps/"
STEL = "stellarium-data/usr/share/stellarium/"
NEB = STEL + "nebulae/default/"
VISP = "visp-images-data/usr/share/visp-images-data/ViSP-images/"

TUX_CREDIT = ("Tux Paint stamps contributors, (C) 2002-2022 Bill Kendrick et al.", "GPL-2")
STEL_CREDIT_LICENCE = "GPL-2+ (Stellarium graphics; see licenses/stellarium-data.copyright, section 4)"
VISP_CREDIT = ("Inria, ViSP project (2005-2018)", "GPL-2")

# Collections in display order: (id, name).
COLLECTIONS = [
    ("landmarks", "Landmarks and landscapes"),
    ("animals", "Animals"),
    ("food", "Food"),
    ("objects", "Objects and vehicles"),
    ("sky", "Night sky"),
    ("history-and-science", "History and science"),
]

# One entry per catalog photo:
#   collection, slug, source path (under EXTRACTED_ROOT), crop (fractions of the
#   opaque bounding box: x, y, w, h) or None, output format, name, continent,
#   description, keywords, location (lat, lon) or None, (author, licence).
CATALOG = [
    # Landmarks: real places, from Stellarium's landscape panoramas (crops of one panel).
    ("landmarks", "hurricane-ridge", STEL + "landscapes/hurricane/hurricane5.png", None, "jpg",
     "Hurricane Ridge", "North America",
     "Snowfield and a full car park below the firs of Hurricane Ridge, Olympic National Park, Washington.",
     ["mountain", "snow", "car park", "national park"], (47.9697, -123.4985),
     ("Johan Meuris and Robert Spearman", STEL_CREDIT_LICENCE)),
    ("landmarks", "hurricane-ridge-firs", STEL + "landscapes/hurricane/hurricane7.png", None, "jpg",
     "Hurricane Ridge firs", "North America",
     "A stand of snow-covered firs on Hurricane Ridge, Olympic National Park.",
     ["forest", "snow", "fir", "mountain"], (47.9697, -123.4985),
     ("Johan Meuris and Robert Spearman", STEL_CREDIT_LICENCE)),
    ("landmarks", "garching-eso", STEL + "landscapes/garching/garching-gl1.png", (0.0, 0.0, 0.5, 1.0), "jpg",
     "Garching fields", "Europe",
     "Flowering rapeseed field seen from the ESO headquarters in Garching bei Munchen, Germany.",
     ["field", "flowers", "observatory"], (48.2603, 11.6712),
     ("Fabien Chéreau", STEL_CREDIT_LICENCE)),
    ("landmarks", "guereins", STEL + "landscapes/guereins/guereins5.png", None, "jpg",
     "Guéreins meadow", "Europe",
     "A meadow at Guéreins, a village in the Saône valley north of Lyon where Stellarium was born.",
     ["meadow", "village", "grass"], (46.1033, 4.7747),
     ("Fabien Chéreau", STEL_CREDIT_LICENCE)),
    ("landmarks", "grossmugl", STEL + "landscapes/grossmugl/grossmugl_leeberg_crop11.25_2048.png", (0.30, 0.0, 0.25, 1.0), "jpg",
     "Grossmugl Leeberg", "Europe",
     "Field near the Leeberg tumulus at Grossmugl, Austria, a Starlight Oasis observing spot.",
     ["field", "tumulus", "dark sky"], (48.4995, 16.2297),
     ("Guenther Wuchterl, Kuffner-Sternwarte.at", STEL_CREDIT_LICENCE)),
    ("landmarks", "husband-hill-mars", STEL + "landscapes/mars/mars.png", (0.10, 0.0, 0.22, 1.0), "jpg",
     "Husband Hill, Mars", "Mars",
     "Part of the Husband Hill summit panorama taken by the Spirit rover in Gusev crater, 2005.",
     ["mars", "rover", "desert", "rocks"], None,
     ("NASA/JPL-Caltech/Cornell, panorama by Michael Smith", "NASA imagery, free of licensing fees with credit (see licenses/stellarium-data.copyright, 10.2)")),
    ("landmarks", "taurus-littrow-moon", STEL + "landscapes/moon/apollo17.png", (0.36, 0.0, 0.28, 1.0), "jpg",
     "Taurus-Littrow valley, Moon", "Moon",
     "The Apollo 17 landing site in the Taurus-Littrow valley, photographed by the crew in 1972.",
     ["moon", "apollo", "crater", "lunar"], None,
     ("NASA", "NASA imagery, free of licensing fees with credit (see licenses/stellarium-data.copyright, 10.2)")),
    ("landmarks", "green-lake-trees", STEL + "landscapes/trees/trees_512.png", None, "jpg",
     "Green Lake Park trees", "North America",
     "Fisheye view up through the trees of Green Lake Park, Seattle.",
     ["trees", "park", "fisheye"], (47.6801, -122.3281),
     ("Robert Spearman", STEL_CREDIT_LICENCE)),
    ("landmarks", "sterngarten-vienna", STEL + "scenery3d/Sterngarten/Sterngarten_20100320.png", None, "jpg",
     "Sterngarten Vienna", "Europe",
     "The Sterngarten, an open-air stone observatory on the Georgenberg in Vienna.",
     ["observatory", "garden", "monument"], (48.1427, 16.2892),
     ("Stellarium scenery3d contributors (Georg Zotti et al.)", STEL_CREDIT_LICENCE)),
    ("landmarks", "inukshuk", TUX + "town/monuments/inukshuk-photo.png", None, "jpg",
     "Inukshuk", "North America",
     "An inukshuk, a landmark of stacked stones used as a marker by the Inuit of the Canadian Arctic.",
     ["stones", "monument", "arctic"], None, TUX_CREDIT),
    # Animals (Tux Paint photo stamps, composited on white).
    ("animals", "sumatran-tiger", TUX + "animals/mammals/cats/tiger_sumatran.png", None, "jpg",
     "Sumatran tiger", "Asia", "A Sumatran tiger walking.", ["tiger", "cat", "mammal"], None, TUX_CREDIT),
    ("animals", "black-rhino", TUX + "animals/mammals/rhino_black.png", None, "jpg",
     "Black rhinoceros", "Africa", "A black rhinoceros.", ["rhino", "mammal"], None, TUX_CREDIT),
    ("animals", "capybara", TUX + "animals/mammals/rodents/capybara.png", None, "jpg",
     "Capybara", "South America", "A capybara, the largest living rodent.", ["rodent", "mammal"], None, TUX_CREDIT),
    ("animals", "pink-flamingo", TUX + "animals/birds/pink_flamingo.png", None, "png",
     "Pink flamingo", "Africa", "A pink flamingo standing on one leg.", ["bird", "flamingo"], None, TUX_CREDIT),
    ("animals", "helmeted-guineafowl", TUX + "animals/birds/helmeted_guineafowl.png", None, "jpg",
     "Helmeted guineafowl", "Africa", "A helmeted guineafowl.", ["bird", "guineafowl"], None, TUX_CREDIT),
    ("animals", "european-bear", TUX + "animals/mammals/bears/european-bear.png", None, "jpg",
     "Brown bear", "Europe", "A European brown bear.", ["bear", "mammal"], None, TUX_CREDIT),
    ("animals", "magellanic-penguin", TUX + "animals/birds/magellanic_penguin.png", None, "png",
     "Magellanic penguin", "South America", "A Magellanic penguin.", ["bird", "penguin"], None, TUX_CREDIT),
    ("animals", "otter", TUX + "animals/mammals/aquatic/otter.png", None, "jpg",
     "Otter", "Europe", "An otter on the move.", ["otter", "mammal"], None, TUX_CREDIT),
    ("animals", "lion", TUX + "animals/mammals/cats/lion-2.png", None, "jpg",
     "Lion", "Africa", "A male lion walking.", ["lion", "cat", "mammal"], None, TUX_CREDIT),
    # Food.
    ("food", "apricot", TUX + "food/fruit/Apricot_whole.png", None, "jpg",
     "Apricot", "Asia", "A whole apricot.", ["fruit", "apricot"], None, TUX_CREDIT),
    ("food", "cherries", TUX + "food/fruit/Cherry_Stella.png", None, "jpg",
     "Stella cherries", "Europe", "A pair of Stella cherries.", ["fruit", "cherry"], None, TUX_CREDIT),
    ("food", "strawberry", TUX + "food/fruit/Strawberry2.png", None, "png",
     "Strawberry", "Europe", "A strawberry.", ["fruit", "berry"], None, TUX_CREDIT),
    ("food", "avocado", TUX + "food/fruit/avocado.png", None, "jpg",
     "Avocado", "North America", "An avocado.", ["fruit", "avocado"], None, TUX_CREDIT),
    ("food", "cherimoya", TUX + "food/fruit/cherimoya.png", None, "jpg",
     "Cherimoya", "South America", "A cherimoya fruit.", ["fruit", "cherimoya"], None, TUX_CREDIT),
    ("food", "seville-orange", TUX + "food/fruit/orange_seville.png", None, "jpg",
     "Seville orange", "Europe", "A Seville orange.", ["fruit", "orange", "citrus"], None, TUX_CREDIT),
    ("food", "ginger", TUX + "food/spices/ginger.png", None, "jpg",
     "Ginger root", "Asia", "A ginger root.", ["spice", "root"], None, TUX_CREDIT),
    ("food", "mince-pie", TUX + "seasonal/christmas/Mince_Pie.png", None, "jpg",
     "Mince pie", "Europe", "A mince pie.", ["pie", "pastry", "christmas"], None, TUX_CREDIT),
    # Objects and vehicles.
    ("objects", "cement-mixer", TUX + "household/tools/cementmixer.png", None, "jpg",
     "Cement mixer", "Worldwide", "A yellow cement mixer.", ["tool", "construction"], None, TUX_CREDIT),
    ("objects", "fire-truck", TUX + "vehicles/emergency/firetruck.png", None, "jpg",
     "Fire truck", "North America", "A red fire truck.", ["vehicle", "truck", "emergency"], None, TUX_CREDIT),
    ("objects", "hot-air-balloon", TUX + "vehicles/flight/balloon360.png", None, "jpg",
     "Hot-air balloon", "Worldwide", "A striped hot-air balloon.", ["balloon", "flight"], None, TUX_CREDIT),
    ("objects", "korean-bus", TUX + "vehicles/masstransit/green_korean_bus.png", None, "jpg",
     "Green Korean bus", "Asia", "A green city bus from Korea.", ["vehicle", "bus"], None, TUX_CREDIT),
    ("objects", "tractor-wheel", TUX + "vehicles/wheel_tractor.png", None, "jpg",
     "Tractor wheel", "Worldwide", "A muddy tractor wheel.", ["wheel", "tyre", "tractor"], None, TUX_CREDIT),
    ("objects", "christmas-toy", TUX + "seasonal/christmas/German_Christmas_toy.png", None, "png",
     "German Christmas toy", "Europe", "A wooden German Christmas figure.", ["toy", "christmas", "wood"], None, TUX_CREDIT),
    ("objects", "jack-o-lantern", TUX + "seasonal/halloween/jackolantern_mean.png", None, "jpg",
     "Jack-o'-lantern", "North America", "A carved Halloween pumpkin.", ["pumpkin", "halloween"], None, TUX_CREDIT),
    ("objects", "light-bulb", TUX + "household/Lightbulb.png", None, "jpg",
     "Light bulb", "Worldwide", "An incandescent light bulb.", ["bulb", "lamp"], None, TUX_CREDIT),
    ("objects", "floor-tom", TUX + "hobbies/music/percussion/drum_tomtom_floor.png", None, "jpg",
     "Floor tom drum", "Worldwide", "A red floor tom drum.", ["drum", "music"], None, TUX_CREDIT),
    # Night sky (Stellarium deep-sky photographs).
    ("sky", "eta-carinae", NEB + "etaCarinae.png", None, "jpg",
     "Eta Carinae nebula", "Space", "The Carina nebula around Eta Carinae.", ["nebula", "carina"], None,
     ("Harel Boren (Stellarium nebula images)", STEL_CREDIT_LICENCE)),
    ("sky", "ic4592", NEB + "ic4592.png", None, "jpg",
     "Blue Horsehead nebula", "Space", "IC 4592, a reflection nebula in Scorpius.", ["nebula", "reflection"], None,
     ("Sun Gang (Stellarium nebula images)", STEL_CREDIT_LICENCE)),
    ("sky", "medusa-nebula", NEB + "Medusa-vasey.png", None, "jpg",
     "Medusa nebula", "Space", "The Medusa planetary nebula in Gemini.", ["nebula", "planetary"], None,
     ("Peter Vasey, Plover Hill Observatory", STEL_CREDIT_LICENCE)),
    ("sky", "gamma-cygni", NEB + "GammaCygni-vasey.png", None, "jpg",
     "Gamma Cygni nebula", "Space", "The emission nebula around Gamma Cygni (Sadr).", ["nebula", "cygnus"], None,
     ("Peter Vasey, Plover Hill Observatory", STEL_CREDIT_LICENCE)),
    ("sky", "heart-nebula", NEB + "ic1805.png", None, "jpg",
     "Heart nebula", "Space", "IC 1805, the Heart nebula in Cassiopeia.", ["nebula", "emission"], None,
     ("Aldeabaran66 (Stellarium nebula images)", STEL_CREDIT_LICENCE)),
    ("sky", "solar-corona", STEL + "textures/corona.png", None, "jpg",
     "Solar corona", "Space", "The solar corona seen during a total eclipse.", ["sun", "eclipse", "corona"], None,
     ("Stellarium team", STEL_CREDIT_LICENCE)),
    # History and science (ViSP test images).
    ("history-and-science", "the-kiss", VISP + "Klimt/Klimt.png", None, "jpg",
     "The Kiss (Klimt)", "Europe", "Gustav Klimt's painting The Kiss (1907-1908), Belvedere, Vienna.",
     ["painting", "art", "gold"], (48.1915, 16.3809),
     ("Gustav Klimt (painting, public domain); reproduction from ViSP, Inria", "GPL-2")),
    ("history-and-science", "solvay-1927", VISP + "Solvay/Solvay_conference_1927_Version2_1280x881.png", None, "jpg",
     "Solvay conference 1927", "Europe", "Group photograph of the fifth Solvay conference, Brussels, 1927.",
     ["photograph", "physics", "history"], (50.8387, 4.3810),
     ("Benjamin Couprie (photograph, 1927, public domain); digitised copy from ViSP, Inria", "GPL-2")),
    ("history-and-science", "model-castle", VISP + "mbt-depth/castel/chateau.ppm", None, "jpg",
     "Model castle", "Europe", "A model castle used to test model-based tracking (grayscale).",
     ["castle", "model", "tracking"], None, VISP_CREDIT),
    ("history-and-science", "apriltag-desk", VISP + "AprilTag/AprilTag.pgm", None, "png",
     "AprilTags on a desk", "Europe", "AprilTag fiducial markers printed on a sheet on a desk (grayscale).",
     ["markers", "robotics", "tags"], None, VISP_CREDIT),
]

# Negatives: real photos from the same packages that are not in the catalog.
NEGATIVES = [
    ("bassoon", TUX + "hobbies/music/wind/bassoon.png", None, TUX_CREDIT),
    ("gas-cylinder", TUX + "household/cylinder.png", None, TUX_CREDIT),
    ("paratrooper", TUX + "military/paratrooper.png", None, TUX_CREDIT),
    ("fighter-jet", TUX + "military/vehicles/f22_raptor.png", None, TUX_CREDIT),
    ("explosion", TUX + "naturalforces/explosion.png", None, TUX_CREDIT),
    ("fire", TUX + "naturalforces/fire.png", None, TUX_CREDIT),
    ("anemone", TUX + "plants/flowers/anemone_red.png", None, TUX_CREDIT),
    ("daffodil", TUX + "plants/flowers/daffodil.png", None, TUX_CREDIT),
    ("palm-tree", TUX + "plants/trees/liberia-palm.png", None, TUX_CREDIT),
    ("tree", TUX + "plants/trees/tree336.png", None, TUX_CREDIT),
    ("candle", TUX + "seasonal/candle.png", None, TUX_CREDIT),
    ("woodlouse", TUX + "animals/insects/Woodlouse.png", None, TUX_CREDIT),
    ("garbage-truck", TUX + "vehicles/garbagetruck.png", None, TUX_CREDIT),
    ("race-car", TUX + "vehicles/race/indycar.png", None, TUX_CREDIT),
    ("firefighter", TUX + "people/fireman200b.png", None, TUX_CREDIT),
    ("armoured-vehicle", TUX + "military/vehicles/bradley.png", None, TUX_CREDIT),
    ("chimpanzee", TUX + "animals/mammals/apes/chimp.png", None, TUX_CREDIT),
    ("pig", TUX + "animals/mammals/pig_golden2.png", None, TUX_CREDIT),
    ("cello", TUX + "hobbies/music/string/cello.png", None, TUX_CREDIT),
    ("pickup-truck", TUX + "vehicles/auto/truck.png", None, TUX_CREDIT),
    ("holm-oak", TUX + "plants/trees/holm_oak.png", None, TUX_CREDIT),
    ("wildebeest", TUX + "animals/mammals/bovines/gnu-stand.png", None, TUX_CREDIT),
    ("hurricane-ridge-road", STEL + "landscapes/hurricane/hurricane1.png", None,
     ("Johan Meuris and Robert Spearman", STEL_CREDIT_LICENCE)),
    ("guereins-hedge", STEL + "landscapes/guereins/guereins7.png", None, ("Fabien Chéreau", STEL_CREDIT_LICENCE)),
    ("garching-rapeseed", STEL + "landscapes/garching/garching-gl3.png", (0.5, 0.0, 0.5, 1.0), ("Fabien Chéreau", STEL_CREDIT_LICENCE)),
    ("running-chicken-nebula", NEB + "ic2944.png", None, ("Dylan O'Donnell (Stellarium nebula images)", STEL_CREDIT_LICENCE)),
    ("horsehead-nebula", NEB + "ic434.png", None, ("Dylan O'Donnell (Stellarium nebula images)", STEL_CREDIT_LICENCE)),
    ("castle-simulation", VISP + "mbt-depth/Castle-simu/Images/Image_0001.pgm", None, VISP_CREDIT),
]

LICENCE_FILES = {
    "tuxpaint-stamps-default": "tuxpaint-stamps-default/usr/share/doc/tuxpaint-stamps-default/copyright",
    "stellarium-data": "stellarium-data/usr/share/doc/stellarium-data/copyright",
    "visp-images-data": "visp-images-data/usr/share/doc/visp-images-data/copyright",
}


def package_of(path):
    return path.split("/", 1)[0]


def original_path(path):
    return "/" + path.split("/", 1)[1]


def load_flat(src, crop):
    """Opens `src`, crops to the opaque area (then to `crop`, fractions of it), and
    flattens transparency over white. Returns an RGB or L image."""
    im = Image.open(src)
    im.load()
    gray = im.mode in ("L", "LA", "I;16", "I")
    if im.mode in ("I;16", "I"):
        im = im.point(lambda v: v / 256).convert("L")
    rgba = im.convert("LA" if gray else "RGBA")
    alpha = rgba.getchannel("A")
    box = alpha.point(lambda v: 255 if v > 250 else 0).getbbox() or (0, 0) + rgba.size
    rgba = rgba.crop(box)
    if crop is not None:
        w, h = rgba.size
        x, y, cw, ch = crop
        rgba = rgba.crop((round(x * w), round(y * h), round((x + cw) * w), round((y + ch) * h)))
    background = Image.new(rgba.mode, rgba.size, 255 if gray else (255, 255, 255, 255))
    flat = Image.alpha_composite(background.convert("RGBA"), rgba.convert("RGBA"))
    return flat.convert("L" if gray else "RGB")


def downscale(im, long_side):
    w, h = im.size
    scale = long_side / max(w, h)
    if scale >= 1:
        return im
    return im.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.LANCZOS)


def save(im, path, fmt):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if fmt == "jpg":
        im.save(path, "JPEG", quality=JPEG_QUALITY, optimize=True)
    else:
        im.save(path, "PNG", optimize=True)


# --- the screenshot-like query -----------------------------------------------

SCREEN_W, SCREEN_H = 720, 1480


def draw_screenshot(photo, title):
    """A phone screenshot of a photo-sharing app showing `photo`: status bar, app bar,
    the photo with margins, caption text blocks, action icons and a navigation bar.
    Returns (image, photo_rect) where photo_rect = (x, y, w, h) in pixels."""
    canvas = Image.new("RGB", (SCREEN_W, SCREEN_H), (250, 250, 250))
    d = ImageDraw.Draw(canvas)
    # Status bar: time, signal bars, battery.
    d.rectangle((0, 0, SCREEN_W, 48), fill=(32, 33, 36))
    d.text((24, 14), "9:41", fill=(255, 255, 255), font_size=22)
    for i in range(4):
        d.rectangle((560 + i * 10, 34 - i * 6, 566 + i * 10, 36), fill=(255, 255, 255))
    d.rectangle((620, 16, 668, 34), outline=(255, 255, 255), width=2)
    d.rectangle((624, 20, 655, 30), fill=(255, 255, 255))
    d.rectangle((668, 21, 672, 29), fill=(255, 255, 255))
    # App bar: back arrow, title, menu dots.
    d.rectangle((0, 48, SCREEN_W, 132), fill=(255, 255, 255))
    d.line((28, 90, 52, 72), fill=(60, 64, 67), width=4)
    d.line((28, 90, 52, 108), fill=(60, 64, 67), width=4)
    d.text((80, 74), title, fill=(32, 33, 36), font_size=30)
    for i in range(3):
        d.ellipse((684, 74 + i * 14, 692, 82 + i * 14), fill=(60, 64, 67))
    d.line((0, 132, SCREEN_W, 132), fill=(218, 220, 224), width=2)
    # Author row.
    d.ellipse((24, 152, 72, 200), fill=(26, 115, 232))
    d.text((88, 156), "robert.s", fill=(32, 33, 36), font_size=22)
    d.text((88, 182), "Olympic National Park", fill=(95, 99, 104), font_size=18)
    # The photo.
    margin = 24
    pw = SCREEN_W - 2 * margin
    ph = round(photo.height * pw / photo.width)
    shown = photo.convert("RGB").resize((pw, ph), Image.LANCZOS)
    py = 220
    canvas.paste(shown, (margin, py))
    # Actions and caption below the photo.
    y = py + ph + 20
    d.ellipse((24, y, 60, y + 36), outline=(60, 64, 67), width=3)
    d.rectangle((84, y + 4, 116, y + 32), outline=(60, 64, 67), width=3)
    d.polygon(((140, y + 4), (176, y + 18), (140, y + 32)), outline=(60, 64, 67))
    y += 56
    d.text((24, y), "1,204 likes", fill=(32, 33, 36), font_size=22)
    y += 36
    d.text((24, y), "Snow on the ridge this morning. The firs were", fill=(32, 33, 36), font_size=22)
    d.text((24, y + 30), "completely white, worth the drive up!", fill=(32, 33, 36), font_size=22)
    d.text((24, y + 72), "View all 58 comments", fill=(128, 134, 139), font_size=20)
    # The next post, partly scrolled into view: author row and the top of a photo.
    y += 130
    d.line((0, y - 20, SCREEN_W, y - 20), fill=(218, 220, 224), width=2)
    d.ellipse((24, y, 72, y + 48), fill=(234, 67, 53))
    d.text((88, y + 4), "trailhead.daily", fill=(32, 33, 36), font_size=22)
    d.text((88, y + 30), "Port Angeles, WA", fill=(95, 99, 104), font_size=18)
    top = y + 68
    for row in range(top, SCREEN_H - 120):
        t = (row - top) / max(1, SCREEN_H - 120 - top)
        d.line((margin, row, SCREEN_W - margin - 1, row),
               fill=(round(90 + 80 * t), round(140 + 60 * t), round(200 - 40 * t)))
    # Bottom navigation bar and gesture handle.
    d.rectangle((0, SCREEN_H - 120, SCREEN_W, SCREEN_H), fill=(255, 255, 255))
    d.line((0, SCREEN_H - 120, SCREEN_W, SCREEN_H - 120), fill=(218, 220, 224), width=2)
    for i in range(5):
        cx = 72 + i * 144
        d.rounded_rectangle((cx - 18, SCREEN_H - 98, cx + 18, SCREEN_H - 62), radius=6,
                            outline=(60, 64, 67), width=3)
    d.rounded_rectangle((SCREEN_W // 2 - 70, SCREEN_H - 24, SCREEN_W // 2 + 70, SCREEN_H - 16),
                        radius=4, fill=(32, 33, 36))
    return canvas, (margin, py, pw, ph)


def main():
    src_root, repo = sys.argv[1], sys.argv[2]
    out = os.path.join(repo, "testdata")
    for sub in ("catalog", "negatives", "samples", "licenses"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    attribution = []
    landmarks = []
    members = {cid: [] for cid, _ in COLLECTIONS}
    screenshot_photo = None
    for (collection, slug, src, crop, fmt, name, continent, description, keywords, location,
         (author, licence)) in CATALOG:
        im = downscale(load_flat(os.path.join(src_root, src), crop), CATALOG_LONG_SIDE)
        rel = f"{collection}/{slug}.{fmt}"
        save(im, os.path.join(out, "catalog", rel), fmt)
        if slug == "hurricane-ridge":
            screenshot_photo = im
        landmark = {
            "id": f"{collection}/{slug}",
            "name": name,
            "continent": continent,
            "description": description,
            "keywords": keywords,
            "images": [rel],
        }
        if location is not None:  # omitted, not null, when unknown
            landmark["location"] = {"latitude": location[0], "longitude": location[1]}
        landmarks.append(landmark)
        members[collection].append(landmark["id"])
        attribution.append((f"catalog/{rel}", src, crop, author, licence))
    manifest = {
        "version": 1,
        "landmarks": landmarks,
        "collections": [{"id": cid, "name": cname, "landmarks": members[cid]} for cid, cname in COLLECTIONS],
    }
    with open(os.path.join(out, "catalog", "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")

    for slug, src, crop, (author, licence) in NEGATIVES:
        im = downscale(load_flat(os.path.join(src_root, src), crop), NEGATIVE_LONG_SIDE)
        rel = f"negatives/{slug}.jpg"
        save(im, os.path.join(out, rel), "jpg")
        attribution.append((rel, src, crop, author, licence))

    shot, (x, y, w, h) = draw_screenshot(screenshot_photo, "Hurricane Ridge")
    shot_name = "screenshot-hurricane-ridge.png"
    save(shot, os.path.join(out, "samples", shot_name), "png")
    mx, my = round(w * 0.03), round(h * 0.03)
    sel = (x - mx, y - my, w + 2 * mx, h + 2 * my)
    with open(os.path.join(out, "samples", "README.md"), "w", encoding="utf-8") as f:
        f.write(f"""# Sample queries

`{shot_name}` ({SCREEN_W}x{SCREEN_H} PNG) is a phone-screenshot-like image: a status bar,
an app bar, an author row, a caption, icons and a navigation bar around the catalog photo
`catalog/landmarks/hurricane-ridge.jpg` (landmark `landmarks/hurricane-ridge`), scaled to
{w}x{h} pixels.

| what | x | y | width | height |
| --- | --- | --- | --- | --- |
| the photo exactly | {x} | {y} | {w} | {h} |
| a person's selection (the photo plus about 3% of UI margin on every side) | {sel[0]} | {sel[1]} | {sel[2]} | {sel[3]} |

Query with the selection, as a person would select it:

```sh
glimpse query testdata/samples/{shot_name} --region {sel[0]},{sel[1]},{sel[2]},{sel[3]}
```

Made by `scripts/make-sample-data.sh`; the photo's credits are in `../ATTRIBUTION.md`.
""")
    attribution.append((f"samples/{shot_name}", CATALOG[0][2], None,
                        "Johan Meuris and Robert Spearman (photo); UI drawn by scripts/make_sample_data.py",
                        STEL_CREDIT_LICENCE))

    os.makedirs(os.path.join(out, "licenses"), exist_ok=True)
    for pkg, path in LICENCE_FILES.items():
        shutil.copyfile(os.path.join(src_root, path), os.path.join(out, "licenses", f"{pkg}.copyright"))
    shutil.copyfile("/usr/share/common-licenses/GPL-2", os.path.join(out, "licenses", "GPL-2"))

    with open(os.path.join(out, "ATTRIBUTION.md"), "w", encoding="utf-8") as f:
        f.write("""# Attribution of the bundled images

Every image under `catalog/`, `negatives/` and `samples/` was made by
`scripts/make-sample-data.sh` from a file of a Debian 12 (bookworm) package in `main`:
cropped to its opaque area (and, where a crop is given, to that fraction of it),
transparency flattened over white, downscaled with Lanczos to at most 640 px
(catalog) or 512 px (negatives) on the long side, and re-encoded (JPEG quality 85
or PNG). Landmark locations are approximate.

Licences: the packages' copyright files are in `licenses/` (`*.copyright`), with
the GNU GPL version 2 text in `licenses/GPL-2`. Packages: `tuxpaint-stamps-default`
2022.06.04-1, `stellarium-data` 0.22.2-1, `visp-images-data` 3.5.0-1.

| file | package | original path | crop | author | licence |
| --- | --- | --- | --- | --- | --- |
""")
        for rel, src, crop, author, licence in attribution:
            crop_text = "" if crop is None else "x %.2f y %.2f w %.2f h %.2f" % crop
            f.write(f"| `{rel}` | {package_of(src)} | `{original_path(src)}` | {crop_text} | {author} | {licence} |\n")


if __name__ == "__main__":
    main()
