#include "verify/LoadErrors.h"

#include <QRegularExpression>

#include <algorithm>
#include <iterator>

namespace cudnnsetup {

namespace {

struct Entry
{
    qint64 code;
    const char *name;
    const char *cause;
    const char *fix;
};

ErrorExplanation explanationOf(const Entry &entry)
{
    return {QLatin1String(entry.name), Text(entry.cause), Text(entry.fix)};
}

template <std::size_t N>
const Entry *find(const Entry (&table)[N], qint64 code)
{
    const Entry *end = std::end(table);
    const Entry *found =
        std::find_if(std::begin(table), end, [code](const Entry &e) { return e.code == code; });
    return found == end ? nullptr : found;
}

// ---- Loader errors (failure-modes.md §0-3, 7; windows-platform.md §3) ---------------------------

constexpr char kFixMissingDll[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Copy the whole bin folder of the cuDNN archive, not only the main DLL; for cuDNN 8.3 to 8.9 "
    "also put a 64-bit zlibwapi.dll beside the cuDNN DLLs; and put the folder that holds the DLLs "
    "itself (not one above it) on PATH.");

// The name a dlerror() message gives before `marker` ("libcudnn_ops.so.9: cannot open shared object
// file"), without a path or a prefix such as Python's "OSError: ".
QString nameBefore(const QString &errorString, const QString &marker)
{
    const qsizetype at = errorString.indexOf(marker);
    if (at <= 0)
        return {};
    const QString before = errorString.left(at).trimmed();
    const qsizetype start =
        std::max(before.lastIndexOf(QLatin1Char(' ')), before.lastIndexOf(QLatin1Char('/')));
    return before.mid(start + 1);
}

// The text between `open` and the next `close` after it.
QString between(const QString &text, const QString &open, const QString &close)
{
    const qsizetype start = text.indexOf(open);
    if (start < 0)
        return {};
    const qsizetype from = start + open.size();
    const qsizetype end = text.indexOf(close, from);
    return text.mid(from, end < 0 ? -1 : end - from).trimmed();
}

// The Python C API's names (PyModule_Type, _Py_NoneStruct): a module that lacks one is a Python
// extension, or a library of one, that only an interpreter loads whole.
bool isPythonSymbol(const QString &symbol)
{
    static const QRegularExpression pattern(QStringLiteral("\\A_?Py[A-Z_]"));
    return pattern.match(symbol).hasMatch();
}

ErrorExplanation explainDlerror(const QString &errorString, const QString &library)
{
    if (errorString.contains(QLatin1String("cannot open shared object file"))) {
        const QString missing = nameBefore(errorString, QStringLiteral(": cannot open shared object file"));
        const Text cause =
            missing.isEmpty() || missing == library
                ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "The loader found %1 in none of the folders it searches "
                                         "(LD_LIBRARY_PATH, the library's RUNPATH, the ld.so.conf "
                                         "folders)."))
                      .arg(library)
                : Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "%1 needs %2, which the loader found in none of the folders "
                                         "it searches (LD_LIBRARY_PATH, the library's RUNPATH, the "
                                         "ld.so.conf folders)."))
                      .arg(library, missing);
        return {QStringLiteral("cannot open shared object file"), cause,
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Install the missing library, or add the folder that holds it "
                                       "to LD_LIBRARY_PATH or to a file in /etc/ld.so.conf.d and run "
                                       "ldconfig."))};
    }
    if (errorString.contains(QLatin1String("undefined symbol"))) {
        const QString symbol = between(errorString, QStringLiteral("undefined symbol:"), QStringLiteral(","));
        if (isPythonSymbol(symbol)) {
            return {QStringLiteral("needs Python"),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "%1 is part of a Python package: it needs the interpreter's own "
                                           "function %2, so it loads only inside Python."))
                        .arg(library, symbol),
                    Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                           "Nothing to fix here: import the package from its Python "
                                           "environment."))};
        }
        return {QStringLiteral("undefined symbol"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 needs the function %2, which none of the libraries loaded "
                                       "with it has: usually an older or other copy of a cuDNN or "
                                       "CUDA library was found first."))
                    .arg(library, symbol.isEmpty() ? errorString : symbol),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Remove the older copy, or put the folder of the right one "
                                       "first in LD_LIBRARY_PATH, so that the libraries of one cuDNN "
                                       "release are found together."))};
    }
    if (errorString.contains(QLatin1String("wrong ELF class"))) {
        return {
            QStringLiteral("wrong ELF class"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 or a library it needs is built for another word size: a "
                                                 "32-bit library in a 64-bit program, or the reverse."))
                .arg(library),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Use the 64-bit (x86_64 or sbsa) libraries of the cuDNN archive "
                                   "and a 64-bit program."))};
    }
    if (errorString.contains(QLatin1String("version `")) &&
        errorString.contains(QLatin1String("not found"))) {
        const QString version = between(errorString, QStringLiteral("version `"), QStringLiteral("'"));
        const QString holder = nameBefore(errorString, QStringLiteral(": version `"));
        return {QStringLiteral("version not found"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 needs version %2 of %3, but the copy the loader found is "
                                       "older than the one %1 was built against."))
                    .arg(library, version, holder.isEmpty() ? QStringLiteral("?") : holder),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Update that library, or remove the older copy that the loader "
                                       "finds first."))};
    }
    return {QStringLiteral("dlopen"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be loaded. The loader said: %2"))
                .arg(library, errorString),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Check that %1 and every library it needs are present, built for "
                                   "this processor, and in a folder the loader searches."))
                .arg(library)};
}

