#!/usr/bin/env python3
"""Packages release binaries for PyPI and npm, with the standard library only.

    package.py wheel --version 1.2.3 --target linux-amd64 --bin DIR --out DIST
    package.py npm   --version 1.2.3 --target linux-amd64 --bin DIR --out DIST
    package.py npm-wrapper --version 1.2.3 --out DIST

A wheel per platform carries acg and acg-lsp under acg_cli/bin and two console
scripts that exec them (pip install / uv tool install / uvx). For npm, the
usual pattern: one package per platform holding the binaries (with "os" and
"cpu" so npm installs only the matching one) and a small wrapper package,
runnable with npx, that depends on all of them optionally and runs the one
present. Nothing here downloads anything.
"""
import argparse
import base64
import hashlib
import io
import json
import os
import stat
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME = "agent-capability-graph"
SUMMARY = "acg: every path by which your AI agent can be turned against you (static analysis, language server)"
NPM_SCOPE = "@acg-dev"

# target -> (wheel platform tag, npm os, npm cpu, executable suffix)
TARGETS = {
    "linux-amd64": ("manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64", "linux", "x64", ""),
    "linux-arm64": ("manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64", "linux", "arm64", ""),
    # Go 1.26 runs on macOS 12 and later; the build's minos is 12.0 on both.
    "darwin-amd64": ("macosx_12_0_x86_64", "darwin", "x64", ""),
    "darwin-arm64": ("macosx_12_0_arm64", "darwin", "arm64", ""),
    "windows-amd64": ("win_amd64", "win32", "x64", ".exe"),
    "windows-arm64": ("win_arm64", "win32", "arm64", ".exe"),
}

SHIM = '''"""Runs the acg binaries shipped in this wheel (built from Go; see the project README)."""
import os
import subprocess
import sys

_BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin")
_EXE = ".exe" if os.name == "nt" else ""


def _run(name):
    path = os.path.join(_BIN, name + _EXE)
    if os.name == "nt":
        sys.exit(subprocess.call([path] + sys.argv[1:]))
    os.execv(path, [path] + sys.argv[1:])


def main():
    _run("acg")


def lsp():
    _run("acg-lsp")
'''


def pep440(version):
    return version[1:] if version.startswith("v") else version


def licence():
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        return f.read()


def readme():
    with open(os.path.join(ROOT, "README.md"), "rb") as f:
        return f.read()


