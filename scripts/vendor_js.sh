#!/usr/bin/env bash
# Fetches the JavaScript the project serves or tests with, pinned, from the npm registry (`npm pack`), and writes
# the files it uses with their licences: Leaflet (BSD-2-Clause) into msze/search/static/vendor/leaflet/ (the
# search app's map), axe-core (MPL-2.0) into tests/browser/vendor/axe-core/ (the accessibility checks, tests
# only). The vendored files are committed; run this only to check or change a pin. Needs npm.
set -euo pipefail
cd "$(dirname "$0")/.."

LEAFLET=1.9.4
AXE=4.14.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "leaflet@$LEAFLET" "axe-core@$AXE" >/dev/null)

leaflet=msze/search/static/vendor/leaflet
rm -rf "$leaflet" && mkdir -p "$leaflet/images"
tar -xzf "$work/leaflet-$LEAFLET.tgz" -C "$work" package/LICENSE package/dist/leaflet.js package/dist/leaflet.css \
  package/dist/images
cp "$work/package/LICENSE" "$work/package/dist/leaflet.js" "$work/package/dist/leaflet.css" "$leaflet/"
cp "$work/package/dist/images/"*.png "$leaflet/images/"
echo "leaflet $LEAFLET (npm), BSD-2-Clause: see LICENSE" >"$leaflet/VERSION"
rm -rf "$work/package"

axe=tests/browser/vendor/axe-core
rm -rf "$axe" && mkdir -p "$axe"
tar -xzf "$work/axe-core-$AXE.tgz" -C "$work" package/LICENSE package/axe.min.js
cp "$work/package/LICENSE" "$work/package/axe.min.js" "$axe/"
echo "axe-core $AXE (npm), MPL-2.0: see LICENSE" >"$axe/VERSION"
sha256sum "$leaflet"/leaflet.js "$leaflet"/leaflet.css "$axe"/axe.min.js
