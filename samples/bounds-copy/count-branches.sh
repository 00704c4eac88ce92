#!/usr/bin/env bash
# Conditional branches of a function's own code: see ../extent-buffer/count-branches.sh.
exec "$(dirname "${BASH_SOURCE[0]}")/../extent-buffer/count-branches.sh" "$@"
