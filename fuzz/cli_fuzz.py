#!/usr/bin/env python3
"""Fuzzes the glimpse command line as a hostile-but-ordinary user would.

Each round builds a fresh case folder of image files (real ones from testdata/, damaged
ones, random bytes, empty files, a FIFO, odd names: newlines, commas, quotes, leading
dashes, bytes that are not UTF-8), writes a random manifest pointing at them (sometimes
broken JSON, Latin-1, control characters in ids), indexes it (or the folder), then runs
random commands on the catalog (query with random regions and tokens, open, export,
catalog list/remove/undo, match, inspect, hash) plus argument vectors made of random
flags and values. Every run of the real binary is checked:

  * it ends by itself within the time limit (no hang) and not by a signal (no crash);
  * its exit status is one of the documented ones: 0, 1, 2, 3, 4;
  * every line on stderr is a progress or summary line or one `glimpse: ...` line, and a
    status-1 run of a single-input command printed exactly one `glimpse:` line;
  * after every command that writes the catalog, `PRAGMA integrity_check` says ok.

A finding is kept in ARTIFACTS/finding-N/ (the case folder, the command, its output) and
makes the exit status 1. Usage (scripts/fuzz.sh cli SECONDS calls this):

  fuzz/cli_fuzz.py --binary .build/debug/glimpse --seconds 30 [--seed N] [--artifacts DIR]
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

EXIT_CODES = {0, 1, 2, 3, 4}
PROGRESS_PREFIXES = ("index:", "match:", "Matched ", "Wrote ", "Indexed ", "Restored ", "Archived ", "Deleted ")
SINGLE_INPUT = {"inspect", "open", "export", "catalog"}


def odd_name(rng):
    """A file name a user could really have: bytes, not text."""
    stem = rng.choice([b"photo", b"IMG_0001", b"caf\xc3\xa9", b"bad\xffname", b"a\nb", b"a,b", b'say "x"',
                       b"-dash", b" space ", b"tab\tname", b"\xe2\x80\xaeevil", b"dot.", b"long" * 40, b"semi;colon"])
    ext = rng.choice([b".jpg", b".png", b".JPG", b".jpeg", b"", b".txt", b".jpg.png"])
    return stem + str(rng.randrange(1000)).encode() + ext


def mutate(rng, data):
    data = bytearray(data)
    choice = rng.randrange(6)
    if choice == 0 and data:  # truncate
        return bytes(data[: rng.randrange(len(data))])
    if choice == 1 and data:  # flip bytes
        for _ in range(rng.randrange(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if choice == 2:  # random bytes after a real signature
        return bytes(data[:rng.choice([3, 8, 64])]) + os.urandom(rng.randrange(1, 4096))
    if choice == 3:
        return b""
    if choice == 4:
        return os.urandom(rng.randrange(1, 2048))
    return bytes(data)


class Fuzzer:
    def __init__(self, binary, repo, seed, artifacts, timeout):
        self.binary = os.path.abspath(binary)
        self.repo = repo
        self.rng = random.Random(seed)
        self.seed = seed
        self.artifacts = artifacts
        self.timeout = timeout
        self.runs = 0
        self.findings = 0
        self.statuses = {}
        self.verbose = False
        images = []
        for folder in ["testdata/catalog/food", "testdata/catalog/sky", "testdata/jpeg", "testdata/pngsuite", "testdata/negatives"]:
            for name in sorted(os.listdir(os.path.join(repo, folder))):
                path = os.path.join(repo, folder, name)
                if name.lower().endswith((".jpg", ".png")) and os.path.getsize(path) < 120_000:
                    images.append(path)
        self.images = images

    # ---- building a case -------------------------------------------------------------
    def make_case(self, folder):
        rng = self.rng
        os.makedirs(os.path.join(folder, b"photos"))
        files = []
        self.intact = []
        for _ in range(rng.randrange(1, 7)):
            sub = rng.choice([b"", b"sub", b"sub/deeper", b".hidden", b"odd\xff"])
            directory = os.path.join(folder, b"photos", sub) if sub else os.path.join(folder, b"photos")
            os.makedirs(directory, exist_ok=True)
            name = odd_name(rng)
            path = os.path.join(directory, name)
            with open(self.rng.choice(self.images), "rb") as f:
                data = f.read()
            intact = rng.random() >= 0.4
            if not intact:
                data = mutate(rng, data)
            with open(path, "wb") as f:
                f.write(data)
            files.append(os.path.relpath(path, folder))
            if intact and b"." + name.rsplit(b".", 1)[-1] in (b".jpg", b".png", b".JPG", b".jpeg"):
                self.intact.append(os.path.relpath(path, folder))
        if rng.random() < 0.3:
            fifo = os.path.join(folder, b"photos", b"pipe" + str(rng.randrange(100)).encode() + b".jpg")
            if not os.path.exists(fifo):
                os.mkfifo(fifo)
                files.append(os.path.relpath(fifo, folder))
        if rng.random() < 0.2:
            os.symlink(b"/nonexistent/x.jpg", os.path.join(folder, b"photos", b"dangling.jpg"))
        manifest = self.make_manifest(files)
        with open(os.path.join(folder, b"manifest.json"), "wb") as f:
            f.write(manifest)
        return files

    def make_manifest(self, files):
        rng = self.rng
        if self.intact and rng.random() < 0.5:
            # A valid manifest over the intact images, so that later commands have a catalog.
            landmarks = [{"id": "l%d" % i, "name": "L%d" % i, "images": [os.fsdecode(path)]} for i, path in enumerate(self.intact)]
            return json.dumps({"landmarks": landmarks, "collections": [{"id": "c", "name": "C", "landmarks": ["l0"]}]},
                              ensure_ascii=False).encode("utf-8", "surrogateescape")
        landmarks = []
        ids = []
        for i in range(rng.randrange(0, 5)):
            ident = rng.choice(["l%d" % i, "x", "x\u0000z", "a/b", "caf\u00e9", "new\nline", " ", "", "%2F", "\u202e", "l%d" % i])
            ids.append(ident)
            images = [os.fsdecode(rng.choice(files)) for _ in range(rng.randrange(0, 3))] if files else []
            if rng.random() < 0.15:
                images.append(rng.choice(["missing.jpg", "/etc/passwd", "photos", "../../x.jpg", 42]))
            landmark = {"id": ident, "name": rng.choice(["A", "B\nC", "", "Ünïcödé", 7]), "images": images}
            if rng.random() < 0.3:
                landmark["location"] = {"latitude": rng.uniform(-100, 100), "longitude": rng.uniform(-200, 200)}
            if rng.random() < 0.1:
                landmark["typo"] = 1
            landmarks.append(landmark)
        collections = []
        if ids and rng.random() < 0.6:
            collections.append({"id": rng.choice(["c", "c\u0001", "food"]), "name": "C",
                                "landmarks": [rng.choice(ids + ["unknown"]) for _ in range(rng.randrange(0, 3))]})
        document = {"landmarks": landmarks}
        if collections:
            document["collections"] = collections
        if rng.random() < 0.1:
            document["version"] = rng.choice([1, 2, "1"])
        try:
            text = json.dumps(document, ensure_ascii=rng.random() < 0.5)
        except (TypeError, ValueError):
            text = "{}"
        data = text.encode("utf-8", "surrogateescape")
        r = rng.random()
        if r < 0.05:
            data = text.encode("latin-1", "replace")
        elif r < 0.12:
            data = mutate(rng, data)
        return data

    # ---- commands ----------------------------------------------------------------------
    def random_region(self):
        rng = self.rng
        return rng.choice(["0,0,10,10", "-5,0,100,100", "5,5,0,0", "1,2,3", "a,b,c,d", "0,0,99999,99999",
                           "%d,%d,%d,%d" % tuple(rng.randrange(-10, 400) for _ in range(4))])

    def random_fraction(self):
        rng = self.rng
        return rng.choice(["0,0,1,1", "0.1,0.1,0.5,0.5", "-0.1,0,1,1", "nan,0,1,1", "0,0,2,2", "0,0,0,0", "1e308,0,1,1"])

    def random_entity(self):
        rng = self.rng
        return rng.choice(["landmark:x", "landmark:l0", "landmark:l1", "collection:c", "landmark:apricot",
                           "glimpse://landmark/l0", "glimpse://landmark/%00", "glimpse://x/y", "nope", "landmark:",
                           "collection:sub", "landmark:photo1", ":", "landmark:a%2Fb"])

    def random_image_argument(self, files):
        rng = self.rng
        if files and rng.random() < 0.8:
            return os.path.join(b"", rng.choice(files))
        return rng.choice([b"missing.jpg", b"photos", b"/dev/null", b"", b"-", b"manifest.json"])

    def commands(self, files):
        rng = self.rng
        db = [b"--db", b"g.sqlite"]
        out = []
        for _ in range(rng.randrange(2, 7)):
            kind = rng.randrange(11)
            if kind == 0:
                args = [b"query", self.random_image_argument(files)] + db
                if rng.random() < 0.5:
                    args += [b"--region", self.random_region().encode()] if rng.random() < 0.5 else [b"--region-fraction", self.random_fraction().encode()]
                if rng.random() < 0.3:
                    args += [b"--page-size", str(rng.choice([0, 1, 3, 1001, -1])).encode()]
                if rng.random() < 0.3:
                    args += [b"--page-token", rng.choice([b"AQEAAAABAAAA", b"not-a-token", b"", os.urandom(8).hex().encode()])]
                if rng.random() < 0.3:
                    args += [b"--deadline-ms", str(rng.choice([1, 5, 0, -3, 100000])).encode()]
                if rng.random() < 0.3:
                    args += [b"--json"]
                if rng.random() < 0.2:
                    args += [b"--labels", rng.choice([b"snow", b",,", b"\xff"])]
            elif kind == 1:
                args = [b"open", self.random_entity().encode()] + db + ([b"--json"] if rng.random() < 0.3 else []) \
                    + ([b"--with", rng.choice([b"image-statistics", b"nope"])] if rng.random() < 0.3 else [])
            elif kind == 2:
                args = [b"export", self.random_entity().encode()] + db + [b"--as", rng.choice([b"json", b"text", b"png", b"gif"])]
                if rng.random() < 0.7:
                    args += [b"--out", rng.choice([b"out.bin", b"photos", b"nodir/x.png"])]
            elif kind == 3:
                args = [b"catalog", b"list"] + db + rng.sample([[b"--json"], [b"--removed"], [b"--kind", b"landmark"], [b"--kind", b"bogus"]], 1)[0]
            elif kind == 4:
                args = [b"catalog", b"remove", self.random_entity().encode(), rng.choice([b"--archive", b"--delete"])] + db
            elif kind == 5:
                args = [b"catalog", b"undo"] + db
            elif kind == 6:
                args = [b"match", rng.choice([b"photos", b"photos/sub", b"missing", b"manifest.json"])] + db
                if rng.random() < 0.5:
                    args += [b"--out", rng.choice([b"m.csv", b"m.jsonl", b"photos"])]
                if rng.random() < 0.3:
                    args += [b"--format", rng.choice([b"csv", b"jsonl", b"xml"])]
                if rng.random() < 0.2:
                    args += [b"--report", rng.choice([b"r.html", b"photos"])]
                args += [b"--jobs", str(rng.choice([1, 2, 0])).encode()]
            elif kind == 7:
                args = [b"inspect", self.random_image_argument(files)]
                if rng.random() < 0.4:
                    args += [b"--region", self.random_region().encode()]
                if rng.random() < 0.2:
                    args += [b"--min-side", str(rng.choice([1, 64, 0, -1])).encode()]
                if rng.random() < 0.2:
                    args += [b"--dump", rng.choice([b"d.pam", b"photos"])]
                if rng.random() < 0.3:
                    args += [b"--json"]
            elif kind == 8:
                args = [b"hash"] + [self.random_image_argument(files) for _ in range(rng.randrange(1, 4))] \
                    + rng.choice([[], [b"--format", b"json"], [b"--algorithm", b"phash"], [b"--algorithm", b"bogus"]])
            elif kind == 9:
                args = [b"index", rng.choice([b"photos", b"manifest.json"])] + db + [b"--jobs", str(rng.choice([1, 2])).encode()]
            else:
                vocabulary = [b"query", b"index", b"open", b"catalog", b"list", b"--db", b"g.sqlite", b"--json", b"--region",
                              b"--help", b"-h", b"--", b"--page-token", b"x", b"-5", b"\xff", b"", b"--version", b"match",
                              b"photos", b"--jobs", b"99999999999999999999", b"export", b"hash", b"inspect", b"undo"]
                args = [rng.choice(vocabulary) for _ in range(rng.randrange(0, 6))]
            out.append(args)
        return out

    # ---- running and checking ------------------------------------------------------------
    def run(self, case, args):
        self.runs += 1
        started = time.monotonic()
        try:
            process = subprocess.Popen([os.fsencode(self.binary)] + args, cwd=case, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        except OSError as error:
            return None, b"", str(error).encode(), 0.0
        try:
            stdout, stderr = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            return "hang", stdout, stderr, time.monotonic() - started
        return process.returncode, stdout, stderr, time.monotonic() - started

    def check(self, case, args, status, stderr):
        problems = []
        if status == "hang":
            problems.append("no exit within %d s (hang)" % self.timeout)
            return problems
        if status is None:
            return problems
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status < 0:
            problems.append("killed by signal %d (crash)" % -status)
            return problems
        if status not in EXIT_CODES:
            problems.append("exit status %d is not documented" % status)
        lines = [line for line in stderr.split(b"\n") if line]
        errors = [line for line in lines if line.startswith(b"glimpse: ")]
        for line in lines:
            if not line.startswith(b"glimpse: ") and not line.decode("utf-8", "replace").startswith(PROGRESS_PREFIXES) \
                    and not line.startswith(b"Error:") and not line.startswith(b"Usage:") and not line.startswith(b"  "):
                problems.append("stray stderr line: %r" % line[:200])
        if status == 1 and args and args[0].decode("utf-8", "replace") in SINGLE_INPUT and len(errors) != 1:
            problems.append("exit 1 with %d 'glimpse:' lines (want one)" % len(errors))
        if status == 1 and not errors and b"--help" not in args and b"-h" not in args:
            problems.append("exit 1 without a 'glimpse:' line")
        return problems

    def integrity(self, case):
        path = os.path.join(case, b"g.sqlite")
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return []
        try:
            connection = sqlite3.connect("file:%s?mode=ro" % os.fsdecode(path), uri=True)
            try:
                result = connection.execute("PRAGMA integrity_check").fetchall()
            finally:
                connection.close()
        except sqlite3.DatabaseError as error:
            return ["catalog cannot be checked: %s" % error]
        if result != [("ok",)]:
            return ["PRAGMA integrity_check: %r" % result[:5]]
        return []

    def record(self, case, args, status, stdout, stderr, problems):
        self.findings += 1
        folder = os.fsencode(os.path.join(self.artifacts, "finding-%d-seed-%d" % (self.findings, self.seed)))

        def special(directory, names):  # FIFOs are not copied (copying one would block)
            return [n for n in names if os.path.exists(os.path.join(directory, n))
                    and not (os.path.isfile(os.path.join(directory, n)) or os.path.isdir(os.path.join(directory, n)))]
        shutil.copytree(case, folder, symlinks=True, ignore=special)
        with open(os.path.join(folder, b"FINDING.txt"), "w") as f:
            f.write("command: glimpse %r\nstatus: %r\nproblems:\n  %s\n--- stdout\n%s\n--- stderr\n%s\n" % (
                args, status, "\n  ".join(problems), stdout.decode("utf-8", "replace")[:4000], stderr.decode("utf-8", "replace")[:4000]))
        print("cli_fuzz: FINDING %d: glimpse %r -> %s" % (self.findings, args, "; ".join(problems)), file=sys.stderr)

    def round(self, root, number):
        case = os.path.join(root, b"case-%d" % number)
        os.makedirs(case)
        files = self.make_case(case)
        first = [b"index", self.rng.choice([b"photos", b"manifest.json"]), b"--db", b"g.sqlite"]
        for args in [first] + self.commands(files):
            status, stdout, stderr, _ = self.run(case, args)
            problems = self.check(case, args, status, stderr)
            if self.verbose:
                print("cli_fuzz: %r -> %r %s" % (args, status, stderr.strip().split(b"\n")[-1][:160]), file=sys.stderr)
            if args[:1] in ([b"index"], [b"catalog"]) or status == "hang":
                problems += self.integrity(case)
            if problems:
                self.record(case, args, status, stdout, stderr, problems)
        shutil.rmtree(case, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--artifacts", default=".build-fuzz/artifacts-cli")
    parser.add_argument("--verbose", action="store_true", help="print every command, its status and last stderr line")
    parser.add_argument("--timeout", type=float, default=30, help="seconds one run may take before it counts as a hang")
    options = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
    os.makedirs(options.artifacts, exist_ok=True)
    fuzzer = Fuzzer(options.binary, repo, seed, os.path.abspath(options.artifacts), options.timeout)
    fuzzer.verbose = options.verbose
    root = tempfile.mkdtemp(prefix="glimpse-cli-fuzz-").encode()
    started = time.monotonic()
    rounds = 0
    try:
        while time.monotonic() - started < options.seconds:
            fuzzer.round(root, rounds)
            rounds += 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    elapsed = time.monotonic() - started
    statuses = ", ".join("%s: %d" % (k, v) for k, v in sorted(fuzzer.statuses.items()))
    print("cli_fuzz: seed %d, %d rounds, %d runs of glimpse in %.0f s (%.1f runs/s); exit statuses %s; %d findings"
          % (seed, rounds, fuzzer.runs, elapsed, fuzzer.runs / max(elapsed, 1e-9), statuses, fuzzer.findings), file=sys.stderr)
    return 1 if fuzzer.findings else 0


if __name__ == "__main__":
    sys.exit(main())
