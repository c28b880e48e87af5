"""Times Glimpse beside the Python peers and the hardware limits, on the same files, in one run.

Run by benchmarks/compare-peers.sh (which installs everything, builds the C timing
tools and Glimpse, pins the process to one core and sets OMP_NUM_THREADS=1); it can
also be run by hand from the venv:

    python compare.py --images DIR --tools DIR [--glimpse PATH] [--json OUT]

Every figure is the median of repeated decode + hash calls of one image file, after a
warm-up call, in this process (peers) or in one process per tool (Glimpse, limits), so
no process start-up is counted. Prints Markdown tables on stdout.
"""

import argparse
import gc
import json
import math
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

import cv2
import imagehash
import numpy
import pdqhash
import PIL
from PIL import Image

IMAGES = [
    ("small.jpg", "small JPEG 640×480 (0.3 MP)"),
    ("medium.jpg", "medium JPEG 1920×1080 (2 MP)"),
    ("large.jpg", "large JPEG 4000×3000 (12 MP)"),
    ("medium.png", "medium PNG 1920×1080 (2 MP)"),
]
SCAN_CODES = 1_000_000

FINGERPRINT_ROW = "Glimpse decode + full fingerprint (all views, all codes)"
DECODE_ROW = "Glimpse decode only (what the fingerprint needs)"
JPEG_FULL_ROW = "libjpeg-turbo decode, full size (djpeg's settings)"
JPEG_EIGHTH_ROW = "libjpeg-turbo decode, scale 1/8 (djpeg -scale 1/8)"
PNG_NATIVE_ROW = "libpng decode, native layout (RGB)"
PNG_RGBA_ROW = "libpng decode to RGBA8 (Glimpse's layout)"

TARGET_JPEG = 1.3  # Glimpse fingerprint of the 12 MP JPEG ÷ libjpeg at scale 1/8
TARGET_PNG = 1.2  # Glimpse fingerprint of the 1080p PNG ÷ libpng's own decode
TARGET_SCAN = 0.8  # Glimpse scan throughput ÷ popcount limit throughput
TARGET_SMALL = 1.5  # Glimpse catalog fingerprint of the 640×480 JPEG ÷ OpenCV img_hash PHash
TARGET_SMALL_QUERY = 1.0  # Glimpse query fingerprint of the 640×480 JPEG ÷ OpenCV img_hash PHash
SMALL_PEER = "OpenCV img_hash PHash (imread)"
QUERY_ROW = "Glimpse decode + query fingerprint (49 views)"


def forced_row(label, isa):
    """The label of a Glimpse row measured with its instruction set capped (GLIMPSE_ISA)."""
    return f"{label} [{isa}]"


# ---------------------------------------------------------------- the peers, as a user writes them

def pil_decode(path):
    with Image.open(path) as im:
        im.load()


def imagehash_phash(path):
    return imagehash.phash(Image.open(path))


def imagehash_dhash(path):
    return imagehash.dhash(Image.open(path))


def imagehash_ahash(path):
    return imagehash.average_hash(Image.open(path))


def imagehash_phash_draft(path):
    # Fairness row: Pillow's draft() lets libjpeg decode at 1/2…1/8 scale (JPEG only; a
    # no-op for PNG). imagehash does not do this itself and typical code does not call it.
    im = Image.open(path)
    im.draft("L", (32, 32))
    return imagehash.phash(im)


def cv2_decode(path):
    return cv2.imread(path)


OPENCV_HASHERS = {
    "PHash": cv2.img_hash.PHash_create(),
    "AverageHash": cv2.img_hash.AverageHash_create(),
    "BlockMeanHash": cv2.img_hash.BlockMeanHash_create(),
    "ColorMomentHash": cv2.img_hash.ColorMomentHash_create(),
    "MarrHildrethHash": cv2.img_hash.MarrHildrethHash_create(),
    "RadialVarianceHash": cv2.img_hash.RadialVarianceHash_create(),
}


def opencv_hash(name):
    hasher = OPENCV_HASHERS[name]

    def run(path):
        return hasher.compute(cv2.imread(path))

    return run


def opencv_phash_reduced(path):
    # Fairness row: IMREAD_REDUCED_GRAYSCALE_8 decodes JPEG at 1/8 scale in libjpeg
    # (PNG is decoded fully, then resized).
    return OPENCV_HASHERS["PHash"].compute(cv2.imread(path, cv2.IMREAD_REDUCED_GRAYSCALE_8))


