#!/usr/bin/env bash
# ctest packaging_install: `cmake --install BUILD --prefix TMP` puts every
# file of docs/contributing.md "Installing and packaging" in place; the desktop entry passes
# desktop-file-validate; the man page carries every line of `--help`; the MIME
# XML is well formed; the completion parses; the installed binary runs.
#   check_install.sh BUILD_DIR
set -euo pipefail
build="$1"
prefix="$(mktemp -d --tmpdir stepline-install-XXXXXX)"
trap 'rm -rf "$prefix"' EXIT
fail() { echo "check_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/stepline share/applications/stepline.desktop \
         share/icons/hicolor/scalable/apps/stepline.svg share/icons/hicolor/256x256/apps/stepline.png \
         share/mime/packages/stepline.xml share/man/man1/stepline.1 \
         share/bash-completion/completions/stepline; do
  [[ -s "$prefix/$f" ]] || fail "missing or empty: $f"
done
[[ -x "$prefix/bin/stepline" ]] || fail "bin/stepline is not executable"

desktop="$prefix/share/applications/stepline.desktop"
desktop-file-validate "$desktop" || fail "desktop-file-validate failed"
grep -qx 'Exec=stepline %F' "$desktop" || fail "Exec is not 'stepline %F'"
grep -qx 'Categories=Development;Profiling;' "$desktop" || fail "Categories"
grep -qx 'Icon=stepline' "$desktop" || fail "Icon"
mime="$prefix/share/mime/packages/stepline.xml"
for type in $(sed -n 's/^MimeType=//p' "$desktop" | tr ';' ' '); do
  grep -q "type=\"$type\"" "$mime" || fail "MimeType $type is not declared in stepline.xml"
done
for glob in '*.xplane.pb' '*.pt.trace.json' '*.pt.trace.json.gz' '*.pftrace'; do
  grep -qF "pattern=\"$glob\"" "$mime" || fail "no glob $glob"
done
xmllint --noout "$mime" || fail "stepline.xml is not well formed"

file "$prefix/share/icons/hicolor/256x256/apps/stepline.png" | grep -q 'PNG image data, 256 x 256' ||
  fail "the PNG icon is not 256 x 256"

# Every line of --help is in the man page (roff escapes undone).
man_text="$(sed -e 's/\\e/\\/g' -e 's/\\-/-/g' -e 's/^\\&//' "$prefix/share/man/man1/stepline.1")"
while IFS= read -r line; do
  [[ -z "$line" ]] && continue
  grep -qxF -- "$line" <<<"$man_text" || fail "man page lacks the --help line: $line"
done < <("$prefix/bin/stepline" --help)
grep -q "^\.TH STEPLINE 1 .*$("$prefix/bin/stepline" --version)" "$prefix/share/man/man1/stepline.1" ||
  fail "man page header lacks the version"

bash -n "$prefix/share/bash-completion/completions/stepline" || fail "completion script does not parse"
completed="$(bash -c 'source "$1"; COMP_WORDS=(stepline screenshot t.json --view ""); COMP_CWORD=4; _stepline; echo "${COMPREPLY[*]}"' _ \
  "$prefix/share/bash-completion/completions/stepline")"
[[ "$completed" == "timeline overview step-histogram ops kernels gaps memory compare ranks" ]] || fail "--view completes to '$completed'"

"$prefix/bin/stepline" --version | grep -q '^stepline [0-9]' || fail "installed stepline --version"
echo "check_install: every file installed under $prefix and valid"
