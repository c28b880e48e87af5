# Data-set building shared by scripts/make-sample-data.sh and scripts/make-hard-negatives.sh
# (sourced, never run): Debian packages unpacked without installing them, and Pillow in a
# private virtual environment.

# debian_packages NAME PKG...: downloads each PKG's .deb with `apt-get download` (no
# install) into $work/debs and unpacks it into $work/x/PKG, both kept between runs.
# Sets `work` to $GLIMPSE_DATA_WORK, or to a temporary folder removed when the script exits.
# NAME is the script's name, for messages.
debian_packages() {
  local name=$1 pkg
  shift
  work=${GLIMPSE_DATA_WORK:-}
  if [[ -z "$work" ]]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
  fi
  mkdir -p "$work/debs" "$work/x"
  # apt-get download runs as _apt when it can; a world-writable folder avoids the warning.
  chmod 777 "$work/debs"
  for pkg in "$@"; do
    if ! ls "$work/debs/${pkg}"_*.deb >/dev/null 2>&1; then
      # A machine whose package lists were never fetched knows no package: fetch them once.
      (cd "$work/debs" && apt-get download "$pkg") \
        || { $([ "$(id -u)" -eq 0 ] || echo sudo) apt-get update -qq >&2 && (cd "$work/debs" && apt-get download "$pkg"); } || {
        echo "$name: apt-get download $pkg failed (even after apt-get update)" >&2
        exit 1
      }
    fi
    if [[ ! -d "$work/x/$pkg" ]]; then
      dpkg-deb -x "$work/debs/${pkg}"_*.deb "$work/x/$pkg.tmp"
      mv "$work/x/$pkg.tmp" "$work/x/$pkg"
    fi
  done
}

# pillow_venv: .venv-data (git-ignored) with Pillow 13.0.0, the version the data sets are
# deterministic for; made or updated only when needed.
pillow_venv() {
  if [[ ! -x .venv-data/bin/python ]]; then
    python3 -m venv .venv-data
  fi
  .venv-data/bin/python -c 'import PIL, sys; sys.exit(PIL.__version__ != "13.0.0")' 2>/dev/null \
    || .venv-data/bin/pip install --quiet 'pillow==13.0.0'
}