def pdq_hash(path):
    # As pdqhash's README does it: OpenCV decode, BGR → RGB, hash at full resolution.
    image = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
    return pdqhash.compute(image)


def pdq_dihedral(path):
    image = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
    return pdqhash.compute_dihedral(image)


PEERS = [
    ("Pillow decode only (Image.open + load)", pil_decode),
    ("imagehash phash (Pillow decode)", imagehash_phash),
    ("imagehash dhash (Pillow decode)", imagehash_dhash),
    ("imagehash ahash (Pillow decode)", imagehash_ahash),
    ("imagehash phash + Pillow draft() [fairness]", imagehash_phash_draft),
    ("OpenCV imread only", cv2_decode),
    ("OpenCV img_hash PHash (imread)", opencv_hash("PHash")),
    ("OpenCV img_hash AverageHash (imread)", opencv_hash("AverageHash")),
    ("OpenCV img_hash BlockMeanHash (imread)", opencv_hash("BlockMeanHash")),
    ("OpenCV img_hash ColorMomentHash (imread)", opencv_hash("ColorMomentHash")),
    ("OpenCV img_hash MarrHildrethHash (imread)", opencv_hash("MarrHildrethHash")),
    ("OpenCV img_hash RadialVarianceHash (imread)", opencv_hash("RadialVarianceHash")),
    ("OpenCV PHash + IMREAD_REDUCED_GRAYSCALE_8 [fairness]", opencv_phash_reduced),
    ("pdqhash (imread, full resolution)", pdq_hash),
    ("pdqhash dihedral, 8 hashes (imread)", pdq_dihedral),
]

# Rows whose ratio to Glimpse answers "how much faster than what people use".
HEADLINE_PEERS = [
    "imagehash phash (Pillow decode)",
    "imagehash dhash (Pillow decode)",
    "OpenCV img_hash PHash (imread)",
    "pdqhash (imread, full resolution)",
]


class Budget:
    """How long to measure each (row, image): `rounds` interleaved slices, each of at least
    `min_runs` calls and `min_time / rounds` seconds (at most `max_runs` calls)."""

    def __init__(self, min_time, min_runs, max_runs, rounds):
        self.rounds = rounds
        self.slice_time = min_time / rounds
        self.min_runs, self.max_runs = min_runs, max_runs

    def runs_for(self, estimate_ms):
        wanted = math.ceil(self.slice_time * 1000 / max(estimate_ms, 1e-3))
        return max(self.min_runs, min(self.max_runs, wanted))


def run_tool(args, env=None):
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


class Measurement:
    """One (row, image) cell. Measured in slices spread over the whole run (round-robin
    with every other cell), so a burst of load from elsewhere on the machine hits every
    row alike instead of one row; the cell's figure is the median of its slice medians,
    and `best` the fastest single call seen."""

    def __init__(self, group, label, image, sample):
        self.group, self.label, self.image = group, label, image
        self.sample = sample  # (budget, estimate_ms or None) -> (median_ms, best_ms)
        self.medians, self.best, self.detail = [], math.inf, None

    def run_slice(self, budget):
        estimate = self.medians[-1] if self.medians else None
        median, best = self.sample(budget, estimate)
        self.medians.append(median)
        self.best = min(self.best, best)

    @property
    def median(self):
        return statistics.median(self.medians)


def in_process(fn, path):
    """Slices of fn(path) calls timed in this process; one warm-up call before the first."""
    warmed = []

    def sample(budget, _estimate):
        if not warmed:
            fn(path)
            warmed.append(True)
        gc.collect()
        times = []
        start = time.perf_counter()
        while len(times) < budget.max_runs and (len(times) < budget.min_runs
                                               or time.perf_counter() - start < budget.slice_time):
            t0 = time.perf_counter_ns()
            fn(path)
            times.append(time.perf_counter_ns() - t0)
        return statistics.median(times) / 1e6, min(times) / 1e6

    return sample


