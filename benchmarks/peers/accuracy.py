"""recall@1 per transformation of the peers' hashes, beside Glimpse's, on the same queries.

Layout (what `glimpse eval --export-queries DIR` is asked to write, and what
make_queries.py writes):
    QUERIES/<transformation>/<catalog-id>.<ext>   a query whose true answer is <catalog-id>
    CATALOG/<catalog-id>.<ext>                      the catalog images (ids may hold '/')
Queries whose id is not in the catalog (e.g. a `negatives/` folder) are skipped.

For each peer hash (imagehash phash, OpenCV img_hash PHash, PDQ, and PDQ with the query's
8 dihedral hashes, as PDQ users match flips and rotations) every catalog image is hashed once; a query's answer is the catalog image at the smallest Hamming distance,
ties broken by id (so the result is deterministic). Decoding: Pillow for imagehash,
OpenCV for img_hash and PDQ, as their users do.

Glimpse's column comes from --glimpse-recall FILE: TSV lines `transformation<TAB>recall`
or JSON (an object transformation → recall, or a list of objects with a transformation
name and a recall@1 field, as `glimpse eval --json` may print); "pending" without it.

Usage: python accuracy.py --queries DIR --catalog DIR [--glimpse-recall FILE] [--json OUT]
"""

import argparse
import json
import pathlib
import sys

import cv2
import imagehash
import numpy
import pdqhash
from PIL import Image

SUFFIXES = {".jpg", ".jpeg", ".png"}


def bits_to_int(bits):
    value = 0
    for bit in numpy.asarray(bits).astype(bool).ravel():
        value = (value << 1) | int(bit)
    return value


def imagehash_phash(path):
    with Image.open(path) as im:
        return bits_to_int(imagehash.phash(im).hash)


def opencv_phash(path):
    image = cv2.imread(str(path))
    return int.from_bytes(cv2.img_hash.pHash(image).tobytes(), "big")


def pdq(path):
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    vector, _quality = pdqhash.compute(image)
    return bits_to_int(vector)


def pdq_dihedral(path):
    """The query's 8 dihedral PDQ hashes (rotations and flips), as PDQ users match flips."""
    image = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    vectors, _quality = pdqhash.compute_dihedral(image)
    return [bits_to_int(v) for v in vectors]


# (label, hash of a catalog image, hash(es) of a query)
METHODS = [
    ("imagehash phash (64 bits)", imagehash_phash, imagehash_phash),
    ("OpenCV img_hash PHash (64 bits)", opencv_phash, opencv_phash),
    ("pdqhash PDQ (256 bits)", pdq, pdq),
    ("pdqhash PDQ, 8 dihedral query hashes", pdq, pdq_dihedral),
]


def images_under(folder):
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())


def identifier(path, root):
    return path.relative_to(root).with_suffix("").as_posix()


def nearest(code, catalog_codes):
    """Id of the catalog code closest to `code` (Hamming; for a list of query codes, the
    smallest distance of any), ties broken by the smaller id."""
    codes = code if isinstance(code, list) else [code]
    best_id, best_distance = None, None
    for cid, other in catalog_codes:  # sorted by id, so strict < keeps the smallest id
        distance = min((c ^ other).bit_count() for c in codes)
        if best_distance is None or distance < best_distance:
            best_id, best_distance = cid, distance
    return best_id