// ---- cuDNN statuses -----------------------------------------------------------------------------

constexpr char kCauseSuccess[] = QT_TRANSLATE_NOOP("cudnnsetup", "The call succeeded.");
constexpr char kFixNothing[] = QT_TRANSLATE_NOOP("cudnnsetup", "Nothing needs to be done.");
// failure-modes.md #8.
constexpr char kCauseNotInitialized[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "cuDNN could not start (cudnnCreate failed). This is most often a GPU driver older than this "
    "cuDNN and CUDA need, or a cuDNN built for another CUDA version than the program uses.");
constexpr char kFixDriverAndCudaBuild[] = QT_TRANSLATE_NOOP(
    "cudnnsetup", "Update the NVIDIA driver, and use the cuDNN build for the CUDA version your program or "
                  "framework was built with (the _cuda12 / _cuda13 part of the archive name).");
constexpr char kCauseVersionMismatch[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "The cuDNN libraries that were loaded come from different releases: files of two cuDNN copies "
    "are mixed.");
constexpr char kFixOneRelease[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Copy the whole set of cuDNN libraries of one archive again, and remove the older copies that "
    "are found earlier on the search path.");
constexpr char kCauseLicense[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "The feature needs a license and checking it failed.");
constexpr char kFixLicense[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Check that the license file is present and valid and that NVIDIA_LICENSE_FILE points to it.");
constexpr char kCauseInProgress[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Work queued on the CUDA stream has not finished yet (an answer of cudnnQueryRuntimeError).");
constexpr char kFixWait[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "Not an installation problem: ask again once the stream has finished.");
constexpr char kCauseOverflow[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "A numerical overflow happened while a GPU kernel ran.");
constexpr char kFixNotInstallation[] = QT_TRANSLATE_NOOP(
    "cudnnsetup", "Not an installation problem: the program's data or settings cause it; report it to the "
                  "program's authors with the cuDNN version.");
constexpr char kCauseAllocation[] = QT_TRANSLATE_NOOP(
    "cudnnsetup", "cuDNN could not allocate memory, usually GPU memory (cudaMalloc failed).");
constexpr char kFixMemory[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Close other programs that use the GPU (nvidia-smi lists them), or use a smaller batch or model.");
constexpr char kCauseBadParam[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "The program passed a wrong value or parameter to cuDNN.");
constexpr char kFixProgramBug[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Not an installation problem but a fault of the calling program; report it to its authors with "
    "the cuDNN version.");
constexpr char kCauseInternal[] = QT_TRANSLATE_NOOP("cudnnsetup", "An internal cuDNN operation failed.");
constexpr char kFixInternal[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Update the NVIDIA driver and make sure every cuDNN library comes from the same release; if it "
    "still happens, report it to NVIDIA with the cuDNN and driver versions.");
constexpr char kCauseArchMismatch[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "The GPU lacks a feature this function needs: its compute capability is not supported by this "
    "cuDNN.");
constexpr char kFixGpu[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Use a cuDNN release whose support matrix lists this GPU's compute capability, or another GPU.");
constexpr char kCauseMapping[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "Accessing GPU memory failed, usually while binding a texture.");
constexpr char kCauseExecution[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "A cuDNN kernel failed to launch or to run on the GPU.");
constexpr char kFixExecution[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Update the NVIDIA driver, check that other CUDA programs work on this GPU, and run the check "
    "again with no other GPU work running.");
constexpr char kCauseNotSupported[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "This cuDNN does not support the requested operation or configuration.");
constexpr char kFixNotSupported[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Not an installation problem: the program asked for something cuDNN does not offer; a newer "
    "cuDNN or other settings in the program may support it.");
constexpr char kCausePrerequisite[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "A library cuDNN loads at run time, the CUDA driver's nvcuda.dll / libcuda.so, was not found.");
constexpr char kFixDriver[] =
    QT_TRANSLATE_NOOP("cudnnsetup", "Install or update the NVIDIA driver, then restart the computer.");
constexpr char kCauseSublibraryLoading[] = QT_TRANSLATE_NOOP(
    "cudnnsetup", "cuDNN could not load one of its sub-libraries (such as cudnn_graph64_9.dll or "
                  "libcudnn_graph.so.9): cuDNN 9 loads them by name when they are first needed.");
constexpr char kFixSublibraries[] = QT_TRANSLATE_NOOP(
    "cudnnsetup",
    "Copy the whole set of cuDNN libraries of the archive into one folder and put that folder on the "
    "search path; Python 3.8 and later also need os.add_dll_directory() for it.");

// cuDNN 8 (cudnn_ops_infer.h): 0 to 14.
const Entry kCudnn8[] = {
    {0, "CUDNN_STATUS_SUCCESS", kCauseSuccess, kFixNothing},
    {1, "CUDNN_STATUS_NOT_INITIALIZED", kCauseNotInitialized, kFixDriverAndCudaBuild},
    {2, "CUDNN_STATUS_ALLOC_FAILED", kCauseAllocation, kFixMemory},
    {3, "CUDNN_STATUS_BAD_PARAM", kCauseBadParam, kFixProgramBug},
    {4, "CUDNN_STATUS_INTERNAL_ERROR", kCauseInternal, kFixInternal},
    {5, "CUDNN_STATUS_INVALID_VALUE", kCauseBadParam, kFixProgramBug},
    {6, "CUDNN_STATUS_ARCH_MISMATCH", kCauseArchMismatch, kFixGpu},
    {7, "CUDNN_STATUS_MAPPING_ERROR", kCauseMapping, kFixInternal},
    {8, "CUDNN_STATUS_EXECUTION_FAILED", kCauseExecution, kFixExecution},
    {9, "CUDNN_STATUS_NOT_SUPPORTED", kCauseNotSupported, kFixNotSupported},
    {10, "CUDNN_STATUS_LICENSE_ERROR", kCauseLicense, kFixLicense},
    {11, "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", kCausePrerequisite, kFixDriver},
    {12, "CUDNN_STATUS_RUNTIME_IN_PROGRESS", kCauseInProgress, kFixWait},
    {13, "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", kCauseOverflow, kFixNotInstallation},
    {14, "CUDNN_STATUS_VERSION_MISMATCH", kCauseVersionMismatch, kFixOneRelease},
};

// cuDNN 9 (cudnn_graph.h): a category in the thousands plus a specific error; the deprecated
// names of cuDNN 8 are aliases of these numbers.
const Entry kCudnn9[] = {
    {0, "CUDNN_STATUS_SUCCESS", kCauseSuccess, kFixNothing},
    {1001, "CUDNN_STATUS_NOT_INITIALIZED", kCauseNotInitialized, kFixDriverAndCudaBuild},
    {1002, "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", kCauseVersionMismatch, kFixOneRelease},
    {1003, "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "A saved execution plan was made by another cuDNN version and cannot be read "
                       "by this one."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Not an installation problem: let the program build its saved plans again "
                       "with this cuDNN.")},
    {1004, "CUDNN_STATUS_DEPRECATED",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program called a function that this cuDNN marks as deprecated."),
     kFixProgramBug},
    {1005, "CUDNN_STATUS_LICENSE_ERROR", kCauseLicense, kFixLicense},
    {1006, "CUDNN_STATUS_RUNTIME_IN_PROGRESS", kCauseInProgress, kFixWait},
    {1007, "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", kCauseOverflow, kFixNotInstallation},
    {1008, "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", kCauseSublibraryLoading, kFixSublibraries},
    {2000, "CUDNN_STATUS_BAD_PARAM", kCauseBadParam, kFixProgramBug},
    {2001, "CUDNN_STATUS_INVALID_VALUE", kCauseBadParam, kFixProgramBug},
    {2002, "CUDNN_STATUS_BAD_PARAM_NULL_POINTER",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program passed a null pointer where cuDNN needs one."),
     kFixProgramBug},
    {2003, "CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program passed a pointer that is not aligned as cuDNN needs."),
     kFixProgramBug},
    {2004, "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program used a descriptor before finalizing it."), kFixProgramBug},
    {2005, "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program passed a value outside the range cuDNN accepts."),
     kFixProgramBug},
    {2006, "CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT",
     QT_TRANSLATE_NOOP("cudnnsetup", "A buffer or workspace the program passed is too small."),
     kFixProgramBug},
    {2007, "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program mixed CUDA streams that do not belong together."),
     kFixProgramBug},
    {2008, "CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH",
     QT_TRANSLATE_NOOP("cudnnsetup", "The tensor shapes the program passed do not fit together."),
     kFixProgramBug},
    {2009, "CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program passed the same entry twice."), kFixProgramBug},
    {2010, "CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program set a descriptor attribute with the wrong type."),
     kFixProgramBug},
    {2011, "CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH",
     QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA graph the program passed does not match what cuDNN expects."),
     kFixProgramBug},
    {2012, "CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program passed a descriptor of the wrong type."), kFixProgramBug},
    {3000, "CUDNN_STATUS_NOT_SUPPORTED", kCauseNotSupported, kFixNotSupported},
    {3001, "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN",
     QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN engine supports this pattern of operations."),
     kFixNotSupported},
    {3002, "CUDNN_STATUS_NOT_SUPPORTED_SHAPE",
     QT_TRANSLATE_NOOP("cudnnsetup", "This cuDNN does not support these tensor shapes."), kFixNotSupported},
    {3003, "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE",
     QT_TRANSLATE_NOOP("cudnnsetup", "This cuDNN does not support this data type here."), kFixNotSupported},
    {3004, "CUDNN_STATUS_NOT_SUPPORTED_LAYOUT",
     QT_TRANSLATE_NOOP("cudnnsetup", "This cuDNN does not support this memory layout."), kFixNotSupported},
    {3005, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER",
     QT_TRANSLATE_NOOP("cudnnsetup", "The installed NVIDIA driver is too old for this cuDNN."), kFixDriver},
    {3006, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART",
     QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA runtime the program loaded does not fit the CUDA version this "
                                     "cuDNN was built for."),
     kFixDriverAndCudaBuild},
    {3007, "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", kCauseArchMismatch, kFixGpu},
    {3008, "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", kCausePrerequisite, kFixDriver},
    {3009, "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE",
     QT_TRANSLATE_NOOP("cudnnsetup", "The cuDNN sub-library this operation needs is not available."),
     kFixSublibraries},
    {3010, "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT",
     QT_TRANSLATE_NOOP("cudnnsetup", "The GPU has too little shared memory for this operation."),
     kFixNotSupported},
    {3011, "CUDNN_STATUS_NOT_SUPPORTED_PADDING",
     QT_TRANSLATE_NOOP("cudnnsetup", "This cuDNN does not support this padding."), kFixNotSupported},
    {3012, "CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The operation would need GPU launch parameters this GPU does not allow."),
     kFixNotSupported},
    {3013, "CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "This operation cannot be captured into a CUDA graph by cuDNN's native API."),
     kFixNotSupported},
    {3014, "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE",
     QT_TRANSLATE_NOOP("cudnnsetup", "This cuDNN does not support these dynamic shapes."), kFixNotSupported},
    {4000, "CUDNN_STATUS_INTERNAL_ERROR", kCauseInternal, kFixInternal},
    {4001, "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN failed to compile a GPU kernel at run time."), kFixInternal},
    {4002, "CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN met a value it did not expect inside itself."), kFixInternal},
    {4003, "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN could not allocate memory on the computer (host memory)."),
     QT_TRANSLATE_NOOP("cudnnsetup", "Close other programs to free memory and try again.")},
    {4004, "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN could not allocate GPU memory."), kFixMemory},
    {4005, "CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN chose GPU launch parameters that the GPU refused."),
     kFixInternal},
    {4006, "CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED", kCauseMapping, kFixInternal},
    {5000, "CUDNN_STATUS_EXECUTION_FAILED", kCauseExecution, kFixExecution},
    {5001, "CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER",
     QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA driver reported an error while cuDNN ran GPU work."),
     kFixExecution},
    {5002, "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuBLAS, which cuDNN calls, reported an error."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Make sure the cuBLAS libraries of the CUDA version this cuDNN was built for "
                       "are found first, and update the NVIDIA driver.")},
    {5003, "CUDNN_STATUS_EXECUTION_FAILED_CUDART",
     QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA runtime reported an error while cuDNN ran GPU work."),
     kFixExecution},
    {5004, "CUDNN_STATUS_EXECUTION_FAILED_CURAND",
     QT_TRANSLATE_NOOP("cudnnsetup", "cuRAND, which cuDNN calls, reported an error."), kFixExecution},
};

