#!/usr/bin/env python3
"""Checks a release binary is what its target says, without running it.

    checkbin.py --target darwin-arm64 FILE...

The macOS and Windows builds cannot run on the Linux machine that makes them,
so their format and linkage are read from the file itself (standard library
only; cross-checked against llvm-readobj when the release was first verified,
docs/release.md):

- every target: the format and CPU (ELF x86-64/AArch64, Mach-O x86_64/arm64,
  PE32+ x86-64/ARM64), an executable, no debug sections left (the release is
  stripped);
- linux: static (no program interpreter, no dynamic section), so it runs on
  glibc and musl systems alike;
- darwin: minimum macOS 12.0 (LC_BUILD_VERSION, what the wheel's tag
  claims), every linked library a system one (/usr/lib, /System/Library)
  and linked once (macOS 26's dyld refuses a duplicate), and on arm64 a code
  signature whose page hashes match the file (arm64 macOS kills an unsigned
  or stale-signed binary; x86_64 needs none);
- windows: a console program whose imported DLLs all ship with Windows
  (no MinGW runtime DLL such as libwinpthread-1.dll beside it).

Prints one line per file; exits 1 on the first mismatch with the reason.
"""
import argparse
import hashlib
import struct
import sys

WANT = {
    "linux-amd64": ("elf", 62), "linux-arm64": ("elf", 183),
    "darwin-amd64": ("macho", 0x01000007), "darwin-arm64": ("macho", 0x0100000C),
    "windows-amd64": ("pe", 0x8664), "windows-arm64": ("pe", 0xAA64),
}
MACOS_MIN = (12, 0)
# DLLs that are part of Windows itself (10 and later), which the build may import.
WINDOWS_DLLS = {
    "kernel32.dll", "ntdll.dll", "advapi32.dll", "ws2_32.dll", "winmm.dll", "user32.dll",
    "shell32.dll", "ole32.dll", "bcrypt.dll", "crypt32.dll", "secur32.dll", "iphlpapi.dll",
    "dnsapi.dll", "userenv.dll", "mswsock.dll", "netapi32.dll", "powrprof.dll", "msvcrt.dll",
    "ucrtbase.dll", "synchronization.dll", "bcryptprimitives.dll",
}


class Mismatch(Exception):
    pass


def need(cond, why):
    if not cond:
        raise Mismatch(why)


def elf(data, machine):
    need(data[:4] == b"\x7fELF", "not an ELF file")
    need(data[4] == 2 and data[5] == 1, "not a 64-bit little-endian ELF")
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    need(e_machine == machine, f"ELF machine {e_machine}, want {machine}")
    need(e_type == 2, f"ELF type {e_type}, want an executable (2; a static-pie or shared object is not)")
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", data, 54)
    for i in range(phnum):
        p_type = struct.unpack_from("<I", data, phoff + i * phentsize)[0]
        need(p_type != 3, "has a program interpreter: dynamically linked")
        need(p_type != 2, "has a dynamic section: dynamically linked")
    names = []
    if shnum:
        stroff = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 24)[0]
        for i in range(shnum):
            n = struct.unpack_from("<I", data, shoff + i * shentsize)[0]
            names.append(data[stroff + n:data.index(b"\0", stroff + n)].decode())
    debug = [n for n in names if n.startswith((".debug", ".zdebug"))]
    need(not debug, f"not stripped: {', '.join(debug)}")
    return "ELF executable, static, stripped"


def macho(data, cputype):
    need(data[:4] == b"\xcf\xfa\xed\xfe", "not a 64-bit Mach-O file (or a fat one)")
    cpu, _, filetype, ncmds, _, _ = struct.unpack_from("<iiIIII", data, 4)
    need(cpu == cputype, f"Mach-O CPU {cpu:#x}, want {cputype:#x}")
    need(filetype == 2, f"Mach-O file type {filetype}, want an executable (2)")
    off, dylibs, minos, sig, debug = 32, [], None, None, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd in (0xC, 0x80000018):  # LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB
            name = struct.unpack_from("<I", data, off + 8)[0]
            dylibs.append(data[off + name:data.index(b"\0", off + name)].decode())
        elif cmd == 0x32:  # LC_BUILD_VERSION
            platform, v = struct.unpack_from("<II", data, off + 8)
            need(platform == 1, f"platform {platform}, want macOS (1)")
            minos = (v >> 16, (v >> 8) & 0xFF)
        elif cmd == 0x1D:  # LC_CODE_SIGNATURE
            sig = struct.unpack_from("<II", data, off + 8)
        elif cmd == 0x19:  # LC_SEGMENT_64: debug info lives in __DWARF
            seg = data[off + 8:off + 24].rstrip(b"\0").decode()
            if seg == "__DWARF":
                debug.append(seg)
        off += size
    need(minos is not None, "no LC_BUILD_VERSION")
    need(minos <= MACOS_MIN, f"minimum macOS {minos[0]}.{minos[1]}, want {MACOS_MIN[0]}.{MACOS_MIN[1]} or lower")
    need(not debug, "not stripped: has a __DWARF segment")
    need(dylibs, "links no library (not even libSystem)")
    foreign = [d for d in dylibs if not d.startswith(("/usr/lib/", "/System/Library/"))]
    need(not foreign, f"links libraries a Mac may not have: {', '.join(foreign)}")
    need("/usr/lib/libSystem.B.dylib" in dylibs, "does not link libSystem")
    twice = sorted({d for d in dylibs if dylibs.count(d) > 1})
    need(not twice, f"links a library twice (macOS 26's dyld refuses it): {', '.join(twice)}")
    # arm64 macOS runs only signed code (Go's linker signs ad hoc there, as
    # Apple's does); x86_64 needs none, but a signature present must hold.
    need(sig is not None or cputype != 0x0100000C, "no code signature (arm64 macOS refuses to run it)")
    signed = f"signature valid over {codesign(data, *sig)} pages" if sig else "unsigned (x86_64 needs none)"
    return (f"Mach-O executable, macOS >= {minos[0]}.{minos[1]}, {len(dylibs)} system libraries "
            f"({', '.join(d.rsplit('/', 1)[1] for d in dylibs)}), {signed}")


