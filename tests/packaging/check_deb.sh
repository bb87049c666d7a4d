#!/usr/bin/env bash
# ctest packaging_deb: `cpack -G DEB` in BUILD makes stepline_<version>_<arch>.deb
# whose Depends (from dpkg-shlibdeps) name the runtime libraries; unpacked
# with `dpkg-deb -x` it holds the installed tree under /usr, and its binary runs.
#   check_deb.sh BUILD_DIR VERSION
set -euo pipefail
build="$1"
version="$2"
out="$(mktemp -d --tmpdir stepline-deb-XXXXXX)"
trap 'rm -rf "$out"' EXIT
fail() { echo "check_deb: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log" >&2; fail "cpack failed"; }
deb="$out/stepline_${version}_$(dpkg --print-architecture).deb"
[[ -f "$deb" ]] || fail "no $deb (cpack made: $(ls "$out"))"

[[ "$(dpkg-deb -f "$deb" Package)" == stepline ]] || fail "Package"
[[ "$(dpkg-deb -f "$deb" Version)" == "$version" ]] || fail "Version"
depends="$(dpkg-deb -f "$deb" Depends)"
for lib in libc6 libstdc++6 libglfw3 libepoxy0 libsqlite3-0 libzstd1; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib: $depends"
done

root="$out/root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/stepline usr/share/applications/stepline.desktop \
         usr/share/icons/hicolor/scalable/apps/stepline.svg usr/share/icons/hicolor/256x256/apps/stepline.png \
         usr/share/mime/packages/stepline.xml usr/share/man/man1/stepline.1 \
         usr/share/bash-completion/completions/stepline; do
  [[ -s "$root/$f" ]] || fail "the .deb lacks $f"
done
# Nothing outside /usr (no stray build paths).
[[ "$(ls "$root")" == usr ]] || fail "top level of the .deb: $(ls "$root")"
desktop-file-validate "$root/usr/share/applications/stepline.desktop" || fail "desktop-file-validate"
"$root/usr/bin/stepline" --version | grep -qx "stepline $version" || fail "unpacked stepline --version"
echo "check_deb: $(basename "$deb") Depends: $depends"