// ---- CUDA runtime errors (driver_types.h; failure-modes.md #12, #15) -----------------------------

const Entry kCuda[] = {
    {2, "cudaErrorMemoryAllocation",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The CUDA runtime could not allocate enough GPU memory or other resources."),
     kFixMemory},
    {3, "cudaErrorInitializationError",
     QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA driver and runtime could not be initialized."), kFixDriver},
    {34, "cudaErrorStubLibrary",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The program loaded the CUDA toolkit's stub of the driver library instead of "
                       "the real driver."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Remove the toolkit's stubs folder from PATH or LD_LIBRARY_PATH so that the "
                       "driver's own library is found.")},
    {35, "cudaErrorInsufficientDriver",
     QT_TRANSLATE_NOOP("cudnnsetup", "The NVIDIA driver is older than this CUDA runtime needs (\"CUDA driver "
                                     "version is insufficient for CUDA runtime version\")."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Update the NVIDIA driver to one that supports this CUDA version, or use the "
                       "cuDNN and CUDA builds for the CUDA version the driver supports (nvidia-smi "
                       "shows it).")},
    {36, "cudaErrorCallRequiresNewerDriver",
     QT_TRANSLATE_NOOP("cudnnsetup", "This call needs a newer NVIDIA driver than the installed one."),
     kFixDriver},
    {46, "cudaErrorDevicesUnavailable",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Every CUDA GPU is busy or unavailable: set to an exclusive or prohibited "
                       "compute mode, or filled by other work."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Close the other programs that use the GPU (nvidia-smi lists them), or ask the "
                       "administrator to set the GPU's compute mode back to Default.")},
    {100, "cudaErrorNoDevice", QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA driver found no CUDA-capable GPU."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Check that nvidia-smi lists the GPU, and that CUDA_VISIBLE_DEVICES is not "
                       "set to hide every GPU.")},
    {101, "cudaErrorInvalidDevice",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The GPU number asked for does not exist; CUDA_VISIBLE_DEVICES often names a "
                       "GPU that is not there."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Unset CUDA_VISIBLE_DEVICES, or set it to GPUs that exist (nvidia-smi numbers "
                       "them from 0).")},
    {209, "cudaErrorNoKernelImageForDevice",
     QT_TRANSLATE_NOOP("cudnnsetup", "The program or a library it loaded has no GPU code for this GPU's "
                                     "architecture (\"no kernel image is available for execution on the "
                                     "device\")."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Use builds of the program, CUDA and cuDNN that support this GPU, and do not "
                       "mix CUDA versions in one environment.")},
    {222, "cudaErrorUnsupportedPtxVersion",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The GPU code was compiled by a newer CUDA toolkit than the driver supports."),
     kFixDriver},
    {802, "cudaErrorSystemNotReady",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The system is not ready for CUDA work: a service the NVIDIA driver needs is "
                       "not running."),
     QT_TRANSLATE_NOOP("cudnnsetup", "Check that the NVIDIA driver's services are running, or restart the "
                                     "computer.")},
    {803, "cudaErrorSystemDriverMismatch",
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "The display driver and the CUDA driver library are of different versions."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Reinstall the NVIDIA driver so that all its parts are of one version, then "
                       "restart the computer.")},
    {804, "cudaErrorCompatNotSupportedOnDevice",
     QT_TRANSLATE_NOOP("cudnnsetup", "A CUDA forward-compatibility package is in use, but this GPU does not "
                                     "support it."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Remove the forward-compatibility package, or limit the program to the GPUs "
                       "that support it with CUDA_VISIBLE_DEVICES.")},
    {999, "cudaErrorUnknown",
     QT_TRANSLATE_NOOP("cudnnsetup", "An unknown internal error happened in the CUDA driver or runtime."),
     QT_TRANSLATE_NOOP("cudnnsetup",
                       "Restart the computer; if it still happens, reinstall the NVIDIA driver.")},
};

} // namespace