def codesign(data, dataoff, datasize):
    """Checks the CodeDirectory's page hashes against the file; returns the page count."""
    blob = data[dataoff:dataoff + datasize]
    magic, _, count = struct.unpack_from(">III", blob, 0)
    need(magic == 0xFADE0CC0, "code signature is not an embedded signature superblob")
    for i in range(count):
        slot, boff = struct.unpack_from(">II", blob, 12 + 8 * i)
        if slot != 0:  # the CodeDirectory
            continue
        cd = blob[boff:]
        need(struct.unpack_from(">I", cd, 0)[0] == 0xFADE0C02, "slot 0 is not a CodeDirectory")
        hash_off, _, _, ncode, limit = struct.unpack_from(">IIIII", cd, 16)
        hsize, htype, _, pshift = struct.unpack_from(">BBBB", cd, 36)
        need(htype == 2 and hsize == 32, f"code hash type {htype}, want SHA-256")
        page = 1 << pshift
        need(ncode == (limit + page - 1) // page, "code slots do not cover the file")
        for n in range(ncode):
            got = hashlib.sha256(data[n * page:min((n + 1) * page, limit)]).digest()
            want = cd[hash_off + n * hsize:hash_off + (n + 1) * hsize]
            need(got == want, f"code signature does not match page {n} (the file changed after signing)")
        return ncode
    raise Mismatch("code signature has no CodeDirectory")


def pe(data, machine):
    need(data[:2] == b"MZ", "not a PE file")
    off = struct.unpack_from("<I", data, 0x3C)[0]
    need(data[off:off + 4] == b"PE\0\0", "no PE signature")
    mach, nsec, _, symtab, nsym, optsize, _ = struct.unpack_from("<HHIIIHH", data, off + 4)
    need(mach == machine, f"PE machine {mach:#x}, want {machine:#x}")
    opt = off + 24
    need(struct.unpack_from("<H", data, opt)[0] == 0x20B, "not PE32+")
    subsystem = struct.unpack_from("<H", data, opt + 68)[0]
    need(subsystem == 3, f"subsystem {subsystem}, want a console program (3)")
    imp_rva = struct.unpack_from("<I", data, opt + 112 + 8)[0]
    strtab = symtab + nsym * 18
    sections, debug = [], []
    for i in range(nsec):
        s = opt + optsize + 40 * i
        raw = data[s:s + 8].rstrip(b"\0").decode()
        if raw.startswith("/") and symtab:
            n = strtab + int(raw[1:])
            raw = data[n:data.index(b"\0", n)].decode()
        vsize, va, rsize, roff = struct.unpack_from("<IIII", data, s + 8)
        sections.append((va, max(vsize, rsize), roff))
        if raw.startswith((".debug", ".zdebug")):
            debug.append(raw)
    need(not debug, f"not stripped: {', '.join(debug)}")

    def at(rva):
        for va, size, roff in sections:
            if va <= rva < va + size:
                return roff + rva - va
        raise Mismatch(f"RVA {rva:#x} is in no section")

    need(imp_rva, "imports nothing")
    dlls, d = [], at(imp_rva)
    while True:
        name_rva = struct.unpack_from("<I", data, d + 12)[0]
        if not name_rva:
            break
        n = at(name_rva)
        dlls.append(data[n:data.index(b"\0", n)].decode().lower())
        d += 20
    foreign = [x for x in dlls if x not in WINDOWS_DLLS and not x.startswith(("api-ms-win-", "ext-ms-win-"))]
    need(not foreign, f"imports DLLs that are not part of Windows: {', '.join(foreign)}")
    return f"PE32+ console executable, stripped, imports {', '.join(sorted(dlls))}"


def check(target, data):
    """What the binary is, or Mismatch saying why it is not the target's release binary."""
    kind, cpu = WANT[target]
    try:
        return {"elf": elf, "macho": macho, "pe": pe}[kind](data, cpu)
    except (struct.error, ValueError, IndexError) as e:
        raise Mismatch(f"malformed: {e}") from e


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--target", required=True, choices=sorted(WANT))
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    for f in args.files:
        with open(f, "rb") as fh:
            data = fh.read()
        try:
            what = check(args.target, data)
        except Mismatch as e:
            print(f"{f}: not a {args.target} release binary: {e}", file=sys.stderr)
            sys.exit(1)
        print(f"{f}: {args.target}: {what}")


if __name__ == "__main__":
    main()
