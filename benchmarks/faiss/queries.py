#!/usr/bin/env python3
"""Turns `glimpse eval --compare-exhaustive --outcomes FILE` into first_stage_faiss's queries.txt.

Usage: queries.py OUTCOMES.jsonl LANDMARKS.txt > queries.txt

One line per query that carries first-stage codes: the landmark number (line of
LANDMARKS.txt, from `glimpse debug-first-stage --export`) of the exhaustive scan's first
answer at the no-match threshold, or -1 when it answered nothing; the number of informative
views; then each view as `PHASH DHASH F|I` (hexadecimal words; F full frame, I inner view).
"""
import json
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        numbers = {line.rstrip("\n"): n for n, line in enumerate(f)}
    written = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for line_number, line in enumerate(f, 1):
            outcome = json.loads(line)
            codes = outcome.get("query_codes")
            if codes is None:
                continue
            exhaustive = outcome.get("exhaustive_ids") or []
            if exhaustive and exhaustive[0] not in numbers:
                print(f"queries.py: {sys.argv[1]}:{line_number}: landmark {exhaustive[0]!r} is not in {sys.argv[2]}", file=sys.stderr)
                return 1
            expected = numbers[exhaustive[0]] if exhaustive else -1
            views = " ".join(code.replace(":", " ") for code in codes)
            print(f"{expected} {len(codes)} {views}")
            written += 1
    if written == 0:
        print(f"queries.py: {sys.argv[1]} has no query codes (run glimpse eval with --db and --compare-exhaustive)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
