#!/bin/sh
# zig's C compiler as the C compiler (and external linker) of a cgo cross
# build: zigcc.sh PYTHON ZIG-TARGET ARGS... runs `PYTHON -m ziglang cc -target
# ZIG-TARGET ARGS...`. scripts/release.sh writes a one-line CC per target that
# calls this (go passes CC one word, zig wants the target).
#
# For macOS it drops a library named twice on the link line (the Go linker
# passes `-framework CoreFoundation` twice): Apple's ld64 ignores the repeat,
# but zig's linker writes a second LC_LOAD_DYLIB, and macOS 26's dyld refuses
# to start a binary that links a library twice ("duplicate linked dylib").
py=$1 target=$2
shift 2
# go asks the compiler's version with `-### -x c -c -`; for Windows targets
# zig then leaves an empty "-.o" in the working directory (the checkout).
for a in "$@"; do
  [ "$a" = "-###" ] && cd "${TMPDIR:-/tmp}" && break
done
case $target in
  *-macos*)
    seen=" " n=$#
    while [ "$n" -gt 0 ]; do
      a=$1; shift; n=$((n - 1))
      case $a in
        -framework)
          f=$1; shift; n=$((n - 1))
          case $seen in *" -framework=$f "*) continue ;; esac
          seen="$seen-framework=$f "
          set -- "$@" -framework "$f" ;;
        -l*)
          case $seen in *" $a "*) continue ;; esac
          seen="$seen$a "
          set -- "$@" "$a" ;;
        *) set -- "$@" "$a" ;;
      esac
    done ;;
esac
exec "$py" -m ziglang cc -target "$target" "$@"
