#!/usr/bin/env bash
# Builds the hard-negative evaluation set (issue 12, item 7) under .hard-negatives/
# (git-ignored; about 50 MB) from Debian packages, and prints the command that measures it
# against the sample catalog (testdata/catalog). About 1,000 pictures, none in the catalog,
# many made from one template:
#   portraits/       238 Wesnoth unit portraits (one artistic style, one parchment background)
#   sprites/         200 Wesnoth unit sprites (one style, one dark background, 4x upscaled)
#   textures/        133 terrain textures (a hex tile's middle strip tiled 8x4) ...
#   textures-grid/   ... and the same 133 with a grid drawn over them
#   labels/          300 storage-box labels from one template, in groups of three whose codes
#                    differ by one glyph
#
# Sources: wesnoth-1.16-data (GPL-2+, art by the Battle for Wesnoth project; see
# /usr/share/doc/wesnoth-1.16-data/copyright in the package) and fonts-dejavu-core (DejaVu
# fonts licence, Bitstream Vera derivative). Nothing from them is committed: this script
# fetches the .deb with apt-get download (no install) when missing. Selection and
# composition are deterministic (sorted file lists, seeded choices): see
# scripts/make_hard_negatives.py.
#
# Needs: apt-get, dpkg-deb, python3 with venv (Pillow goes into .venv-data, git-ignored).
# Work folder: $GLIMPSE_DATA_WORK (kept between runs) or a temporary one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/debian-data.sh
debian_packages make-hard-negatives wesnoth-1.16-data fonts-dejavu-core
pillow_venv

rm -rf .hard-negatives.tmp
.venv-data/bin/python scripts/make_hard_negatives.py \
    --wesnoth "$work/x/wesnoth-1.16-data/usr/share/games/wesnoth/1.16" \
    --font "$work/x/fonts-dejavu-core/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf" \
    --out .hard-negatives.tmp
rm -rf .hard-negatives
mv .hard-negatives.tmp .hard-negatives
echo "make-hard-negatives: $(find .hard-negatives -type f | wc -l) negative images."
echo "Measure with: glimpse eval --catalog testdata/catalog --negatives .hard-negatives --transformations jpeg-q75"
