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
packages=(tuxpaint-stamps-default stellarium-data visp-images-data)
work=${GLIMPSE_DATA_WORK:-}
if [[ -z "$work" ]]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/debs" "$work/x"

# apt-get download runs as _apt when it can; a world-writable folder avoids the warning.
chmod 777 "$work/debs"
for pkg in "${packages[@]}"; do
    if ! ls "$work/debs/${pkg}"_*.deb >/dev/null 2>&1; then
        (cd "$work/debs" && apt-get download "$pkg") || {
            echo "make-sample-data: apt-get download $pkg failed (run apt-get update first?)" >&2
            exit 1
        }
    fi
    if [[ ! -d "$work/x/$pkg" ]]; then
        dpkg-deb -x "$work/debs/${pkg}"_*.deb "$work/x/$pkg.tmp"
        mv "$work/x/$pkg.tmp" "$work/x/$pkg"
    fi
done

if [[ ! -x .venv-data/bin/python ]]; then
    python3 -m venv .venv-data
fi
.venv-data/bin/python -c 'import PIL, sys; sys.exit(PIL.__version__ != "13.0.0")' 2>/dev/null \
    || .venv-data/bin/pip install --quiet 'pillow==13.0.0'

.venv-data/bin/python scripts/make_sample_data.py "$work/x" "$repo"
echo "make-sample-data: wrote $(find testdata/catalog testdata/negatives testdata/samples -type f | wc -l) files," \
     "$(du -sh testdata | cut -f1) in testdata/"