def c_limit(tool, path, mode):
    """Slices of a C limit tool's in-process decode loop (see limits/*.c): it prints
    `median_ms best_ms width height`."""

    def sample(budget, estimate):
        if estimate is None:
            estimate = float(run_tool([tool, path, mode, "3"]).split()[0])
        fields = run_tool([tool, path, mode, str(budget.runs_for(estimate))]).split()
        return float(fields[0]), float(fields[1])

    return sample


def djpeg_cli(path, tiny, scale):
    """Slices of the `djpeg` process on path minus the `djpeg` process on a tiny JPEG
    (the start-up), both timed from here, alternating."""

    def sample(budget, _estimate):
        base = ["djpeg"] + (["-scale", scale] if scale else [])
        big, small = [], []
        start = time.perf_counter()
        while len(big) < max(budget.min_runs, 8) or time.perf_counter() - start < budget.slice_time:
            for file, times in ((path, big), (tiny, small)):
                t0 = time.perf_counter_ns()
                subprocess.run(base + [str(file)], stdout=subprocess.DEVNULL, check=True)
                times.append(time.perf_counter_ns() - t0)
            if len(big) >= budget.max_runs:
                break
        startup = statistics.median(small) / 1e6
        return statistics.median(big) / 1e6 - startup, min(big) / 1e6 - startup

    return sample


def glimpse_json(glimpse, args, isa=None):
    """Runs glimpse and parses its last line; `isa` caps its instruction set (GLIMPSE_ISA)."""
    env = dict(os.environ, GLIMPSE_ISA=isa) if isa else None
    return json.loads(run_tool([glimpse] + args, env).strip().splitlines()[-1])


def glimpse_fingerprint(glimpse, path, decode_only, cell_detail, isa=None, layout="catalog"):
    """Slices of `glimpse bench-fingerprint` (an in-process loop; prints JSON)."""
    extra = (["--decode-only"] if decode_only else []) + ["--layout", layout]

    def sample(budget, estimate):
        if estimate is None:
            estimate = glimpse_json(glimpse, ["bench-fingerprint", str(path), "--repeat", "3"] + extra, isa)["median_ms"]
        result = glimpse_json(glimpse, ["bench-fingerprint", str(path), "--repeat", str(budget.runs_for(estimate))]
                              + extra, isa)
        cell_detail.update(result)
        return result["median_ms"], result["best_ms"]

    return sample


def glimpse_supports(glimpse, subcommand):
    if not glimpse:
        return False
    done = subprocess.run([glimpse, subcommand, "--help"], capture_output=True, text=True)
    return done.returncode == 0 and f"glimpse {subcommand}" in done.stdout


# ---------------------------------------------------------------- report

def fmt_ms(value):
    if value is None:
        return "pending"
    if isinstance(value, str):
        return value
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 100 else f"{value:.0f}"


def fmt_ratio(a, b):
    if a is None or b is None or isinstance(a, str) or isinstance(b, str) or b <= 0:
        return "pending" if a is None or b is None else "n/a"
    return f"{a / b:.2f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def machine_summary():
    model, cores = platform.processor() or "unknown", os.cpu_count()
    try:
        for line in run_tool(["lscpu"]).splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, RuntimeError):
        pass
    flags = ""
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
        have = set(next(l for l in text.splitlines() if l.startswith("flags")).split(":", 1)[1].split())
        flags = ", ".join(f for f in ("popcnt", "avx2", "avx512f", "avx512_vpopcntdq") if f in have)
    except (OSError, StopIteration):
        pass
    return model, cores, flags


