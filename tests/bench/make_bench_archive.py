#!/usr/bin/env python3
"""Builds the extraction benchmark's archive: the name, layout and 31 files of NVIDIA's
cudnn-windows-x86_64-8.9.7.29_cuda12-archive.zip, and its size (708,408,517 bytes, the size NVIDIA
publishes), with content made from real NVIDIA libraries so the compression ratio is real.

NVIDIA publishes the archive's size but not each file's, so the seven DLLs get the shares below of
the unpacked total, and the total is chosen (by measuring how the sources compress) so the archive
comes out at NVIDIA's size within 0.5 %. Each DLL starts with a minimal x64 PE header (the
inspection checks every DLL's machine) followed by bytes of the real libraries.

usage: make_bench_archive.py OUTPUT.zip [LIBRARY_DIR ...]
       (default: the cuDNN and cuBLAS libraries of /usr/local/cuda-13.0/lib64)"""
import glob
import os
import struct
import sys
import zipfile
import zlib

TARGET_SIZE = 708_408_517
ROOT = "cudnn-windows-x86_64-8.9.7.29_cuda12-archive"
DLL_SHARES = [  # name, share of the DLLs' unpacked bytes (an assumption: NVIDIA lists no sizes)
    ("cudnn_cnn_infer64_8.dll", 0.50), ("cudnn_adv_infer64_8.dll", 0.14), ("cudnn_ops_infer64_8.dll", 0.12),
    ("cudnn_cnn_train64_8.dll", 0.10), ("cudnn_ops_train64_8.dll", 0.07), ("cudnn_adv_train64_8.dll", 0.066),
    ("cudnn64_8.dll", 0.004)]
HEADERS = ["cudnn.h", "cudnn_adv_infer.h", "cudnn_adv_train.h", "cudnn_backend.h", "cudnn_cnn_infer.h",
           "cudnn_cnn_train.h", "cudnn_ops_infer.h", "cudnn_ops_train.h", "cudnn_version.h"]
LIB_STEMS = ["cudnn", "cudnn_adv_infer", "cudnn_adv_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_ops_infer",
             "cudnn_ops_train"]
VERSION_HEADER = (b"#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n"
                  b"#define CUDNN_PATCHLEVEL 7\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + "
                  b"CUDNN_PATCHLEVEL)\n\n/* cannot use constexpr here since this is a C-only file */\n"
                  b"#endif /* CUDNN_VERSION_H */\n")


def pe_header():
    """MS-DOS header, PE signature, COFF header (x64 DLL) and an empty PE32+ optional header."""
    dos = bytearray(0x80)
    dos[0:2] = b"MZ"
    struct.pack_into("<I", dos, 0x3C, 0x80)
    coff = struct.pack("<HHIIIHH", 0x8664, 0, 0, 0, 0, 240, 0x2022)
    optional = bytearray(240)
    struct.pack_into("<H", optional, 0, 0x20B)
    return bytes(dos) + b"PE\0\0" + coff + bytes(optional)


class Source:
    """The real libraries, read as one endless stream."""

    def __init__(self, files):
        self.files = files
        self.index = 0
        self.handle = open(files[0], "rb")

    def read(self, size):
        out = bytearray()
        while len(out) < size:
            chunk = self.handle.read(size - len(out))
            if not chunk:
                self.handle.close()
                self.index = (self.index + 1) % len(self.files)
                self.handle = open(self.files[self.index], "rb")
                continue
            out += chunk
        return bytes(out)


def sample_ratio(files, sample=4 << 20):
    """compressed/unpacked of the sources, from samples spread through each file."""
    packed = unpacked = 0
    for path in files:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            for offset in range(0, size, max(size // 8, sample)):
                handle.seek(offset)
                data = handle.read(sample)
                packed += len(zlib.compress(data, 6))
                unpacked += len(data)
    return packed / unpacked


def write(output, dll_total, sources):
    source = Source(sources)
    header = pe_header()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, share in DLL_SHARES:
            size = int(dll_total * share)
            with archive.open(f"{ROOT}/bin/{name}", "w", force_zip64=True) as entry:
                entry.write(header)
                left = size - len(header)
                while left > 0:
                    block = source.read(min(left, 8 << 20))
                    entry.write(block)
                    left -= len(block)
        for name in HEADERS:
            text = VERSION_HEADER if name == "cudnn_version.h" else source.read(40_000)
            archive.writestr(f"{ROOT}/include/{name}", text)
        for stem in LIB_STEMS:
            archive.writestr(f"{ROOT}/lib/x64/{stem}.lib", source.read(60_000))
            archive.writestr(f"{ROOT}/lib/x64/{stem}64_8.lib", source.read(60_000))
        archive.writestr(f"{ROOT}/LICENSE", source.read(30_000))
    return os.path.getsize(output)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    output = sys.argv[1]
    folders = sys.argv[2:] or ["/usr/local/cuda-13.0/lib64"]
    sources = sorted(path for folder in folders for pattern in ("libcudnn*.so.*", "libcublas*.so.*")
                     for path in glob.glob(os.path.join(folder, pattern)) if not os.path.islink(path))
    if not sources:
        sys.exit("no NVIDIA libraries found in " + ", ".join(folders))
    dll_total = int(TARGET_SIZE / sample_ratio(sources))
    for _ in range(4):
        size = write(output, dll_total, sources)
        if abs(size - TARGET_SIZE) <= TARGET_SIZE * 0.005:
            break
        dll_total = int(dll_total * TARGET_SIZE / size)
    with zipfile.ZipFile(output) as archive:
        names = archive.namelist()
        unpacked = sum(info.file_size for info in archive.infolist())
    if len(names) != 31:
        sys.exit(f"{len(names)} entries, expected 31")
    print(f"{output}: {size} bytes (NVIDIA's: {TARGET_SIZE}), {len(names)} entries, {unpacked} bytes unpacked")


if __name__ == "__main__":
    main()