ErrorExplanation explainLoaderError(int code, const QString &errorString, const QString &library)
{
    switch (quint32(code)) {
    case 0:
        return explainDlerror(errorString, library);
    case 126:
        return {QStringLiteral("ERROR_MOD_NOT_FOUND"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Windows found %1 or a DLL it needs nowhere it looks (error 126 "
                                       "means either). For cuDNN 8.3 to 8.9 it is usually "
                                       "zlibwapi.dll; it also happens when only the main cuDNN DLL "
                                       "was copied or its folder is not on the search path."))
                    .arg(library),
                Text(kFixMissingDll)};
    case 0xC0000135u:
        return {QStringLiteral("STATUS_DLL_NOT_FOUND"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "The Windows loader could not find a DLL that %1 needs "
                                                     "(STATUS_DLL_NOT_FOUND, the loader's own code for error "
                                                     "126)."))
                    .arg(library),
                Text(kFixMissingDll)};
    case 127:
        return {QStringLiteral("ERROR_PROC_NOT_FOUND"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 was found, but a function it needs is missing from a DLL "
                                       "it loaded: usually an older or other copy of a cuDNN or CUDA "
                                       "DLL was found first on the search path."))
                    .arg(library),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Remove the older copy, or its folder from PATH, so that the "
                                       "DLLs of one cuDNN release are found together; look in the "
                                       "program's folder, conda environments and pip's "
                                       "nvidia\\cudnn\\bin too."))};
    case 193:
        return {QStringLiteral("ERROR_BAD_EXE_FORMAT"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "%1 or a DLL it needs is built for another processor "
                                       "architecture: typically a 32-bit DLL, often zlibwapi.dll, in "
                                       "a 64-bit program, or the reverse."))
                    .arg(library),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "Replace the 32-bit DLL with its 64-bit build (cuDNN and the "
                                       "zlibwapi.dll it needs are 64-bit only), and use a 64-bit "
                                       "program or Python."))};
    default:
        break;
    }
    return {QStringLiteral("Windows error %1").arg(code),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 could not be loaded. The loader said: %2"))
                .arg(library, errorString.isEmpty() ? QString::number(code) : errorString),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "Check that %1 and every library it needs are present, built for "
                                   "this processor, and in a folder the loader searches."))
                .arg(library)};
}

