#!/usr/bin/env bash
# The one install step shared by run.sh and test.sh: installs the Debian 12
# packages Stepline builds and tests with, and only those that are missing.
# When everything is present it touches nothing (fast, works offline).
#   scripts/install-deps.sh [--fuzz]   --fuzz adds clang and libFuzzer (tests/fuzz)
set -euo pipefail

packages=(
  build-essential cmake pkg-config g++
  libimgui-dev libglfw3-dev libepoxy-dev libgl-dev
  libprotobuf-dev protobuf-compiler
  libzstd-dev libdeflate-dev zlib1g-dev libsimdjson-dev libstb-dev libsqlite3-dev
  libgtest-dev libbenchmark-dev
  fonts-dejavu-core libfreetype-dev
  xvfb xauth libgl1-mesa-dri
  openbox xdotool imagemagick  # the scripted window walk (scripts/window_walk.sh)
  librsvg2-bin desktop-file-utils dpkg-dev file libxml2-utils
)
# Only when fuzzing is asked for: clang 14 and its runtime (libFuzzer, sanitizers).
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for package in "${packages[@]}"; do
  # "ii " = wanted and installed; anything else (absent, half-installed) needs apt.
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)"
  [[ "$status" == "ii "* ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  exit 0
fi

# Root (CI, fresh containers) needs no sudo; elsewhere use sudo when there is one.
sudo_cmd=()
if [[ "$(id -u)" -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "install-deps: missing packages (${missing[*]}) and not root, no sudo available" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
# `env` carries DEBIAN_FRONTEND through sudo, which resets the environment.
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
