#!/usr/bin/env bash
# Builds the "half" held-out split of docs/ACCURACY.md under .holdout/ (git-ignored):
# testdata/catalog's images in sorted order split alternately, the even ones (0, 2, …) as
# .holdout/half-catalog, the odd ones plus testdata/negatives as .holdout/half-negatives
# (copies, same relative paths). The "swap" split needs no folder: it exchanges
# testdata/catalog and testdata/negatives. Prints the two eval commands.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .holdout
mkdir -p .holdout/half-catalog .holdout/half-negatives
i=0
while IFS= read -r path; do
    relative=${path#testdata/catalog/}
    if (( i % 2 == 0 )); then dest=.holdout/half-catalog/$relative; else dest=.holdout/half-negatives/catalog-odd/$relative; fi
    mkdir -p "$(dirname "$dest")"
    cp "$path" "$dest"
    i=$((i + 1))
done < <(find testdata/catalog -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | LC_ALL=C sort)
cp -r testdata/negatives .holdout/half-negatives/negatives
echo "swap: glimpse eval --catalog testdata/negatives --negatives testdata/catalog"
echo "half: glimpse eval --catalog .holdout/half-catalog --negatives .holdout/half-negatives"
