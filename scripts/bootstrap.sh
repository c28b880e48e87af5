#!/usr/bin/env bash
# Installs the Debian packages Glimpse builds against, only those that are missing.
# Usage: scripts/bootstrap.sh [extra-debian-package...]
set -euo pipefail
needed=(libpng-dev libjpeg-dev libsqlite3-dev pkg-config
        libwebp-dev libheif-dev libde265-dev libdav1d-dev webp libheif-examples libavif-bin "$@")
missing=()
for pkg in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