def wheel(args):
    tag, _, _, exe = TARGETS[args.target]
    if args.tag:
        tag = args.tag
    version = pep440(args.version)
    dist = NAME.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    files = {
        "acg_cli/__init__.py": (SHIM.encode(), 0o644),
        "acg_cli/__main__.py": (b"from acg_cli import main\n\nmain()\n", 0o644),
    }
    for b in ("acg", "acg-lsp"):
        with open(os.path.join(args.bin, b + exe), "rb") as f:
            files[f"acg_cli/bin/{b}{exe}"] = (f.read(), 0o755)
    meta = (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\n"
        "Home-page: https://github.com/acg-dev/acg\nLicense: Apache-2.0\n"
        "Requires-Python: >=3.8\nDescription-Content-Type: text/markdown\n\n"
    ).encode() + readme()
    files[f"{info}/METADATA"] = (meta, 0o644)
    files[f"{info}/WHEEL"] = (
        ("Wheel-Version: 1.0\nGenerator: acg scripts/release/package.py\nRoot-Is-Purelib: false\n"
         + "".join(f"Tag: py3-none-{t}\n" for t in tag.split("."))).encode(), 0o644)
    files[f"{info}/entry_points.txt"] = (b"[console_scripts]\nacg = acg_cli:main\nacg-lsp = acg_cli:lsp\n", 0o644)
    files[f"{info}/LICENSE"] = (licence(), 0o644)
    record = []
    for path, (data, _) in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = (("\n".join(record) + "\n").encode(), 0o644)
    out = os.path.join(args.out, f"{dist}-{version}-py3-none-{tag}.whl")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path, (data, mode) in files.items():
            zi = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            zi.external_attr = (stat.S_IFREG | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    print(out)


def tgz(out, files):
    """An npm tarball: every entry under package/."""
    with tarfile.open(out, "w:gz") as t:
        for path, (data, mode) in files.items():
            ti = tarfile.TarInfo("package/" + path)
            ti.size, ti.mode, ti.mtime = len(data), mode, 1767225600
            t.addfile(ti, io.BytesIO(data))
    print(out)


def npm(args):
    _, os_, cpu, exe = TARGETS[args.target]
    version = pep440(args.version)
    pkg = f"{NPM_SCOPE}/acg-{os_}-{cpu}"
    files = {
        "package.json": (json.dumps({
            "name": pkg, "version": version, "description": f"acg binaries for {os_} {cpu}",
            "license": "Apache-2.0", "repository": "github:acg-dev/acg", "os": [os_], "cpu": [cpu],
            "files": ["bin/", "LICENSE"],
        }, indent=2).encode() + b"\n", 0o644),
        "LICENSE": (licence(), 0o644),
    }
    for b in ("acg", "acg-lsp"):
        with open(os.path.join(args.bin, b + exe), "rb") as f:
            files[f"bin/{b}{exe}"] = (f.read(), 0o755)
    tgz(os.path.join(args.out, f"acg-dev-acg-{os_}-{cpu}-{version}.tgz"), files)


RUNNER = '''#!/usr/bin/env node
// Runs the acg binary of the platform package npm installed beside this one.
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");
const exe = process.platform === "win32" ? ".exe" : "";
const pkg = `@acg-dev/acg-${process.platform}-${process.arch}`;
let bin;
try {
  bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", NAME + exe);
} catch (e) {
  console.error(`acg: no binary for ${process.platform}-${process.arch} (${pkg} is not installed; ` +
    "reinstall without --omit=optional, or use pip install agent-capability-graph / go install)");
  process.exit(2);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  console.error(`acg: cannot run ${bin}: ${r.error.message}`);
  process.exit(2);
}
process.exit(r.status === null ? 1 : r.status);
'''


def npm_wrapper(args):
    version = pep440(args.version)
    opt = {f"{NPM_SCOPE}/acg-{os_}-{cpu}": version for _, os_, cpu, _ in TARGETS.values()}
    files = {
        "package.json": (json.dumps({
            "name": NAME, "version": version, "description": SUMMARY, "license": "Apache-2.0",
            "repository": "github:acg-dev/acg", "bin": {"acg": "bin/acg.js", "acg-lsp": "bin/acg-lsp.js"},
            "files": ["bin/", "LICENSE", "README.md"], "optionalDependencies": opt,
            "engines": {"node": ">=18"},
        }, indent=2).encode() + b"\n", 0o644),
        "LICENSE": (licence(), 0o644),
        "README.md": (readme(), 0o644),
        "bin/acg.js": (RUNNER.replace("NAME", '"acg"').encode(), 0o755),
        "bin/acg-lsp.js": (RUNNER.replace("NAME", '"acg-lsp"').encode(), 0o755),
    }
    tgz(os.path.join(args.out, f"{NAME}-{version}.tgz"), files)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["wheel", "npm", "npm-wrapper"])
    p.add_argument("--version", required=True)
    p.add_argument("--target", choices=sorted(TARGETS))
    p.add_argument("--bin", help="directory holding acg and acg-lsp for the target")
    p.add_argument("--out", required=True)
    p.add_argument("--tag", help="wheel platform tag instead of the target's (a host build: linux_x86_64)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.kind != "npm-wrapper" and not (args.target and args.bin):
        p.error("--target and --bin are needed")
    {"wheel": wheel, "npm": npm, "npm-wrapper": npm_wrapper}[args.kind](args)


if __name__ == "__main__":
    main()
