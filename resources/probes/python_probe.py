# Run by cuDNN Setup as `python -c <this file>` to learn about one interpreter and its torch.
# Prints one line: "CUDNNSETUP-PROBE " followed by JSON. Works on Python 2.7 and 3.x, and never
# lets an exception escape: whatever fails is reported in the JSON. With the argument
# "--convolution" (verification), torch also runs one small convolution through cuDNN on the GPU
# and compares it with the CPU's.
import json
import os
import struct
import sys

result = {
    "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
    "bits": struct.calcsize("P") * 8,
    "executable": sys.executable,
    "prefix": sys.prefix,
    "torch": None,
}


def find_spec(name):
    try:
        import importlib.util
        return importlib.util.find_spec(name)
    except Exception:
        try:
            import imp
            return imp.find_module(name)
        except Exception:
            return None


def loaded_cudnn():
    # The cuDNN file this process actually mapped, which is what torch uses.
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/self/maps") as maps:
                for line in maps:
                    path = line.strip().split(" ")[-1]
                    if os.path.basename(path).startswith("libcudnn.so"):
                        return path
        except Exception:
            return None
    elif sys.platform == "win32":
        try:
            import ctypes
            from ctypes import wintypes
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            kernel32.GetModuleHandleW.restype = wintypes.HMODULE
            kernel32.GetModuleHandleW.argtypes = [wintypes.LPCWSTR]
            kernel32.GetModuleFileNameW.argtypes = [wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD]
            for major in (9, 8, 7):
                handle = kernel32.GetModuleHandleW(u"cudnn64_%d.dll" % major)
                if handle:
                    buffer = ctypes.create_unicode_buffer(32768)
                    if kernel32.GetModuleFileNameW(handle, buffer, 32768):
                        return buffer.value
        except Exception:
            return None
    return None


def convolution(torch):
    # cuDNN is loaded lazily: this also makes torch map the cuDNN it uses. FP32 without TF32, so
    # the GPU's result must match the CPU's closely.
    try:
        torch.backends.cudnn.enabled = True
        torch.backends.cudnn.allow_tf32 = False
        generator = torch.Generator().manual_seed(7)
        inputs = torch.rand(1, 3, 16, 16, generator=generator)
        weights = torch.rand(4, 3, 3, 3, generator=generator)
        expected = torch.nn.functional.conv2d(inputs.double(), weights.double(), padding=1)
        actual = torch.nn.functional.conv2d(inputs.cuda(), weights.cuda(), padding=1).cpu().double()
        error = float((actual - expected).abs().max())
        return {"passed": error <= 1e-3, "maxError": error}
    except Exception as error:
        return {"passed": False, "error": "%s: %s" % (type(error).__name__, error)}


def distribution_version(name):
    # The installed version from the package's metadata, without importing it (TensorFlow takes
    # seconds to import).
    try:
        from importlib import metadata
        return metadata.version(name)
    except Exception:
        return None


for package in ("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel"):
    version = distribution_version(package)
    if version:
        result["tensorflow"] = version
        break


if find_spec("torch") is not None:
    info = {}
    try:
        import torch
        info["version"] = str(torch.__version__)
        info["cuda"] = getattr(torch.version, "cuda", None)
        try:
            info["cudnn"] = torch.backends.cudnn.version()
        except Exception as error:
            info["cudnnError"] = "%s: %s" % (type(error).__name__, error)
        try:
            info["cudaAvailable"] = bool(torch.cuda.is_available())
        except Exception as error:
            info["cudaError"] = "%s: %s" % (type(error).__name__, error)
        if "--convolution" in sys.argv[1:] and info.get("cudaAvailable"):
            info["convolution"] = convolution(torch)
        info["cudnnLoadedFrom"] = loaded_cudnn()
    except Exception as error:
        info["error"] = "%s: %s" % (type(error).__name__, error)
    result["torch"] = info

sys.stdout.write("CUDNNSETUP-PROBE " + json.dumps(result) + "\n")
