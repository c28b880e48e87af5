"""Pools the `minimum_scores` of several `glimpse eval --json` reports into the
operating-point table of docs/ACCURACY.md ("Choosing a minimum score").

Counts are added per minimum score across the reports; rates carry 95 % Wilson intervals
(where nothing is counted, the interval's upper end is given). The last column is each
report's false-positive rate, in the order named.

Usage: python3 scripts/pool_minimum_scores.py NAME=REPORT.json [NAME=REPORT.json ...]
"""
import json
import math
import sys

Z = 1.959964  # two-sided 95 %


def wilson(successes: int, trials: int) -> tuple[float, float]:
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + Z * Z / trials
    centre = (p + Z * Z / (2 * trials)) / denominator
    half = Z * math.sqrt(p * (1 - p) / trials + Z * Z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percent(rate: float) -> str:
    value = rate * 100
    if value == 0:
        return "0"
    return f"{value:.3f}" if value < 0.1 else f"{value:.2f}" if value < 1 else f"{value:.1f}"


def main() -> None:
    if len(sys.argv) < 2 or any("=" not in argument for argument in sys.argv[1:]):
        sys.exit(__doc__)
    sets = []
    for argument in sys.argv[1:]:
        name, path = argument.split("=", 1)
        report = json.load(open(path))
        points = {round(p["minimum_score"], 4): p for p in report.get("minimum_scores", [])}
        if not points:
            sys.exit(f"pool_minimum_scores: {path} has no minimum_scores (an eval without negatives?)")
        sets.append((name, points))
    scores = sorted(set.intersection(*(set(points) for _, points in sets)))
    positives = sum(points[scores[0]]["positives"] for _, points in sets)
    negatives = sum(points[scores[0]]["negatives"] for _, points in sets)
    print(f"{positives:,} positive queries ("
          + ", ".join(f"{name} {points[scores[0]]['positives']:,}" for name, points in sets)
          + f") and {negatives:,} negative ones ("
          + ", ".join(f"{name} {points[scores[0]]['negatives']:,}" for name, points in sets) + ")")
    print()
    print("| minimum score | recall@1 (95 % interval) | false positives (95 % interval) | per set: "
          + " / ".join(name for name, _ in sets) + " |")
    print("| ---: | ---: | ---: | --- |")
    for score in scores:
        true_positives = sum(points[score]["true_positives"] for _, points in sets)
        false_positives = sum(points[score]["false_positives"] for _, points in sets)
        recall = true_positives / positives
        low, high = wilson(true_positives, positives)
        fp_low, fp_high = wilson(false_positives, negatives)
        if false_positives == 0:
            fp = f"0 (at most {percent(fp_high)} %)"
        else:
            fp = f"{false_positives} = {percent(false_positives / negatives)} % ({percent(fp_low)}–{percent(fp_high)} %)"
        per_set = " / ".join(percent(points[score]["false_positives"] / points[score]["negatives"]) for _, points in sets) + " %"
        print(f"| {score:.2f} | {recall:.3f} ({low:.3f}–{high:.3f}) | {fp} | {per_set} |")


if __name__ == "__main__":
    main()
