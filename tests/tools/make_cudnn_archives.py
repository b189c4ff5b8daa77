#!/usr/bin/env python3
"""Packs the stand-in cuDNN DLLs into zips named and laid out exactly like NVIDIA's Windows
archives (shared/reference/nvidia-compat.md section 4): the root folder named after the archive,
bin\\ (bin\\x64\\ from 9.18.0.77), include\\ with a real cudnn_version.h, lib\\x64\\ import
libraries, LICENSE. Test fixtures only: the product reads whatever an archive holds.

usage: make_cudnn_archives.py STANDINS_DIR OUTPUT_DIR
Each archive is read back after writing and compared with its list; any difference fails."""
import os
import sys
import zipfile

HEADERS = {
    8: ["cudnn.h", "cudnn_adv_infer.h", "cudnn_adv_train.h", "cudnn_backend.h", "cudnn_cnn_infer.h",
        "cudnn_cnn_train.h", "cudnn_ops_infer.h", "cudnn_ops_train.h", "cudnn_version.h"],
    9: ["cudnn.h", "cudnn_adv.h", "cudnn_backend.h", "cudnn_cnn.h", "cudnn_graph.h", "cudnn_ops.h",
        "cudnn_version.h"],
}
LIB_STEMS = {
    8: ["cudnn", "cudnn_adv_infer", "cudnn_adv_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_ops_infer",
        "cudnn_ops_train"],
    9: ["cudnn", "cudnn_adv", "cudnn_cnn", "cudnn_engines_precompiled", "cudnn_engines_runtime_compiled",
        "cudnn_graph", "cudnn_heuristic", "cudnn_ops"],
}
# (version, CUDA major) of every stand-in family.
FAMILIES = [("8.9.7.29", 12), ("9.1.0.70", 12), ("9.18.0.77", 12)]


def version_header(major, minor, patch):
    multiplier = 10000 if major >= 9 else 1000
    return (f"#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR {major}\n"
            f"#define CUDNN_MINOR {minor}\n#define CUDNN_PATCHLEVEL {patch}\n\n"
            f"#define CUDNN_VERSION (CUDNN_MAJOR * {multiplier} + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n"
            "/* cannot use constexpr here since this is a C-only file */\n#endif /* CUDNN_VERSION_H */\n")


def entries(standins, version, cuda):
    """(name in the zip, bytes) of one archive, in NVIDIA's order: bin, include, lib, LICENSE."""
    major, minor, patch, _ = (int(part) for part in version.split("."))
    root = f"cudnn-windows-x86_64-{version}_cuda{cuda}-archive"
    dll_folder = "bin/x64" if (major, minor) >= (9, 18) else "bin"
    family = os.path.join(standins, f"cudnn-{version}")
    result = []
    for dll in sorted(os.listdir(family)):
        if dll.endswith(".dll"):
            with open(os.path.join(family, dll), "rb") as file:
                result.append((f"{root}/{dll_folder}/{dll}", file.read()))
    for header in HEADERS[major]:
        content = version_header(major, minor, patch) if header == "cudnn_version.h" else f"/* {header} (test stand-in) */\n"
        result.append((f"{root}/include/{header}", content.encode()))
    for stem in LIB_STEMS[major]:
        for lib in (f"{stem}.lib", f"{stem}64_{major}.lib"):
            result.append((f"{root}/lib/x64/{lib}", b"!<arch>\n"))
    result.append((f"{root}/LICENSE", b"Test stand-in: not NVIDIA software.\n"))
    return f"{root}.zip", result


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    standins, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    for version, cuda in FAMILIES:
        name, files = entries(standins, version, cuda)
        path = os.path.join(output, name)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for entry, data in files:
                archive.writestr(entry, data)
        with zipfile.ZipFile(path) as archive:
            written = [(info.filename, archive.read(info)) for info in archive.infolist()]
            if written != files or archive.testzip() is not None:
                sys.exit(f"{name}: what was read back differs from what was written")
        dlls = sum(1 for entry, _ in files if entry.endswith(".dll"))
        if dlls != (7 if version.startswith("8.") else 8):
            sys.exit(f"{name}: {dlls} DLLs, expected NVIDIA's set")
        print(f"{name}: {len(files)} entries, {dlls} DLLs")


if __name__ == "__main__":
    main()