def versions():
    def deb(pkg):
        try:
            return run_tool(["dpkg-query", "-W", "-f=${Version}", pkg]).strip()
        except (OSError, RuntimeError):
            return "?"

    return (f"Python {platform.python_version()}, imagehash {imagehash.__version__}, Pillow {PIL.__version__}, "
            f"OpenCV {cv2.__version__}, pdqhash {getattr(pdqhash, '__version__', '?')}, numpy {numpy.__version__}; "
            f"limits: libjpeg-turbo {deb('libjpeg62-turbo')}, libpng {deb('libpng16-16')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", required=True, type=pathlib.Path, help="folder made by make_images.py")
    parser.add_argument("--tools", required=True, type=pathlib.Path, help="folder of the built limits/*.c tools")
    parser.add_argument("--glimpse", help="the glimpse executable (release build)")
    parser.add_argument("--min-time", type=float, default=1.0, help="seconds per (row, image), at least")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved slices per (row, image)")
    parser.add_argument("--min-runs", type=int, default=3, help="calls per slice, at least")
    parser.add_argument("--max-runs", type=int, default=300)
    parser.add_argument("--json", type=pathlib.Path, help="also write every figure here")
    parser.add_argument("--isas", default="",
                        help="comma-separated instruction sets to force Glimpse onto besides its best "
                             "(GLIMPSE_ISA: avx2, portable); the targets are printed for each")
    args = parser.parse_args()

    cv2.setNumThreads(1)
    budget = Budget(args.min_time, args.min_runs, args.max_runs, args.rounds)
    files = {name: args.images / name for name, _ in IMAGES}
    for name, path in files.items():
        if not path.is_file():
            sys.exit(f"compare.py: {path}: missing (run make_images.py first)")
    tiny = args.images / "tiny.jpg"
    Image.new("RGB", (8, 8), (128, 128, 128)).save(tiny, "JPEG", quality=90)
    log = lambda message: print(message, file=sys.stderr, flush=True)

    has_fingerprint = glimpse_supports(args.glimpse, "bench-fingerprint")
    has_scan = glimpse_supports(args.glimpse, "bench-scan")
    cells = []
    forced = [isa for isa in args.isas.split(",") if isa]
    # (label: (decode only, forced instruction set or None for the best, layout))
    glimpse_rows = {FINGERPRINT_ROW: (False, None, "catalog"), DECODE_ROW: (True, None, "catalog"),
                    QUERY_ROW: (False, None, "query")}
    for isa in forced:
        glimpse_rows[forced_row(FINGERPRINT_ROW, isa)] = (False, isa, "catalog")
        glimpse_rows[forced_row(QUERY_ROW, isa)] = (False, isa, "query")
    details = {}
    for label, (decode_only, isa, layout) in glimpse_rows.items():
        for name, path in files.items():
            if has_fingerprint:
                detail = details.setdefault(f"{label} {name}", {})
                cells.append(Measurement("glimpse", label, name,
                                         glimpse_fingerprint(args.glimpse, path, decode_only, detail, isa, layout)))
    for label, fn in PEERS:
        for name, path in files.items():
            cells.append(Measurement("peers", label, name, in_process(fn, str(path))))
    jpeg_tool, png_tool = str(args.tools / "jpeg_limit"), str(args.tools / "png_limit")
    limit_rows = {
        JPEG_FULL_ROW: ("jpeg", "1"),
        JPEG_EIGHTH_ROW: ("jpeg", "8"),
        "djpeg process, full, minus start-up [cross-check]": ("djpeg", None),
        "djpeg process, -scale 1/8, minus start-up [cross-check]": ("djpeg", "1/8"),
        PNG_NATIVE_ROW: ("png", "native"),
        PNG_RGBA_ROW: ("png", "rgba"),
    }
    for label, (kind, mode) in limit_rows.items():
        for name, path in files.items():
            if (kind == "png") != name.endswith(".png"):
                continue
            sample = (c_limit(jpeg_tool, str(path), mode) if kind == "jpeg"
                      else c_limit(png_tool, str(path), mode) if kind == "png"
                      else djpeg_cli(path, tiny, mode))
            cells.append(Measurement("limits", label, name, sample))

    for round_index in range(budget.rounds):
        log(f"round {round_index + 1} of {budget.rounds}: {len(cells)} cells")
        for cell in cells:
            cell.run_slice(budget)

    results = {"peers": {}, "limits": {}, "glimpse": {}, "scan": {}, "best": {}}
    for label in glimpse_rows:
        results["glimpse"][label] = {name: None for name in files}
    for label in limit_rows:
        results["limits"][label] = {name: "—" for name in files}
    for cell in cells:
        results[cell.group].setdefault(cell.label, {})[cell.image] = cell.median
        results["best"].setdefault(cell.label, {})[cell.image] = cell.best
    results["glimpseDetail"] = details
    limits = results["limits"]

    # Index scan: the C popcount limit and Glimpse's scan, alternated, best of all runs.
    scan = results["scan"]
    for round_index in range(budget.rounds):
        log(f"scan round {round_index + 1} of {budget.rounds}: popcount limit and Glimpse over 1M codes")
        rows = []
        for line in run_tool([str(args.tools / "popcount_limit"), str(SCAN_CODES), "40"]).splitlines():
            kernel, best, median, _rate = line.split()
            rows.append((f"popcount limit: {kernel}", float(best), float(median)))
        if has_scan:
            out = glimpse_json(args.glimpse, ["bench-scan", "--codes", str(SCAN_CODES), "--repeat", "40"])
            rows += [(f"Glimpse {r['name']} ({out['kernel']})", r["best_ms"], r["median_ms"]) for r in out["rows"]]
        for label, best, median in rows:
            cell = scan.setdefault(label, {"bestMs": math.inf, "medians": []})
            cell["bestMs"] = min(cell["bestMs"], best)
            cell["medians"].append(median)
    for cell in scan.values():
        cell["medianMs"] = statistics.median(cell.pop("medians"))
        cell["codesPerSecond"] = SCAN_CODES / (cell["bestMs"] / 1000)

    # ------------------------------------------------------------ print
    model, cores, flags = machine_summary()
    names = [name for name, _ in IMAGES]
    print(f"Machine: {model}, {cores} cores ({flags}); {platform.system()} {platform.release()}")
    print(f"Versions: {versions()}")
    sizes = ", ".join(f"{n} {files[n].stat().st_size / 1e6:.2f} MB" for n in names)
    print(f"Images: {', '.join(d for _, d in IMAGES)}; files: {sizes}")
    if has_fingerprint:
        scales = ", ".join(f"{n} at {details[f'{FINGERPRINT_ROW} {n}'].get('scale', '?')} "
                           f"({details[f'{FINGERPRINT_ROW} {n}'].get('decoded_width')}×"
                           f"{details[f'{FINGERPRINT_ROW} {n}'].get('decoded_height')}), "
                           f"{details[f'{FINGERPRINT_ROW} {n}'].get('views')} views" for n in names)
        print(f"Glimpse decodes: {scales}")
    print(f"Method: {budget.rounds} interleaved rounds per cell, each ≥ {budget.slice_time:.2f} s and "
          f"≥ {budget.min_runs} calls after a warm-up; figure = median of the round medians.\n")

    print("### Decode + hash time (median ms per image, single-threaded)\n")
    rows = []
    for group in ("glimpse", "peers", "limits"):
        for label, per in results[group].items():
            rows.append([label] + [fmt_ms(per[n]) for n in names])
    print(table(["median ms per image, one core"] + names, rows))

    fp = results["glimpse"][FINGERPRINT_ROW]
    print("\n### Ratios: Glimpse decode + full fingerprint ÷ row (below 1 means Glimpse is faster)\n")
    if has_fingerprint:
        rows = []
        for group in ("peers", "limits"):
            for label, per in results[group].items():
                rows.append([label] + [fmt_ratio(fp[n], per[n]) if not isinstance(per[n], str) else "—"
                                       for n in names])
        print(table(["Glimpse ÷"] + names, rows))
    else:
        print("(pending: this glimpse build has no `bench-fingerprint` subcommand yet)")

    print(f"\n### Index scan: Hamming distance of one query to 1,000,000 64-bit codes "
          f"({budget.rounds} alternated rounds of 40 runs)\n")
    rows = [[label, fmt_ms(r["bestMs"]), fmt_ms(r["medianMs"]), f"{r['codesPerSecond'] / 1e9:.2f}"]
            for label, r in scan.items()]
    if not has_scan:
        rows.append(["Glimpse index scan", "pending", "pending", "pending"])
    print(table(["kernel", "best ms", "median ms", "G codes/s (best)"], rows))

    limit_scan = max((r for k, r in scan.items() if k.startswith("popcount limit")), key=lambda r: r["codesPerSecond"])
    # The index answers a query with its top-k, so that row is the one the target is about.
    glimpse_scan = next((r for k, r in scan.items() if k.startswith("Glimpse") and "top-" in k), None)
    distance_pass = next((r for k, r in scan.items() if k.startswith("Glimpse distances")), None)

    print("\n### Targets (ratio of medians; ratio of best calls in brackets)\n")
    best = results["best"]

    def ratio(a_label, b_labels, image):
        """Glimpse row ÷ the fastest of the limit rows, for medians and for best calls."""
        a = results["glimpse"][a_label][image]
        if a is None:
            return None, None
        b_median = min(limits[b][image] for b in b_labels)
        b_best = min(best[b][image] for b in b_labels)
        return a / b_median, best[a_label][image] / b_best

    def verdict(value, ok):
        return "pending" if value is None else ("met" if ok(value) else "NOT met")

    def shown(pair):
        return "pending" if pair[0] is None else f"{pair[0]:.2f} ({pair[1]:.2f})"

    def peer_ratio(a_label, b_label, image):
        """Glimpse row ÷ a peer row, for medians and for best calls."""
        a = results["glimpse"][a_label][image]
        if a is None:
            return None, None
        return a / results["peers"][b_label][image], best[a_label][image] / best[b_label][image]

    best_isa = details.get(f"{FINGERPRINT_ROW} large.jpg", {}).get("isa", "best")
    scan_ratio = glimpse_scan["codesPerSecond"] / limit_scan["codesPerSecond"] if glimpse_scan else None
    rows = []
    for isa, fp_label, query_label in [(best_isa, FINGERPRINT_ROW, QUERY_ROW)] + [
            (isa, forced_row(FINGERPRINT_ROW, isa), forced_row(QUERY_ROW, isa)) for isa in forced]:
        jpeg = ratio(fp_label, [JPEG_EIGHTH_ROW], "large.jpg")
        png = ratio(fp_label, [PNG_NATIVE_ROW, PNG_RGBA_ROW], "medium.png")
        small = peer_ratio(fp_label, SMALL_PEER, "small.jpg")
        small_query = peer_ratio(query_label, SMALL_PEER, "small.jpg")
        rows += [
            [f"[{isa}] 12 MP JPEG: Glimpse decode + full fingerprint ÷ libjpeg-turbo at scale 1/8", f"≤ {TARGET_JPEG}",
             shown(jpeg), verdict(jpeg[0], lambda v: v <= TARGET_JPEG)],
            [f"[{isa}] 1080p PNG: Glimpse decode + full fingerprint ÷ libpng decode (faster of native, RGBA)",
             f"≤ {TARGET_PNG}", shown(png), verdict(png[0], lambda v: v <= TARGET_PNG)],
            [f"[{isa}] 640×480 JPEG: Glimpse decode + catalog fingerprint ÷ OpenCV img_hash PHash (imread)",
             f"≤ {TARGET_SMALL}", shown(small), verdict(small[0], lambda v: v <= TARGET_SMALL)],
            [f"[{isa}] 640×480 JPEG: Glimpse decode + query fingerprint ÷ OpenCV img_hash PHash (imread)",
             f"≤ {TARGET_SMALL_QUERY}", shown(small_query), verdict(small_query[0], lambda v: v <= TARGET_SMALL_QUERY)],
        ]
    rows += [
        ["1M-code scan: Glimpse top-10 scan throughput ÷ best popcount kernel (best runs)", f"≥ {TARGET_SCAN}",
         "pending" if scan_ratio is None else f"{scan_ratio:.2f}", verdict(scan_ratio, lambda v: v >= TARGET_SCAN)],
    ]
    if distance_pass:
        rows.append(["(reference) Glimpse distance pass alone ÷ best popcount kernel", "—",
                     f"{distance_pass['codesPerSecond'] / limit_scan['codesPerSecond']:.2f}", "—"])
    if has_fingerprint:
        rows.append(["(reference) 12 MP JPEG: Glimpse decode alone ÷ libjpeg-turbo at scale 1/8", "—",
                     shown(ratio(DECODE_ROW, [JPEG_EIGHTH_ROW], "large.jpg")), "—"])
        rows.append(["(reference) 1080p PNG: Glimpse decode alone ÷ libpng decode", "—",
                     shown(ratio(DECODE_ROW, [PNG_NATIVE_ROW, PNG_RGBA_ROW], "medium.png")), "—"])
    print(table(["target", "goal", "measured", "verdict"], rows))

    if has_fingerprint:
        print("\nGlimpse speed-up, peer ÷ Glimpse (decode + hash, medians): " + "; ".join(
            f"{label.split(' (')[0]}: " + ", ".join(f"{n} {results['peers'][label][n] / fp[n]:.1f}×" for n in names)
            for label in HEADLINE_PEERS))

    if args.json:
        results["machine"] = {"model": model, "cores": cores, "flags": flags, "versions": versions()}
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
