#pragma once

#include "common/Text.h"

#include <QString>

#include <optional>

namespace cudnnsetup {

// A loader, CUDA or cuDNN error code in plain words: its symbolic name, what usually causes it and
// what to do about it.
struct ErrorExplanation
{
    QString name; // "ERROR_MOD_NOT_FOUND", "CUDNN_STATUS_NOT_INITIALIZED", "cudaErrorNoDevice"
    Text cause;
    Text fix;
};

// `code`: GetLastError() of LoadLibrary on Windows (126, 127, 193, 0xC0000135), 0 on Linux where
// `errorString` (dlerror()) is all there is. `library`: the name that was being loaded. Codes and
// messages it does not know get a generic explanation that quotes the loader's words.
ErrorExplanation explainLoaderError(int code, const QString &errorString, const QString &library);

// A cudnnStatus_t value; cuDNN 9 numbers its statuses by category (2000 bad parameter, 3000 not
// supported...), cuDNN 8 counts from 0 to 14, so the major version picks the table (0 when unknown:
// then a number from 1000 up is taken as cuDNN 9's). An unknown cuDNN 9 number is explained by its
// category.
ErrorExplanation explainCudnnStatus(qint64 status, int cudnnMajor);

// A cuDNN status by its name, as logs print it ("CUDNN_STATUS_NOT_INITIALIZED"): cuDNN 9's table
// first, then cuDNN 8's names; nullopt for a name neither defines.
std::optional<ErrorExplanation> explainCudnnStatusName(const QString &name);

// A cudaError_t value of the CUDA runtime.
ErrorExplanation explainCudaError(int error);

} // namespace cudnnsetup
