#pragma once

#include "common/Expected.h"
#include "common/Finding.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cudnnsetup {

class FileSystem;

// One known failure found in an error text a user pasted (a traceback, a loader log, a Windows
// dialog): what kind it is, where, and the values the text states. A value the text does not state
// stays empty (null in JSON), never a guess.
struct LogSignature
{
    // "missing-library", "version-mismatch", "gpu-arch-unsupported", "driver-too-old",
    // "cpu-only-build", "cudnn-status", "crash-code", "wsl-libcuda"
    QString kind;
    int line = 0;               // 1-based, counted by line feeds
    QString library;            // the file that failed to load, as written (without its folder)
    QString dependency;         // the file that was missing for it ("dlerror: X", "Error: X")
    QString symbol;             // the function cuDNN could not find in its own libraries
    int cudnnMajor = 0;         // the cuDNN major the library's name or the message implies; 0: none
    std::optional<qint64> code; // loader error (126), CUDA error, or crash code (0xC0000409)
    QString loadedCudnn;        // "8.9.7": what was loaded at run time
    QString expectedCudnn;      // what the program was built with or requires
    QString sublibrary;         // the cuDNN sub-library a mismatch names
    QString gpuArch;            // "sm_120"
    QStringList builtArchs;     // "sm_50", "sm_60", ...: what the program was built for
    QString driverCuda;         // "12.8": the CUDA version the driver supports
    QString status;             // "CUDNN_STATUS_NOT_INITIALIZED"
    // Where the text ties it to the machine the doctor inspects (filled by the doctor, not the
    // reader): the interpreter of the Python environment that failed, the consumer (the wheel's or
    // program's name) and the file that program loads here for `library` (null: none reachable).
    QString environment;
    QString consumer;
    std::optional<QString> loads;
    // The text where it was found (at most a few hundred characters), for quoting; not part of
    // the JSON, which holds what the text states.
    QString excerpt;

    QJsonObject toJson() const;
    static LogSignature fromJson(const QJsonObject &object);
    bool operator==(const LogSignature &other) const;
};

// Every signature found in a pasted text, first occurrence first; the same failure repeated (a
// log that prints it per thread or per retry) is reported once, at its first line.
struct ErrorLog
{
    QList<LogSignature> signatures;
    // The folders the whole text names (an interpreter's, a venv's, torch\lib), as written; for
    // tying the error to a machine, not part of the JSON.
    QStringList folders;

    bool recognised() const { return !signatures.isEmpty(); }
    QJsonObject toJson() const; // {"signatures": [...]}
    static ErrorLog fromJson(const QJsonObject &object);
};

ErrorLog readErrorLog(const QString &text);

// The text of a log file or a paste as the user's tools wrote it: UTF-16 (with a byte order mark,
// as PowerShell's redirection writes it), UTF-8, or, where the bytes are not UTF-8, the GBK of a
// Chinese Windows console; Latin-1 as the last resort, so any bytes give a text.
QString errorLogText(const QByteArray &bytes);

// The log a user gives: the file at `hostPath`, or the standard input for "-", read whole and
// decoded (errorLogText); a finding when it cannot be read or is too large to be a log.
Expected<ErrorLog> readErrorLogFrom(const QString &hostPath);

// The signature in plain words: what happened (message), what it usually means and what to do
// (fix), its excerpt quoted in `details`. `system`, where given, is the machine the doctor inspects:
// a folder the text names that exists there is mentioned in the details.
Finding explainSignature(const LogSignature &signature, const FileSystem *system = nullptr);

} // namespace cudnnsetup