def load_glimpse_recall(path):
    """transformation → recall@1 from a TSV or JSON file (see module doc)."""
    text = pathlib.Path(path).read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        result = {}
        for line in text.splitlines():
            parts = line.strip().split("\t")
            if len(parts) >= 2 and not line.startswith("#"):
                try:
                    result[parts[0]] = float(parts[1])
                except ValueError:
                    continue  # a header line
        return result
    keys = ("recallAt1", "recall@1", "recall1", "recall_at_1", "r1")
    overall = None
    if isinstance(data, dict) and isinstance(data.get("overall"), dict):  # EvaluationReport's JSON
        overall = next((float(data["overall"][x]) for x in keys if x in data["overall"]), None)
    if isinstance(data, dict):
        for container in ("transformations", "perTransformation", "rows", "results"):
            if container in data:
                data = data[container]
                break
    if isinstance(data, dict):
        return {k: (v if isinstance(v, (int, float)) else next(v[x] for x in keys if x in v))
                for k, v in data.items() if isinstance(v, (int, float)) or any(x in v for x in keys)}
    result = {}
    for row in data:
        name = row.get("transformation") or row.get("name")
        value = next((row[x] for x in keys if x in row), None)
        if name is not None and value is not None:
            result[name] = float(value)
    if overall is not None:
        result.setdefault("overall", overall)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", required=True, type=pathlib.Path)
    parser.add_argument("--catalog", required=True, type=pathlib.Path)
    parser.add_argument("--glimpse-recall", help="Glimpse's recall@1 per transformation (TSV or JSON)")
    parser.add_argument("--json", type=pathlib.Path, help="also write the figures here")
    parser.add_argument("--allow-partial", action="store_true",
                        help="accept transformations with fewer queries than catalog images")
    args = parser.parse_args()
    cv2.setNumThreads(1)

    catalog_files = images_under(args.catalog)
    if not catalog_files:
        sys.exit(f"accuracy.py: {args.catalog}: no catalog images")
    catalog_ids = {identifier(p, args.catalog) for p in catalog_files}
    transformations = sorted(d for d in args.queries.iterdir() if d.is_dir())
    queries = {}
    for folder in transformations:
        pairs = [(p, identifier(p, folder)) for p in images_under(folder)]
        pairs = [(p, cid) for p, cid in pairs if cid in catalog_ids]
        if pairs:
            queries[folder.name] = pairs
    if not queries:
        sys.exit(f"accuracy.py: {args.queries}: no <transformation>/<catalog-id> queries matching the catalog")
    # A partial export (a killed or failed `glimpse eval --export-queries`) must not pass for
    # a smaller evaluation: every transformation needs a query for every catalog image.
    incomplete = [f"{folder.name} ({len(queries.get(folder.name, []))} of {len(catalog_ids)})"
                  for folder in transformations if len(queries.get(folder.name, [])) != len(catalog_ids)]
    if incomplete and not args.allow_partial:
        sys.exit(f"accuracy.py: {args.queries}: incomplete query export, transformations missing queries: "
                 + ", ".join(incomplete) + " (re-run the export, or pass --allow-partial)")

    recall = {}  # method → transformation → (hits, total)
    for label, catalog_hash, query_hash in METHODS:
        print(f"accuracy: hashing with {label}", file=sys.stderr, flush=True)
        catalog_codes = sorted((identifier(p, args.catalog), catalog_hash(p)) for p in catalog_files)
        recall[label] = {}
        for name, pairs in queries.items():
            hits = sum(1 for path, cid in pairs if nearest(query_hash(path), catalog_codes) == cid)
            recall[label][name] = (hits, len(pairs))

    glimpse = load_glimpse_recall(args.glimpse_recall) if args.glimpse_recall else {}
    labels = [label for label, _, _ in METHODS]
    print(f"### Accuracy: recall@1 per transformation ({len(catalog_files)} catalog images, "
          f"nearest neighbour by Hamming distance)\n")
    print("| transformation | queries | " + " | ".join(labels) + " | Glimpse |")
    print("|---|---:|" + "---:|" * (len(labels) + 1))
    totals = {label: [0, 0] for label in labels}
    for name, pairs in queries.items():
        cells = []
        for label in labels:
            hits, total = recall[label][name]
            totals[label][0] += hits
            totals[label][1] += total
            cells.append(f"{hits / total:.2f}")
        g = glimpse.get(name)
        print(f"| {name} | {len(pairs)} | " + " | ".join(cells) + f" | {'pending' if g is None else f'{g:.2f}'} |")
    overall = [f"**{totals[l][0] / totals[l][1]:.2f}**" for l in labels]
    g = glimpse.get("overall") or glimpse.get("all")
    print(f"| **overall** | {sum(len(p) for p in queries.values())} | " + " | ".join(overall)
          + f" | {'pending' if g is None else f'**{g:.2f}**'} |")

    if args.json:
        args.json.write_text(json.dumps({"recall": {l: {n: h / t for n, (h, t) in recall[l].items()} for l in labels},
                                         "glimpse": glimpse}, indent=2))


if __name__ == "__main__":
    main()