ErrorExplanation explainCudnnStatus(qint64 status, int cudnnMajor)
{
    // Without a known major the number tells: cuDNN 9's categories start at 1000.
    const bool categorised = cudnnMajor >= 9 || (cudnnMajor <= 0 && status >= 1000);
    if (const Entry *entry = categorised ? find(kCudnn9, status) : find(kCudnn8, status))
        return explanationOf(*entry);
    const QString name = QStringLiteral("cudnnStatus_t %1").arg(status);
    if (categorised && status > 0) {
        // A specific error this table does not know yet: its category still says what went wrong.
        if (const Entry *category = find(kCudnn9, status / 1000 * 1000))
            return {name, Text(category->cause), Text(category->fix)};
    }
    return {name,
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN returned status %1, which cuDNN %2 does not define."))
                .arg(status)
                .arg(cudnnMajor > 0 ? QString::number(cudnnMajor) : QStringLiteral("?")),
            Text(kFixOneRelease)};
}

std::optional<ErrorExplanation> explainCudnnStatusName(const QString &name)
{
    const auto named = [&name](const Entry &e) { return name == QLatin1String(e.name); };
    if (const Entry *entry = std::find_if(std::begin(kCudnn9), std::end(kCudnn9), named);
        entry != std::end(kCudnn9))
        return explanationOf(*entry);
    if (const Entry *entry = std::find_if(std::begin(kCudnn8), std::end(kCudnn8), named);
        entry != std::end(kCudnn8))
        return explanationOf(*entry);
    return std::nullopt;
}

ErrorExplanation explainCudaError(int error)
{
    if (const Entry *entry = find(kCuda, error))
        return explanationOf(*entry);
    return {
        QStringLiteral("cudaError %1").arg(error),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "The CUDA runtime returned error %1.")).arg(qint64(error)),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Update the NVIDIA driver and run the check again; if it still "
                                             "happens, look the error number up in NVIDIA's CUDA runtime "
                                             "documentation."))};
}

} // namespace cudnnsetup
