#!/usr/bin/env bash
# Builds every release artifact on one Linux machine: acg and acg-lsp for
# linux, macOS and Windows on amd64 and arm64, one archive each, the PyPI
# wheels, the npm packages, the VS Code extension (a platform-specific .vsix
# per target with acg-lsp bundled, plus a universal one that uses acg-lsp on
# PATH), and SHA256SUMS over all of them. Needs Go, Python 3 and Node.js/npm.
#
#   scripts/release.sh [--version vX.Y.Z] [--targets "linux-amd64 darwin-arm64 …"] [--out dist] [--native] [--verify]
#
# tree-sitter is C, so every target is a cgo cross build. The C compiler is
# zig's (`zig cc -target …`, from the pinned ziglang package on PyPI in its
# own environment, scripts/release/zig.txt); Linux builds are static (musl).
# --native builds the host's linux-amd64 with the system C compiler instead
# (what the tests use: no zig download). Versions come from --version, else
# `git describe`; the binaries report it (internal/version.Release).
# The linux .vsix also go out as alpine-* (the builds are static musl); a
# --native build links glibc, so it makes linux-x64 only. --verify then checks
# the result (scripts/release/verify.py: checksums, each binary's format and
# linkage, the packages' platform fields, and runs the linux builds, arm64
# under qemu-aarch64). What was built and verified: docs/release.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=""
targets="linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64 windows-arm64"
out=dist
native=0
verify=0
while [ $# -gt 0 ]; do
  case $1 in
    --version) version=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --native) native=1; shift ;;
    --verify) verify=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$version" ] || version=$(git describe --tags --always --dirty 2>/dev/null || echo v0.0.0-dev)
case $version in v*) ;; *) version=v$version ;; esac
# Package managers want a plain version: v1.2.3 stays, a describe string
# (v1.2.3-4-gabc) becomes a local version 1.2.3+4.gabc for PyPI and npm alike.
pkgver=${version#v}
if ! [[ $pkgver =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  pkgver="0.0.0+$(echo "$pkgver" | tr -c 'A-Za-z0-9\n' '.')"
  pkgver=${pkgver%.}
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
ldflags="-s -w -X github.com/acg-dev/acg/internal/version.Release=$version"

zigtarget() {
  case $1 in
    linux-amd64) echo x86_64-linux-musl ;;
    linux-arm64) echo aarch64-linux-musl ;;
    # Go 1.26's oldest macOS is 12 (what its own linker writes as minos).
    darwin-amd64) echo x86_64-macos.12.0 ;;
    darwin-arm64) echo aarch64-macos.12.0 ;;
    windows-amd64) echo x86_64-windows-gnu ;;
    windows-arm64) echo aarch64-windows-gnu ;;
    *) echo "release.sh: unknown target $1" >&2; return 2 ;;
  esac
}

# VS Code's platform names for a target (vsce --target).
vsixtargets() {
  case $1 in
    linux-amd64) echo linux-x64; [ $native = 1 ] || echo alpine-x64 ;;
    linux-arm64) echo linux-arm64; echo alpine-arm64 ;;
    darwin-amd64) echo darwin-x64 ;;
    darwin-arm64) echo darwin-arm64 ;;
    windows-amd64) echo win32-x64 ;;
    windows-arm64) echo win32-arm64 ;;
  esac
}

echo "== VS Code extension bundle"
scripts/release/vsix.sh --version "$pkgver" --out "$out" >/dev/null

