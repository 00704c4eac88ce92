#!/usr/bin/env bash
# Callgrind benchmark of this sample's variants: see ../bench-variants.sh and bench.conf.
exec "$(dirname "${BASH_SOURCE[0]}")/../bench-variants.sh" "$(dirname "${BASH_SOURCE[0]}")" "$@"
