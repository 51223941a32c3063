#!/usr/bin/env python3
"""Checks a release directory made by scripts/release.sh, with the standard library
and the tools the release needs anyway (go; qemu-aarch64 to run the arm64 build).

    verify.py --dist DIST --version v1.2.3 [--targets "linux-amd64 …"] [--native]

- SHA256SUMS lists every artifact and each one matches;
- each target's acg and acg-lsp are that target's release binaries
  (checkbin.py: format, CPU, static/system linkage, stripped, macOS signature;
  skipped for a --native build, which links the host's glibc on purpose) and
  say so themselves (`go version -m`: GOOS, GOARCH, cgo; and the version
  string the release stamps with -X is in the file);
- the archive, the wheel, the npm package and the .vsix files of a target hold
  exactly those binaries, byte for byte, with the platform fields that make
  installers pick them: the wheel's file name and WHEEL tags, its RECORD
  hashes, the npm package's os/cpu, the .vsix manifest's TargetPlatform;
- the npm wrapper depends on every platform package of this version, and the
  universal .vsix bundles no server;
- what runs here is run: the linux-amd64 build natively and the linux-arm64
  build under qemu-aarch64 (user-mode emulation), each printing its version
  and scanning testdata/inbox; the arm64 scan's JSON must equal the amd64
  one's byte for byte. The macOS and Windows binaries cannot run here; the
  format and linkage checks above are what is known of them.

Prints what it checked; exits 1 on the first failure.
"""
import argparse
import base64
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import checkbin  # noqa: E402
import package  # noqa: E402

ALL = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"]
# VS Code's platform names (vsce --target) per release target; alpine-* only
# for the static zig builds, not a --native (glibc) one.
VSIX = {
    "linux-amd64": ["linux-x64", "alpine-x64"], "linux-arm64": ["linux-arm64", "alpine-arm64"],
    "darwin-amd64": ["darwin-x64"], "darwin-arm64": ["darwin-arm64"],
    "windows-amd64": ["win32-x64"], "windows-arm64": ["win32-arm64"],
}


class Failed(Exception):
    pass


def need(cond, why):
    if not cond:
        raise Failed(why)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def checksums(dist):
    listed = {}
    with open(os.path.join(dist, "SHA256SUMS")) as f:
        for line in f:
            digest, name = line.split(None, 1)
            listed[name.strip()] = digest
    files = sorted(n for n in os.listdir(dist) if os.path.isfile(os.path.join(dist, n)) and n != "SHA256SUMS")
    need(sorted(listed) == files, f"SHA256SUMS lists {sorted(set(listed) ^ set(files))} wrongly")
    for n in files:
        with open(os.path.join(dist, n), "rb") as f:
            need(sha256(f.read()) == listed[n], f"{n}: checksum does not match SHA256SUMS")
    print(f"SHA256SUMS: {len(files)} artifacts, all match")
    return files


def build_info(path):
    out = subprocess.run(["go", "version", "-m", path], check=True, capture_output=True, text=True).stdout
    info = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[1] == "build":
            k, _, v = parts[2].partition("=")
            info[k] = v
    return info


def binaries(dist, target, version, native):
    _, _, _, exe = package.TARGETS[target]
    goos, goarch = target.split("-")
    bins = {}
    for b in ("acg", "acg-lsp"):
        path = os.path.join(dist, "bin", target, b + exe)
        with open(path, "rb") as f:
            bins[b + exe] = f.read()
        what = "host build (glibc), not checked for static linkage" if native else checkbin.check(target, bins[b + exe])
        info = build_info(path)
        need(info.get("GOOS") == goos and info.get("GOARCH") == goarch,
             f"{b}: build info says {info.get('GOOS')}/{info.get('GOARCH')}")
        need(info.get("CGO_ENABLED") == "1", f"{b}: built without cgo")
        # -trimpath keeps -ldflags out of the build info: look for the -X string itself.
        need(version.encode() in bins[b + exe], f"{b}: the release version {version} is not in the binary")
        print(f"{target}/{b}{exe}: {what}; go build info {goos}/{goarch} cgo; holds {version}")
    return bins


def same(name, got, bins, where):
    need(name in bins, f"{where}: unexpected binary {name}")
    need(got == bins[name], f"{where}: {name} differs from bin/")