# The compiler wrappers and zig's own cache live in one lasting directory:
# Go's build cache keys every cgo package on the CC path (and the compiler's
# version line), so a wrapper in a fresh temporary directory recompiled the
# tree-sitter grammars (21 MB of C) on every run. The wrapper's name holds
# the zig version and the target triple, so changing either is a new path
# and no stale object is reused. zig caches its objects and the target's libc
# (musl, mingw) there too.
zigcache=${ACG_ZIG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/acg/zig}
if [ $native = 0 ]; then
  zigpy=$(ACG_REQUIREMENTS="$root/scripts/release" "$root/scripts/pyenv.sh" zig)/bin/python
  zigver=$("$zigpy" -m ziglang version)
  mkdir -p "$zigcache/cc"
  export ZIG_GLOBAL_CACHE_DIR=$zigcache/global ZIG_LOCAL_CACHE_DIR=$zigcache/local
  for t in $targets; do
    w=$zigcache/cc/cc-$zigver-$(zigtarget "$t")
    body=$(printf '#!/bin/sh\nexec "%s" "%s" "%s" "$@"' "$root/scripts/release/zigcc.sh" "$zigpy" "$(zigtarget "$t")")
    [ "$(cat "$w" 2>/dev/null)" = "$body" ] || printf '%s\n' "$body" >"$w"
    chmod +x "$w"
  done
fi

for t in $targets; do
  goos=${t%-*} goarch=${t#*-}
  exe=""; [ "$goos" = windows ] && exe=.exe
  bin="$out/bin/$t"
  mkdir -p "$bin"
  echo "== $t"
  started=$SECONDS
  extld=""
  if [ $native = 1 ]; then
    [ "$t" = linux-amd64 ] || { echo "release.sh: --native builds linux-amd64 only" >&2; exit 2; }
    cc=${CC:-cc}
  else
    cc=$zigcache/cc/cc-$zigver-$(zigtarget "$t")
    # zig's linker ignores the -s that go passes with -ldflags=-s, so the C
    # objects' debug info stayed in: strip through the linker instead.
    case $goos in
      linux) extld="'-extldflags=-static -Wl,--strip-all'" ;;
      windows) extld="'-extldflags=-Wl,--strip-all'" ;;
      darwin)
        # zig has libSystem but no SDK: text stubs for the frameworks and
        # libraries the Go packages import (scripts/release/macos-stubs.py).
        stubs=$(python3 scripts/release/macos-stubs.py --out "$zigcache/macos-stubs-$goarch" --goarch "$goarch" ./cmd/acg ./cmd/acg-lsp)
        extld="'-extldflags=$stubs'" ;;
    esac
  fi
  for cmd in acg acg-lsp; do
    CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC="$cc" \
      go build -trimpath -buildvcs=false -ldflags "$ldflags $extld" -o "$bin/$cmd$exe" "./cmd/$cmd"
  done
  cp LICENSE README.md "$bin/"
  if [ "$goos" = windows ]; then
    (cd "$bin" && rm -f "$out/acg-$version-$t.zip" && python3 -m zipfile -c "$out/acg-$version-$t.zip" "acg$exe" "acg-lsp$exe" LICENSE README.md)
  else
    tar -C "$bin" -czf "$out/acg-$version-$t.tar.gz" acg acg-lsp LICENSE README.md
  fi
  # A host build links the host's glibc: it claims no manylinux tag.
  tag=(); [ $native = 1 ] && tag=(--tag "linux_$(uname -m)")
  python3 scripts/release/package.py wheel --version "$pkgver" --target "$t" --bin "$bin" --out "$out" "${tag[@]}" >/dev/null
  python3 scripts/release/package.py npm --version "$pkgver" --target "$t" --bin "$bin" --out "$out" >/dev/null
  for vt in $(vsixtargets "$t"); do
    scripts/release/vsix.sh --no-build --version "$pkgver" --target "$vt" --bin "$bin" --out "$out" >/dev/null
  done
  echo "   $t: $((SECONDS - started)) s"
done
python3 scripts/release/package.py npm-wrapper --version "$pkgver" --out "$out" >/dev/null

(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | sort | xargs sha256sum >SHA256SUMS)
echo "== artifacts in $out"
cat "$out/SHA256SUMS"
if [ $verify = 1 ]; then
  echo "== verify"
  nat=(); [ $native = 1 ] && nat=(--native)
  python3 scripts/release/verify.py --dist "$out" --version "$version" --pkgver "$pkgver" --targets "$targets" "${nat[@]}"
fi
