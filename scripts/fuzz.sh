#!/usr/bin/env bash
# Runs a cargo-fuzz target for a while. Usage: scripts/fuzz.sh sce|relink [SECONDS]
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). The relink
# target's corpus is seeded with the real titles from ../shared/data/titles.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:?usage: scripts/fuzz.sh sce|relink [SECONDS]}
secs=${2:-600}
case "$which" in
  sce) dir=crates/sce; target=image_parse ;;
  relink) dir=crates/relink; target=relink_image ;;
  *) echo "unknown target $which" >&2; exit 1 ;;
esac
corpus="$dir/fuzz/corpus/$target"
mkdir -p "$corpus"
if [ -d ../shared/data/titles ]; then
  find ../shared/data/titles -name '*.bin' -o -name '*.prx' | while read -r f; do
    cp "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"
  done
fi
cd "$dir"
cargo +nightly fuzz run "$target" "fuzz/corpus/$target" -- -max_total_time="$secs" -rss_limit_mb=4096 2>&1 | tail -n 20