def archive(dist, target, version, bins):
    _, _, _, exe = package.TARGETS[target]
    want = {"acg" + exe, "acg-lsp" + exe, "LICENSE", "README.md"}
    if exe:
        path = os.path.join(dist, f"acg-{version}-{target}.zip")
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            need(names == want, f"{path}: holds {sorted(names)}")
            for n in bins:
                same(n, z.read(n), bins, path)
    else:
        path = os.path.join(dist, f"acg-{version}-{target}.tar.gz")
        with tarfile.open(path) as t:
            members = {m.name: m for m in t.getmembers()}
            need(set(members) == want, f"{path}: holds {sorted(members)}")
            for n in bins:
                need(members[n].mode & 0o111, f"{path}: {n} is not executable")
                same(n, t.extractfile(members[n]).read(), bins, path)
    print(f"{os.path.basename(path)}: {', '.join(sorted(want))}")


def wheel(dist, target, pkgver, bins, native):
    tag = f"linux_{os.uname().machine}" if native else package.TARGETS[target][0]
    name = f"agent_capability_graph-{pkgver}-py3-none-{tag}.whl"
    path = os.path.join(dist, name)
    need(os.path.exists(path), f"no wheel {name}")
    with zipfile.ZipFile(path) as z:
        info = f"agent_capability_graph-{pkgver}.dist-info"
        tags = [l.split(": ", 1)[1] for l in z.read(f"{info}/WHEEL").decode().splitlines() if l.startswith("Tag: ")]
        need(tags == [f"py3-none-{t}" for t in tag.split(".")], f"{name}: WHEEL tags {tags}")
        for row in csv.reader(io.StringIO(z.read(f"{info}/RECORD").decode())):
            if row[1]:
                digest = base64.urlsafe_b64encode(hashlib.sha256(z.read(row[0])).digest()).rstrip(b"=").decode()
                need(row[1] == f"sha256={digest}", f"{name}: RECORD hash of {row[0]} is wrong")
        for n in bins:
            same(n, z.read(f"acg_cli/bin/{n}"), bins, name)
            mode = z.getinfo(f"acg_cli/bin/{n}").external_attr >> 16
            need(mode & 0o111, f"{name}: {n} is not executable")
        need(f"{info}/LICENSE" in z.namelist(), f"{name}: no LICENSE")
    print(f"{name}: tags {', '.join(tags)}; RECORD verified")


def npm(dist, target, pkgver, bins):
    _, os_, cpu, _ = package.TARGETS[target]
    path = os.path.join(dist, f"acg-dev-acg-{os_}-{cpu}-{pkgver}.tgz")
    with tarfile.open(path) as t:
        pj = json.load(t.extractfile("package/package.json"))
        need(pj["name"] == f"{package.NPM_SCOPE}/acg-{os_}-{cpu}" and pj["version"] == pkgver,
             f"{path}: package {pj['name']}@{pj['version']}")
        need(pj["os"] == [os_] and pj["cpu"] == [cpu], f"{path}: os {pj['os']} cpu {pj['cpu']}, want {os_} {cpu}")
        for n in bins:
            m = t.getmember(f"package/bin/{n}")
            need(m.mode & 0o111, f"{path}: {n} is not executable")
            same(n, t.extractfile(m).read(), bins, path)
        t.getmember("package/LICENSE")
    print(f"{os.path.basename(path)}: {pj['name']} os {os_} cpu {cpu}")


def vsix(dist, vt, pkgver, bins):
    name = f"acg-vscode-{pkgver}-{vt}.vsix"
    path = os.path.join(dist, name)
    need(os.path.exists(path), f"no {name}")
    exe = ".exe" if vt.startswith("win32-") else ""
    with zipfile.ZipFile(path) as z:
        manifest = z.read("extension.vsixmanifest").decode()
        need(f'TargetPlatform="{vt}"' in manifest, f"{name}: manifest does not target {vt}")
        same("acg-lsp" + exe, z.read(f"extension/server/acg-lsp{exe}"), bins, name)
        need("extension/LICENSE.txt" in z.namelist(), f"{name}: no LICENSE")
    print(f"{name}: TargetPlatform {vt}, server/acg-lsp{exe} is the {vt} build")


