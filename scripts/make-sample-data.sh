#!/usr/bin/env bash
# Regenerates testdata/catalog, testdata/negatives, testdata/samples, testdata/licenses
# and testdata/ATTRIBUTION.md from Debian packages (see scripts/make_sample_data.py for
# the selection of photos and their credits).
#
# Needs: apt-get (Debian 12), dpkg-deb, python3 with venv; downloads ~510 MB of .deb files
# into a temporary folder (or $GLIMPSE_DATA_WORK, kept between runs) and installs Pillow
# into .venv-data (git-ignored). Output is deterministic for a given Pillow version.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/lib/debian-data.sh
debian_packages make-sample-data tuxpaint-stamps-default stellarium-data visp-images-data
pillow_venv

.venv-data/bin/python scripts/make_sample_data.py "$work/x" "$repo"
echo "make-sample-data: wrote $(find testdata/catalog testdata/negatives testdata/samples -type f | wc -l) files," \
     "$(du -sh testdata | cut -f1) in testdata/"
