#!/usr/bin/env bash
# The packages a built .deb depends on, as the README lists them: the names from its Depends field
# (versions and alternatives left out), sorted, each in backquotes, comma-separated, on one line.
#   scripts/deb-depends.sh DEB              prints the list
#   scripts/deb-depends.sh DEB README.md    writes it into README.md between its two markers
set -euo pipefail

deb=$1
list=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' \
    | sed -E 's/\|.*//; s/\(.*\)//; s/:any//; s/^ +//; s/ +$//' | grep -v '^$' | sort -u \
    | sed 's/.*/`&`/' | paste -sd, - | sed 's/,/, /g')
if [ $# -lt 2 ]; then
    echo "$list"
    exit 0
fi
readme=$2
start='<!-- depends: written by `make readme-depends` from the package; do not edit -->'
end='<!-- /depends -->'
grep -qF "$start" "$readme" && grep -qF "$end" "$readme" || {
    echo "deb-depends: $readme lacks the markers $start and $end" >&2
    exit 1
}
LIST=$list START=$start END=$end awk '
    $0 == ENVIRON["START"] { print; print ENVIRON["LIST"]; skipping = 1; next }
    $0 == ENVIRON["END"] { skipping = 0 }
    !skipping { print }
' "$readme" >"$readme.new"
mv "$readme.new" "$readme"