def wrapper(dist, pkgver):
    path = os.path.join(dist, f"agent-capability-graph-{pkgver}.tgz")
    with tarfile.open(path) as t:
        pj = json.load(t.extractfile("package/package.json"))
    want = {f"{package.NPM_SCOPE}/acg-{o}-{c}": pkgver for _, o, c, _ in package.TARGETS.values()}
    need(pj["optionalDependencies"] == want, f"{path}: optionalDependencies {pj['optionalDependencies']}")
    with zipfile.ZipFile(os.path.join(dist, f"acg-vscode-{pkgver}.vsix")) as z:
        need(not any("/server/" in n for n in z.namelist()), "the universal .vsix bundles a server")
    print(f"npm wrapper: optional dependencies on all {len(want)} platform packages; universal .vsix: no server")


def run(cmd, cwd):
    """(exit code, stdout) of a release binary run on testdata."""
    p = subprocess.run(cmd, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout


def runs(dist, targets, version):
    """Runs the linux builds here: natively, and arm64 under qemu-aarch64."""
    host = {"x86_64": "linux-amd64", "aarch64": "linux-arm64"}.get(os.uname().machine)
    qemu = shutil.which("qemu-aarch64")
    outputs = {}
    for t in [t for t in ("linux-amd64", "linux-arm64") if t in targets]:
        if t == host:
            pre = []
        elif t == "linux-arm64":
            need(qemu, "qemu-aarch64 is not installed (Debian: apt-get install qemu-user); "
                       "the linux-arm64 build cannot be run")
            pre = [qemu]
        else:
            print(f"{t}: not run (no way to run it on {os.uname().machine})")
            continue
        acg = os.path.join(dist, "bin", t, "acg")
        code, out = run(pre + [acg, "version"], ROOT)
        need(code == 0 and out.decode().split() == ["acg", version], f"{t}: acg version printed {out!r}")
        code, out = run(pre + [os.path.join(dist, "bin", t, "acg-lsp"), "--version"], ROOT)
        need(code == 0 and version in out.decode(), f"{t}: acg-lsp --version printed {out!r}")
        code, out = run(pre + [acg, "scan", "testdata/inbox", "--format", "json"], ROOT)
        need(code == 1, f"{t}: scan of testdata/inbox exited {code}, want 1 (findings)")
        doc = json.loads(out)
        need(any(f["rule"] == "rule-of-two" for f in doc["findings"]), f"{t}: scan found no rule-of-two")
        outputs[t] = out
        how = f"under {os.path.basename(qemu)}" if pre else "natively"
        print(f"{t}: ran {how}: acg version {version}, acg-lsp --version, scan testdata/inbox: "
              f"{len(doc['findings'])} findings, exit 1")
    if len(outputs) == 2:
        need(outputs["linux-amd64"] == outputs["linux-arm64"], "linux-arm64's scan JSON differs from linux-amd64's")
        print(f"linux-arm64 scan JSON == linux-amd64 scan JSON ({len(outputs['linux-amd64'])} bytes)")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dist", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--pkgver", help="the packages' version (default: the release's without the v)")
    p.add_argument("--targets", default=" ".join(ALL))
    p.add_argument("--native", action="store_true", help="a --native build: glibc host binary, no alpine .vsix")
    args = p.parse_args()
    targets = args.targets.split()
    pkgver = args.pkgver or args.version.lstrip("v")
    try:
        checksums(args.dist)
        for t in targets:
            bins = binaries(args.dist, t, args.version, args.native)
            archive(args.dist, t, args.version, bins)
            wheel(args.dist, t, pkgver, bins, args.native)
            npm(args.dist, t, pkgver, bins)
            for vt in VSIX[t][:1] if args.native else VSIX[t]:
                vsix(args.dist, vt, pkgver, {"acg-lsp" + package.TARGETS[t][3]: bins["acg-lsp" + package.TARGETS[t][3]]})
        wrapper(args.dist, pkgver)
        runs(args.dist, targets, args.version)
    except (Failed, checkbin.Mismatch, OSError, KeyError, subprocess.CalledProcessError) as e:
        print(f"verify: {e}", file=sys.stderr)
        sys.exit(1)
    print("verify: ok")


if __name__ == "__main__":
    main()
