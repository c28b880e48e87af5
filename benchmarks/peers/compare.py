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

TARGET_JPEG = 1.3  # Glimpse fingerprint of the 12 MP JPEG ÷ libjpeg at scale 1/8
TARGET_PNG = 1.2  # Glimpse fingerprint of the 1080p PNG ÷ libpng's own decode
TARGET_SCAN = 0.8  # Glimpse scan throughput ÷ popcount limit throughput


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
    """How long to measure each (row, image): at least min_runs calls and min_time seconds."""

    def __init__(self, min_time, min_runs, max_runs):
        self.min_time, self.min_runs, self.max_runs = min_time, min_runs, max_runs

    def runs_for(self, estimate_ms):
        wanted = math.ceil(self.min_time * 1000 / max(estimate_ms, 1e-3))
        return max(self.min_runs, min(self.max_runs, wanted))


def measure_in_process(fn, path, budget):
    """Median wall time in ms of fn(path), after one warm-up call."""
    fn(path)
    gc.collect()
    times = []
    start = time.perf_counter()
    while len(times) < budget.max_runs and (len(times) < budget.min_runs
                                           or time.perf_counter() - start < budget.min_time):
        t0 = time.perf_counter_ns()
        fn(path)
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1e6


def run_tool(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def measure_c_limit(tool, path, mode, budget):
    """Median ms of a C limit tool's in-process decode loop (see limits/*.c)."""
    estimate = float(run_tool([tool, path, mode, "3"]).split()[0])
    return float(run_tool([tool, path, mode, str(budget.runs_for(estimate))]).split()[0])


def measure_djpeg_cli(path, tiny, budget, scale):
    """Median ms of the `djpeg` process on path minus that on a tiny JPEG (start-up)."""

    def median_process(file):
        args = ["djpeg"] + (["-scale", scale] if scale else []) + [str(file)]
        subprocess.run(args, stdout=subprocess.DEVNULL, check=True)
        times = []
        start = time.perf_counter()
        while len(times) < budget.max_runs and (len(times) < max(budget.min_runs, 15)
                                               or time.perf_counter() - start < budget.min_time):
            t0 = time.perf_counter_ns()
            subprocess.run(args, stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter_ns() - t0)
        return statistics.median(times) / 1e6

    return median_process(path) - median_process(tiny)


def glimpse_json(glimpse, args):
    return json.loads(run_tool([glimpse] + args).strip().splitlines()[-1])


def measure_glimpse(glimpse, path, budget, decode_only):
    extra = ["--decode-only"] if decode_only else []
    estimate = glimpse_json(glimpse, ["bench-fingerprint", str(path), "--repeat", "3"] + extra)["medianMs"]
    runs = budget.runs_for(estimate)
    return glimpse_json(glimpse, ["bench-fingerprint", str(path), "--repeat", str(runs)] + extra)


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
    parser.add_argument("--min-runs", type=int, default=7)
    parser.add_argument("--max-runs", type=int, default=300)
    parser.add_argument("--json", type=pathlib.Path, help="also write every figure here")
    args = parser.parse_args()

    cv2.setNumThreads(1)
    budget = Budget(args.min_time, args.min_runs, args.max_runs)
    files = {name: args.images / name for name, _ in IMAGES}
    for name, path in files.items():
        if not path.is_file():
            sys.exit(f"compare.py: {path}: missing (run make_images.py first)")
    tiny = args.images / "tiny.jpg"
    Image.new("RGB", (8, 8), (128, 128, 128)).save(tiny, "JPEG", quality=90)
    log = lambda message: print(message, file=sys.stderr, flush=True)

    results = {"peers": {}, "limits": {}, "glimpse": {}, "scan": {}}

    # Glimpse first (fresh caches for nobody: every row gets a warm-up call anyway).
    has_fingerprint = glimpse_supports(args.glimpse, "bench-fingerprint")
    has_scan = glimpse_supports(args.glimpse, "bench-scan")
    glimpse_rows = {"Glimpse decode + full fingerprint (all views, all codes)": False,
                    "Glimpse decode only (what the fingerprint needs)": True}
    for label, decode_only in glimpse_rows.items():
        results["glimpse"][label] = {}
        for name, path in files.items():
            if has_fingerprint:
                log(f"timing {label} on {name}")
                result = measure_glimpse(args.glimpse, path, budget, decode_only)
                results["glimpse"][label][name] = result["medianMs"]
                results["glimpse"].setdefault("_detail", {})[f"{label} {name}"] = result
            else:
                results["glimpse"][label][name] = None

    for label, fn in PEERS:
        results["peers"][label] = {}
        for name, path in files.items():
            log(f"timing {label} on {name}")
            results["peers"][label][name] = measure_in_process(fn, str(path), budget)

    limits = results["limits"]
    jpeg_tool, png_tool = str(args.tools / "jpeg_limit"), str(args.tools / "png_limit")
    limit_rows = {
        "libjpeg-turbo decode, full size (djpeg's settings)": ("jpeg", "1"),
        "libjpeg-turbo decode, scale 1/8 (djpeg -scale 1/8)": ("jpeg", "8"),
        "djpeg process, full, minus start-up [cross-check]": ("djpeg", None),
        "djpeg process, -scale 1/8, minus start-up [cross-check]": ("djpeg", "1/8"),
        "libpng decode, native layout (RGB)": ("png", "native"),
        "libpng decode to RGBA8 (Glimpse's layout)": ("png", "rgba"),
    }
    for label, (kind, mode) in limit_rows.items():
        limits[label] = {}
        for name, path in files.items():
            is_png = name.endswith(".png")
            if (kind == "png") != is_png:
                limits[label][name] = "—"
                continue
            log(f"timing {label} on {name}")
            if kind == "jpeg":
                limits[label][name] = measure_c_limit(jpeg_tool, str(path), mode, budget)
            elif kind == "png":
                limits[label][name] = measure_c_limit(png_tool, str(path), mode, budget)
            else:
                limits[label][name] = measure_djpeg_cli(path, tiny, budget, mode)

    log("timing the popcount limit over 1M codes")
    for line in run_tool([str(args.tools / "popcount_limit"), str(SCAN_CODES), "200"]).splitlines():
        kernel, best, median, rate = line.split()
        results["scan"][f"popcount limit: {kernel}"] = {"bestMs": float(best), "medianMs": float(median),
                                                        "codesPerSecond": float(rate)}
    if has_scan:
        log("timing Glimpse's index scan over 1M codes")
        scan = glimpse_json(args.glimpse, ["bench-scan", "--codes", str(SCAN_CODES), "--repeat", "200"])
        for row in scan["rows"]:
            results["scan"][f"Glimpse {row['name']} ({scan['kernel']})"] = row

    # ------------------------------------------------------------ print
    model, cores, flags = machine_summary()
    names = [name for name, _ in IMAGES]
    header = ["median ms per image, one core"] + [f"{n}" for n in names]
    print(f"Machine: {model}, {cores} cores ({flags}); {platform.system()} {platform.release()}")
    print(f"Versions: {versions()}")
    sizes = ", ".join(f"{n} {files[n].stat().st_size / 1e6:.2f} MB" for n in names)
    print(f"Images: {', '.join(d for _, d in IMAGES)}; files: {sizes}\n")

    print("### Decode + hash time (median ms per image, single-threaded)\n")
    rows = []
    for group in ("glimpse", "peers", "limits"):
        for label, per in results[group].items():
            if label.startswith("_"):
                continue
            rows.append([label] + [fmt_ms(per[n]) for n in names])
    print(table(header, rows))

    fp = results["glimpse"]["Glimpse decode + full fingerprint (all views, all codes)"]
    print("\n### Ratios: Glimpse decode + full fingerprint ÷ row (below 1 means Glimpse is faster)\n")
    if not has_fingerprint:
        print("(pending: this glimpse build has no `bench-fingerprint` subcommand yet)")
    rows = [] if has_fingerprint else None
    for group in ("peers", "limits"):
        for label, per in results[group].items():
            if rows is not None:
                rows.append([label] + [fmt_ratio(fp[n], per[n]) if not isinstance(per[n], str) else "—"
                                       for n in names])
    if rows is not None:
        print(table(["Glimpse ÷"] + names, rows))

    print("\n### Index scan: Hamming distance of one query to 1,000,000 64-bit codes (best of 200)\n")
    rows = []
    for label, r in results["scan"].items():
        rows.append([label, fmt_ms(r["bestMs"]), fmt_ms(r["medianMs"]), f"{r['codesPerSecond'] / 1e9:.2f}"])
    if not has_scan:
        rows.append(["Glimpse index scan", "pending", "pending", "pending"])
    print(table(["kernel", "best ms", "median ms", "G codes/s"], rows))

    limit_scan = max((r for k, r in results["scan"].items() if k.startswith("popcount limit")),
                     key=lambda r: r["codesPerSecond"])
    # The index answers a query with its top-k, so that row is the one the target is about.
    glimpse_scan = next((r for k, r in results["scan"].items() if k.startswith("Glimpse") and "top-" in k), None)

    print("\n### Targets\n")
    large_limit = limits["libjpeg-turbo decode, scale 1/8 (djpeg -scale 1/8)"]["large.jpg"]
    png_limit = min(limits["libpng decode to RGBA8 (Glimpse's layout)"]["medium.png"],
                    limits["libpng decode, native layout (RGB)"]["medium.png"])

    def verdict(ok):
        return "pending" if ok is None else ("met" if ok else "NOT met")

    jpeg_ratio = fp["large.jpg"] / large_limit if fp["large.jpg"] is not None else None
    png_ratio = fp["medium.png"] / png_limit if fp["medium.png"] is not None else None
    scan_ratio = glimpse_scan["codesPerSecond"] / limit_scan["codesPerSecond"] if glimpse_scan else None
    rows = [
        ["12 MP JPEG: Glimpse decode + full fingerprint ÷ libjpeg scale 1/8", f"≤ {TARGET_JPEG}",
         "pending" if jpeg_ratio is None else f"{jpeg_ratio:.2f}",
         verdict(None if jpeg_ratio is None else jpeg_ratio <= TARGET_JPEG)],
        ["1080p PNG: Glimpse decode + full fingerprint ÷ libpng decode (faster of native, RGBA)",
         f"≤ {TARGET_PNG}", "pending" if png_ratio is None else f"{png_ratio:.2f}",
         verdict(None if png_ratio is None else png_ratio <= TARGET_PNG)],
        ["1M-code scan: Glimpse top-10 scan throughput ÷ best popcount kernel", f"≥ {TARGET_SCAN}",
         "pending" if scan_ratio is None else f"{scan_ratio:.2f}",
         verdict(None if scan_ratio is None else scan_ratio >= TARGET_SCAN)],
    ]
    distance_pass = next((r for k, r in results["scan"].items() if k.startswith("Glimpse distances")), None)
    if distance_pass:
        rows.append(["(for reference) Glimpse distance pass alone ÷ best popcount kernel", "—",
                     f"{distance_pass['codesPerSecond'] / limit_scan['codesPerSecond']:.2f}", "—"])
    decode_only = results["glimpse"]["Glimpse decode only (what the fingerprint needs)"]
    if decode_only["medium.png"] is not None:
        rows.append(["(for reference) 1080p PNG: Glimpse decode alone ÷ libpng decode", "—",
                     f"{decode_only['medium.png'] / png_limit:.2f}", "—"])
        rows.append(["(for reference) 12 MP JPEG: Glimpse decode alone ÷ libjpeg scale 1/8", "—",
                     f"{decode_only['large.jpg'] / large_limit:.2f}", "—"])
    print(table(["target", "goal", "measured", "verdict"], rows))

    if fp["large.jpg"] is not None:
        print("\nGlimpse speed-up on the 12 MP JPEG (peer ÷ Glimpse): " + ", ".join(
            f"{label.split(' (')[0]} {results['peers'][label]['large.jpg'] / fp['large.jpg']:.1f}×"
            for label in HEADLINE_PEERS))

    if args.json:
        results["machine"] = {"model": model, "cores": cores, "flags": flags, "versions": versions()}
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
