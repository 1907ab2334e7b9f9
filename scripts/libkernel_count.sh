#!/bin/sh
# Counts the libkernel names of the NID catalogue (ps4-exports-9.00.tsv, module libkernel)
# that the built runtime exports. Usage: scripts/libkernel_count.sh [runtime.so] [tsv]
set -eu
so=${1:-target/debug/libnative5_runtime.so}
tsv=${2:-../shared/data/nid/ps4-exports-9.00.tsv}
[ -f "$tsv" ] || tsv=/work/shared/data/nid/ps4-exports-9.00.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$so" | awk '{print $3}' | sed 's/@.*//' | sort -u >"$tmp/exported"
awk -F'\t' '$1 == "libkernel" {print $3 "\t" $4}' "$tsv" | sort -u -k1,1 >"$tmp/catalogue"
cut -f1 "$tmp/catalogue" >"$tmp/nids"
total=$(wc -l <"$tmp/nids")
done_=$(comm -12 "$tmp/nids" "$tmp/exported" | wc -l)
echo "libkernel: $done_ of $total catalogue NIDs exported"
if [ "${VERBOSE:-0}" = 1 ]; then
    comm -12 "$tmp/nids" "$tmp/exported" | join -t "$(printf '\t')" - "$tmp/catalogue" | cut -f2 | sort
fi
