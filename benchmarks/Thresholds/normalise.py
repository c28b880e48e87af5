"""Keeps only the wall-clock p90 in each stored threshold file (the metric the suites
give a 10 % tolerance) and names files as package-benchmark 1.38.1 looks them up
(`update` writes spaces as underscores, `check` reads the benchmark's own name)."""
import json, os, sys
folder = os.path.dirname(os.path.abspath(__file__))
for name in os.listdir(folder):
    if not name.endswith(".p90.json"):
        continue
    path = os.path.join(folder, name)
    with open(path) as f:
        values = json.load(f)
    with open(path, "w") as f:
        json.dump({"wallClock": values["wallClock"]}, f, indent=2, sort_keys=True)
        f.write("\n")
    fixed = name.replace("_", " ")
    if fixed != name:
        os.replace(path, os.path.join(folder, fixed))
