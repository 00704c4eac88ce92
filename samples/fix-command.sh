# shellcheck shell=bash
# Sourced by samples/*/fix.sh: the compile command a fix is made for.
#   FIX_CC=gcc FIX_CFLAGS="-O2 -flto"  a compile_commands.json in the current
#       directory gives each file that command, and clang-tidy reads it (-p .):
#       the tool sees the compiler and the flags the build uses (with clang
#       -flto, a check function other files call gets no fix).
#   neither: the language flags after `--`, as before.
# usage: fix_inputs LANG_ARG... -- FILE...   (sets the array tidy_inputs)
fix_inputs() {
  local lang=() files=() f a sep json
  while [ $# -gt 0 ] && [ "$1" != -- ]; do lang+=("$1"); shift; done
  shift
  files=("$@")
  if [ -z "${FIX_CC:-}" ]; then
    # shellcheck disable=SC2034 # read by the fix.sh that sources this
    tidy_inputs=("${files[@]}" -- "${lang[@]}")
    return
  fi
  local flags=()
  read -r -a flags <<<"${FIX_CFLAGS:-}"
  json="["
  sep=""
  for f in "${files[@]}"; do
    json+="$sep{\"directory\": \"$PWD\", \"file\": \"$PWD/$f\", \"arguments\": [\"$FIX_CC\""
    for a in "${lang[@]}" "${flags[@]}" -c "$f"; do
      json+=", \"$a\""
    done
    json+="]}"
    sep=", "
  done
  printf '%s]\n' "$json" >compile_commands.json
  # shellcheck disable=SC2034 # read by the fix.sh that sources this
  tidy_inputs=(-p . "${files[@]}")
}
