#!/bin/bash
# The suite's main job: install what is missing, build, and tour what works.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/deps.sh
mkdir -p out
scripts/build.sh out/build
exec scripts/tour.sh out/build
