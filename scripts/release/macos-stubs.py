#!/usr/bin/env python3
"""Writes the macOS link stubs a cgo cross build needs, with the standard library only.

    macos-stubs.py --out DIR --goarch arm64 PACKAGE...

zig's C compiler ships libSystem's text stub (.tbd) but no macOS SDK, so the
external link of a darwin build fails on what the Go standard library links
beyond libSystem: `-framework CoreFoundation -framework Security` (crypto/x509)
and `-lresolv` (net). Apple's SDK itself holds such text stubs, not the
libraries: a .tbd names the library's install path and the symbols it
exports, and the linker records that path in the binary for dyld to load at
run time. This writes one per library, listing exactly the symbols the build
imports from it, read from the `//go:cgo_import_dynamic LOCAL REMOTE "LIB"`
directives of the Go files that `go list` selects for darwin/GOARCH (the
toolchain's own statement of what each package takes from where), so a Go
upgrade that imports a new function or library is covered without edits here.

It prints the linker flags that point at the stubs (-F for frameworks, -L for
libraries). A build whose C code (not Go) links a framework would still
fail at link time; that needs the real SDK and is reported there.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

DIRECTIVE = re.compile(r'^//go:cgo_import_dynamic\s+\S+\s+(\S+)\s+"([^"]+)"', re.M)
FRAMEWORK = re.compile(r"^/System/Library/Frameworks/([^/]+)\.framework/Versions/[^/]+/\1$")
DYLIB = re.compile(r"^/usr/lib/lib([A-Za-z0-9_+-]+?)(?:\.[0-9]+)*\.dylib$")
# Provided by zig's own libSystem.tbd (it re-exports /usr/lib/system/*).
PROVIDED = re.compile(r"^/usr/lib/(libSystem\.B\.dylib|system/.*)$")
TARGETS = "[ x86_64-macos, arm64-macos, arm64e-macos ]"


def imports(goarch, packages):
    """{install path: set of symbols} over the Go files go list selects for darwin."""
    env = dict(os.environ, GOOS="darwin", GOARCH=goarch, CGO_ENABLED="1")
    out = subprocess.run(["go", "list", "-deps", "-json=Dir,GoFiles,CgoFiles", *packages],
                         env=env, check=True, capture_output=True, text=True).stdout
    libs = collections.defaultdict(set)
    for pkg in stream(out):
        for name in pkg.get("GoFiles", []) + pkg.get("CgoFiles", []):
            with open(os.path.join(pkg["Dir"], name), encoding="utf-8", errors="replace") as f:
                for remote, lib in DIRECTIVE.findall(f.read()):
                    if lib.startswith("/") and not PROVIDED.match(lib):
                        libs[lib].add(remote)
    return libs


def stream(text):
    """go list -json writes a stream of objects, not an array."""
    dec, i = json.JSONDecoder(), 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return
        obj, i = dec.raw_decode(text, i)
        yield obj


def tbd(install, symbols):
    syms = ", ".join("_" + s for s in sorted(symbols))
    return (
        "--- !tapi-tbd\n"
        "tbd-version:     4\n"
        f"targets:         {TARGETS}\n"
        f"install-name:    '{install}'\n"
        "current-version: 1\n"
        "compatibility-version: 1\n"
        "exports:\n"
        f"  - targets:         {TARGETS}\n"
        f"    symbols:         [ {syms} ]\n"
        "...\n"
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--goarch", required=True)
    p.add_argument("packages", nargs="+")
    args = p.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    fw_dir, lib_dir = os.path.join(args.out, "Frameworks"), os.path.join(args.out, "lib")
    os.makedirs(fw_dir)
    os.makedirs(lib_dir)
    for install, symbols in sorted(imports(args.goarch, args.packages).items()):
        m = FRAMEWORK.match(install)
        if m:
            d = os.path.join(fw_dir, m.group(1) + ".framework")
            os.makedirs(d, exist_ok=True)
            path = os.path.join(d, m.group(1) + ".tbd")
        else:
            m = DYLIB.match(install)
            if not m:
                sys.exit(f"macos-stubs: no stub layout for {install}")
            path = os.path.join(lib_dir, f"lib{m.group(1)}.tbd")
        with open(path, "w") as f:
            f.write(tbd(install, symbols))
        print(f"{install}: {len(symbols)} symbols", file=sys.stderr)
    print(f"-F{fw_dir} -L{lib_dir}")


if __name__ == "__main__":
    main()
