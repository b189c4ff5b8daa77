#include "verify/LogSignatureReader.h"

#include <algorithm>
#include <optional>
#include <vector>

#include <QRegularExpression>

namespace cudnnsetup {

namespace {

// Words every signature's key line holds. One pass of this over the whole text finds the few places
// worth a closer look. Each word starts at a rare letter and the alternatives are grouped by it, so
// the pass costs little more than reading the text once: a 10 MB log in a few dozen milliseconds.
const QRegularExpression &triggers()
{
    static const QRegularExpression expression(QStringLiteral(
        "C(?:ould not (?:locate |load library |load symbol |load dynamic library|find module )|UDNN_STATUS_|"
        "UDA kernel binaries|UDA driver version is insufficient|PU version PaddlePaddle|"
        "PU only version)|"
        "WinError 12[67]|找不到指定的|无法定位程序输入点|"
        "D(?:LL load failed|NN module was not built)|"
        "T(?:he specified (?:module|procedure)|he procedure entry point|orch not compiled)|"
        ": cannot open shared object file|Unable to load any of \\{|"
        "L(?:oadLibrary failed with error|ibrary \\S+ is not found|oaded runtime CuDNN library)|"
        "Require cuDNN|P(?:addle (?:depends on|is compiled with CUDNN)|yTorch (?:was compiled|"
        "installation))|JAX was built against|Outdated cuDNN installation|kernel image is available|"
        "N(?:oKernelImage|VIDIA driver on your system)|[xX][cC]0000(?:409|005)|-107374(?:0791|1819)|"
        "ymbolic link"));
    return expression;
}

// Around a trigger: enough of its line for the longest signature (a path before ": cannot open
// shared object file", a list of architectures after a GPU's name).
constexpr qsizetype kBefore = 400;
constexpr qsizetype kAfter = 800;
constexpr int kExcerptLength = 300;

QRegularExpression pattern(const char *text)
{
    return QRegularExpression(QString::fromUtf8(text), QRegularExpression::UseUnicodePropertiesOption);
}

// "D:\python\lib\site-packages\torch\lib\cudnn_cnn_infer64_8.dll" -> "cudnn_cnn_infer64_8.dll".
QString fileNameOf(QString path)
{
    path = path.trimmed();
    while (!path.isEmpty() && QStringLiteral("\"'`.,;").contains(path.back()))
        path.chop(1);
    while (!path.isEmpty() && QStringLiteral("\"'`").contains(path.front()))
        path.remove(0, 1);
    const qsizetype slash = std::max(path.lastIndexOf(QLatin1Char('/')), path.lastIndexOf(QLatin1Char('\\')));
    return path.mid(slash + 1);
}

// The cuDNN major a library's name carries: cudnn_ops_infer64_8.dll, libcudnn_graph.so.9.
int cudnnMajorOfName(const QString &name)
{
    static const QRegularExpression windowsName = pattern("(?i)^cudnn\\w*?64_(\\d+)\\.dll$");
    static const QRegularExpression linuxName = pattern("^libcudnn\\w*\\.so\\.(\\d+)");
    if (const auto match = windowsName.match(name); match.hasMatch())
        return match.captured(1).toInt();
    if (const auto match = linuxName.match(name); match.hasMatch())
        return match.captured(1).toInt();
    return 0;
}

// A cuDNN version as written ("8.1.0", "7.6") or as cudnnGetVersion() numbers it: 8907 is 8.9.7
// (major * 1000 + minor * 100 + patch before cuDNN 9), 90100 is 9.1.0 (major * 10000 + ...).
QString cudnnVersionText(QString written)
{
    while (written.endsWith(QLatin1Char('.')))
        written.chop(1);
    if (written.contains(QLatin1Char('.')))
        return written;
    bool ok = false;
    const qint64 number = written.toLongLong(&ok);
    if (!ok || number <= 0)
        return written;
    const qint64 scale = number >= 10000 ? 10000 : 1000;
    return QStringLiteral("%1.%2.%3").arg(number / scale).arg(number % scale / 100).arg(number % 100);
}

// The CUDA version of cudaDriverGetVersion()'s number: 12080 is 12.8.
QString cudaVersionText(const QString &written)
{
    const int number = written.toInt();
    return QStringLiteral("%1.%2").arg(number / 1000).arg(number % 1000 / 10);
}

class Reader
{
public:
    explicit Reader(const QString &text)
        : m_text(text)
    {
        m_lineStarts.push_back(0);
        for (qsizetype at = m_text.indexOf(QLatin1Char('\n')); at >= 0;
             at = m_text.indexOf(QLatin1Char('\n'), at + 1))
            m_lineStarts.push_back(at + 1);
    }

    QList<LogSignature> read()
    {
        qsizetype coveredUntil = -1;
        QRegularExpressionMatchIterator hits = triggers().globalMatch(m_text);
        while (hits.hasNext()) {
            const qsizetype at = hits.next().capturedStart();
            if (at < coveredUntil)
                continue;
            const int line = lineOf(at);
            const qsizetype lineStart = m_lineStarts[line];
            const qsizetype lineEnd = lineEndOf(line);
            const qsizetype from = std::max(lineStart, at - kBefore);
            const qsizetype to = std::min(lineEnd, at + kAfter);
            coveredUntil = to;
            readSegment(m_text.mid(from, to - from), line);
        }
        return m_found;
    }

private:
    int lineOf(qsizetype offset) const
    {
        return int(std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset) -
                   m_lineStarts.begin()) -
               1;
    }
    qsizetype lineEndOf(int line) const
    {
        return line + 1 < int(m_lineStarts.size()) ? m_lineStarts[line + 1] - 1 : m_text.size();
    }
    // Whether the text shows it comes from WSL; looked at only once a libcuda failure asks.
    bool fromWsl()
    {
        if (!m_wsl)
            m_wsl = m_text.contains(QLatin1String("/usr/lib/wsl")) || m_text.contains(QLatin1String("WSL")) ||
                    m_text.contains(QLatin1String("microsoft-standard"));
        return *m_wsl;
    }
    QString lineText(int line) const
    {
        if (line < 0 || line >= int(m_lineStarts.size()))
            return {};
        const qsizetype start = m_lineStarts[line];
        return m_text.mid(start, std::min<qsizetype>(lineEndOf(line) - start, kAfter));
    }
    // Lines `line` to `line + count - 1` as one, their breaks removed: a dialog's text wraps
    // anywhere, even inside a path.
    QString joinedLines(int line, int count) const
    {
        QString joined;
        for (int i = line; i < line + count; ++i)
            joined += lineText(i).remove(QLatin1Char('\r'));
        return joined;
    }

    void add(LogSignature signature, int line, const QString &segment)
    {
        signature.line = line + 1;
        QString excerpt = segment.simplified();
        if (excerpt.size() > kExcerptLength)
            excerpt = excerpt.left(kExcerptLength) + QStringLiteral("…");
        signature.excerpt = excerpt;
        if (std::none_of(m_found.cbegin(), m_found.cend(),
                         [&signature](const LogSignature &known) { return known == signature; }))
            m_found.append(signature);
        m_lastLine = line;
    }

    static LogSignature missing(const QString &library, std::optional<qint64> code = std::nullopt,
                                const QString &dependency = {})
    {
        LogSignature signature;
        signature.kind = QStringLiteral("missing-library");
        signature.library = fileNameOf(library);
        signature.dependency = fileNameOf(dependency);
        if (signature.dependency == signature.library)
            signature.dependency.clear();
        signature.cudnnMajor = cudnnMajorOfName(signature.library);
        signature.code = code;
        return signature;
    }

    void readSegment(const QString &segment, int line)
    {
        readMissingLibraries(segment, line);
        readVersionMismatches(segment, line);
        readGpuAndDriver(segment, line);
        readStatuses(segment, line);
        readCrashCodes(segment, line);
        readWsl(segment, line);
    }

    void readMissingLibraries(const QString &segment, int line)
    {
        // cuDNN's own words (8 and 9): "Could not locate X. Please make sure...", "Could not load
        // library X. Error code 126" and on Linux "Could not load library X. Error: Y: cannot open...".
        static const QRegularExpression locate = pattern("Could not locate (\\S+?)\\.?(?:\\s|$)");
        static const QRegularExpression cudnnLoad =
            pattern("Could not load library (\\S+?)\\.?\\s+Error(?: code (\\d+)|: (\\S+?): )");
        // TensorFlow: "Could not load dynamic library 'X'; dlerror: Y: cannot open..." / "Y not found".
        static const QRegularExpression tensorflow =
            pattern("Could not load dynamic library '([^']+)'(?:; dlerror: (\\S+?)(?::| not found))?");
        // Python on Windows: torch's "[WinError 126] ... Error loading "PATH" or one of its
        // dependencies", ctypes' "Could not find module 'X' (or one of its dependencies)".
        static const QRegularExpression winError =
            pattern("\\[WinError (12[67])\\](?:[^\"\\n]*?Error loading \"([^\"]+)\")?");
        static const QRegularExpression ctypes = pattern("Could not find module '([^']+)' \\(or one of its");
        static const QRegularExpression windowsWords =
            pattern("找不到指定的(模块|程序)|specified (module|procedure) could not be found");
        static const QRegularExpression sharedObject =
            pattern("([^\\s'\":/]+): cannot open shared object file");
        static const QRegularExpression anyOf = pattern("Unable to load any of \\{([^,}\\s]+)");
        // ONNX Runtime, PaddlePaddle, CTranslate2.
        static const QRegularExpression onnx =
            pattern("LoadLibrary failed with error (\\d+) \"[^\"]*\" when trying to load \"([^\"]+)\"");
        static const QRegularExpression paddle =
            pattern("dynamic library \\(([^)]+)\\) that Paddle depends on is not configured correctly\\. "
                    "\\(error code is (\\d+)\\)");
        static const QRegularExpression ctranslate =
            pattern("Library (\\S+) is not found or cannot be loaded");
        static const QRegularExpression required = pattern("Require cuDNN (\\d+)\\.\\*");
        // cuDNN 9's main library finds its functions in the sub-libraries by name at run time: one
        // of another release lacks them ("Could not load symbol cudnnGetVersion. Error code 127").
        static const QRegularExpression symbol =
            pattern("Could not load symbol (\\w+)\\.?\\s+Error code (\\d+)");

        bool named = false;
        const auto take = [&](const LogSignature &signature) {
            add(signature, line, segment);
            named = true;
        };
        if (const auto m = locate.match(segment); m.hasMatch())
            take(missing(m.captured(1)));
        if (const auto m = cudnnLoad.match(segment); m.hasMatch()) {
            take(missing(m.captured(1),
                         m.captured(2).isEmpty() ? std::nullopt
                                                 : std::optional<qint64>(m.captured(2).toLongLong()),
                         m.captured(3)));
        }
        if (const auto m = tensorflow.match(segment); m.hasMatch())
            take(missing(m.captured(1), std::nullopt, m.captured(2)));
        if (const auto m = winError.match(segment); m.hasMatch())
            take(missing(m.captured(2), m.captured(1).toLongLong()));
        if (const auto m = ctypes.match(segment); m.hasMatch())
            take(missing(m.captured(1)));
        if (const auto m = anyOf.match(segment); m.hasMatch())
            take(missing(m.captured(1)));
        if (const auto m = onnx.match(segment); m.hasMatch())
            take(missing(m.captured(2), m.captured(1).toLongLong()));
        if (const auto m = paddle.match(segment); m.hasMatch())
            take(missing(m.captured(1), m.captured(2).toLongLong()));
        if (const auto m = ctranslate.match(segment); m.hasMatch())
            take(missing(m.captured(1)));
        if (const auto m = symbol.match(segment); m.hasMatch()) {
            LogSignature signature = missing(QString(), m.captured(2).toLongLong());
            signature.symbol = m.captured(1);
            take(signature);
        }
        if (!named) {
            if (const auto m = sharedObject.match(segment); m.hasMatch())
                take(missing(m.captured(1)));
        }
        if (segment.contains(QStringLiteral("无法定位程序输入点")) ||
            segment.contains(QLatin1String("could not be located in the dynamic link library"))) {
            // The dialog names the DLL after the entry point, wrapped over the next lines.
            static const QRegularExpression entryPoint = pattern(
                "(?:于动态链?接库|dynamic link library)\\s*(?:[^\\n]*?[\\\\/])?([^\\\\/\\s]+?\\.dll)");
            const QString dialog = joinedLines(line, 6);
            const auto m = entryPoint.match(dialog);
            take(missing(m.hasMatch() ? m.captured(1) : QString(), 127));
        }
        if (!named) {
            // Only the system's words, in the user's language ("找不到指定的模块" is 126).
            if (const auto m = windowsWords.match(segment); m.hasMatch()) {
                const bool module =
                    m.captured(1) == QStringLiteral("模块") || m.captured(2) == QLatin1String("module");
                take(missing(QString(), module ? 126 : 127));
            }
        }
        if (const auto m = required.match(segment); m.hasMatch()) {
            // ONNX Runtime says which cuDNN its CUDA provider needs a few lines after the failed load.
            const int major = m.captured(1).toInt();
            if (!m_found.isEmpty() && m_found.last().kind == QLatin1String("missing-library") &&
                m_found.last().cudnnMajor == 0 && line - m_lastLine <= 5)
                m_found.last().cudnnMajor = major;
            else {
                LogSignature signature = missing(QString());
                signature.cudnnMajor = major;
                add(signature, line, segment);
            }
        }
    }

    void readVersionMismatches(const QString &segment, int line)
    {
        static const QRegularExpression tensorflow = pattern(
            "Loaded runtime CuDNN library: ([\\d.]+)(?: \\(compatibility version [\\d.]+\\))? but source was "
            "compiled with:? ([\\d.]+)");
        static const QRegularExpression paddle =
            pattern("compiled with CUDNN ([\\d.]+), but CUDNN version in your machine is ([\\d.]+)");
        static const QRegularExpression jax =
            pattern("Found cuDNN version (\\d+), but JAX was built against version (\\d+)");
        static const QRegularExpression torch =
            pattern("compiled\\s+against \\((\\d+), (\\d+), (\\d+)\\) but found runtime version \\((\\d+), "
                    "(\\d+), (\\d+)\\)");
        const auto mismatch = [&](const QString &loaded, const QString &expected) {
            LogSignature signature;
            signature.kind = QStringLiteral("version-mismatch");
            signature.loadedCudnn = cudnnVersionText(loaded);
            signature.expectedCudnn = cudnnVersionText(expected);
            add(signature, line, segment);
        };
        if (const auto m = tensorflow.match(segment); m.hasMatch())
            mismatch(m.captured(1), m.captured(2));
        if (const auto m = paddle.match(segment); m.hasMatch())
            mismatch(m.captured(2), m.captured(1));
        if (const auto m = jax.match(segment); m.hasMatch())
            mismatch(m.captured(1), m.captured(2));
        if (const auto m = torch.match(segment); m.hasMatch()) {
            mismatch(QStringLiteral("%1.%2.%3").arg(m.captured(4), m.captured(5), m.captured(6)),
                     QStringLiteral("%1.%2.%3").arg(m.captured(1), m.captured(2), m.captured(3)));
        }
        if (segment.contains(QLatin1String("Outdated cuDNN installation"))) {
            // JAX: "Version JAX was built against: 8907 / Minimum supported: 9100 / Installed version: 8907".
            static const QRegularExpression minimum = pattern("Minimum supported: (\\d+)");
            static const QRegularExpression installed = pattern("Installed version: (\\d+)");
            const QString block = joinedLines(line, 5);
            const auto least = minimum.match(block);
            const auto found = installed.match(block);
            mismatch(found.hasMatch() ? found.captured(1) : QString(),
                     least.hasMatch() ? least.captured(1) : QString());
        }
    }

    void readGpuAndDriver(const QString &segment, int line)
    {
        static const QRegularExpression torchArch =
            pattern("capability (sm_\\d+) is not compatible with the current PyTorch installation");
        static const QRegularExpression supported =
            pattern("supports CUDA capabilities ((?:(?:sm|compute)_\\d+\\s*)+)");
        static const QRegularExpression tensorflowArch =
            pattern("CUDA kernel binaries compatible with compute capability (\\d+)\\.(\\d+)");
        static const QRegularExpression driverOld =
            pattern("driver on your system is too old \\(found version (\\d+)\\)");
        const auto kindOf = [](const char *kind) {
            LogSignature signature;
            signature.kind = QString::fromLatin1(kind);
            return signature;
        };
        if (const auto m = torchArch.match(segment); m.hasMatch()) {
            LogSignature signature = kindOf("gpu-arch-unsupported");
            signature.gpuArch = m.captured(1);
            // The list follows on the same line or the next.
            if (const auto list = supported.match(segment + QLatin1Char(' ') + joinedLines(line + 1, 2));
                list.hasMatch())
                signature.builtArchs = list.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            add(signature, line, segment);
        }
        if (const auto m = tensorflowArch.match(segment); m.hasMatch()) {
            LogSignature signature = kindOf("gpu-arch-unsupported");
            signature.gpuArch = QStringLiteral("sm_%1%2").arg(m.captured(1), m.captured(2));
            add(signature, line, segment);
        }
        if (segment.contains(QLatin1String("no kernel image is available")) ||
            segment.contains(QLatin1String("cudaErrorNoKernelImageForDevice")))
            add(kindOf("gpu-arch-unsupported"), line, segment);
        if (const auto m = driverOld.match(segment); m.hasMatch()) {
            LogSignature signature = kindOf("driver-too-old");
            signature.driverCuda = cudaVersionText(m.captured(1));
            add(signature, line, segment);
        }
        if (segment.contains(QLatin1String("driver version is insufficient for CUDA runtime version")))
            add(kindOf("driver-too-old"), line, segment);
        if (segment.contains(QLatin1String("Torch not compiled with CUDA enabled")) ||
            segment.contains(QLatin1String("installed CPU version PaddlePaddle")) ||
            segment.contains(QLatin1String("Cannot use CUDAPlace in CPU only version")) ||
            segment.contains(QLatin1String("DNN module was not built with CUDA backend")))
            add(kindOf("cpu-only-build"), line, segment);
    }

    void readStatuses(const QString &segment, int line)
    {
        static const QRegularExpression status = pattern("CUDNN_STATUS_[A-Z_]+");
        static const QRegularExpression sublibrary =
            pattern("((?:lib)?cudnn_\\w+?(?:64_\\d+\\.dll|\\.so(?:\\.\\d+)*))");
        QRegularExpressionMatchIterator it = status.globalMatch(segment);
        while (it.hasNext()) {
            const QString name = it.next().captured();
            if (name == QLatin1String("CUDNN_STATUS_SUCCESS"))
                continue;
            LogSignature signature;
            signature.status = name;
            if (name.endsWith(QLatin1String("VERSION_MISMATCH"))) {
                signature.kind = QStringLiteral("version-mismatch");
                if (const auto m = sublibrary.match(segment); m.hasMatch())
                    signature.sublibrary = m.captured(1);
            } else {
                signature.kind = QStringLiteral("cudnn-status");
            }
            add(signature, line, segment);
        }
    }

    // A Windows crash code where cuDNN was being loaded: STATUS_STACK_BUFFER_OVERRUN (the __fastfail
    // of a program that found the wrong cuDNN) or an access violation. Elsewhere it says nothing.
    void readCrashCodes(const QString &segment, int line)
    {
        static const QRegularExpression crash =
            pattern("(-1073740791|-1073741819|3221226505|3221225477|0[xX][cC]0000(?:409|005))");
        const auto m = crash.match(segment);
        if (!m.hasMatch())
            return;
        static const QRegularExpression cudnnNearby = pattern("(?i)cudnn|ctranslate2|faster[-_]whisper");
        bool nearCudnn = false;
        for (int i = std::max(0, line - 25); i <= line + 5 && !nearCudnn; ++i)
            nearCudnn = cudnnNearby.match(lineText(i)).hasMatch();
        if (!nearCudnn)
            return;
        const QString written = m.captured(1);
        const bool fastFail = written.endsWith(QLatin1String("409")) ||
                              written == QLatin1String("-1073740791") ||
                              written == QLatin1String("3221226505");
        LogSignature signature;
        signature.kind = QStringLiteral("crash-code");
        signature.code = fastFail ? 0xC0000409LL : 0xC0000005LL;
        add(signature, line, segment);
    }

    void readWsl(const QString &segment, int line)
    {
        static const QRegularExpression notALink =
            pattern("(\\S*libcuda\\.so[.\\d]*) is not a symbolic link");
        static const QRegularExpression libcudaMissing =
            pattern("(libcuda\\.so[.\\d]*): cannot open shared object file");
        LogSignature signature;
        signature.kind = QStringLiteral("wsl-libcuda");
        if (const auto m = notALink.match(segment); m.hasMatch()) {
            signature.library = fileNameOf(m.captured(1));
            add(signature, line, segment);
        } else if (const auto libcuda = libcudaMissing.match(segment); libcuda.hasMatch() && fromWsl()) {
            signature.library = libcuda.captured(1);
            add(signature, line, segment);
        }
    }

    const QString &m_text;
    std::vector<qsizetype> m_lineStarts;
    std::optional<bool> m_wsl;
    QList<LogSignature> m_found;
    int m_lastLine = -1;
};

} // namespace

QList<LogSignature> readLogSignatures(const QString &text)
{
    return Reader(text).read();
}

// The folders a text names (Windows and POSIX paths), as written.
QStringList foldersNamedIn(const QString &text)
{
    static const QRegularExpression windowsPath = pattern("[A-Za-z]:\\\\[^\"'<>|\\r\\n]*");
    static const QRegularExpression posixPath = pattern("(?:^|[\\s\"'(=])(/(?:[^\\s\"':/]+/)+)");
    QStringList folders;
    for (const QRegularExpressionMatch &m : windowsPath.globalMatch(text)) {
        const QString path = m.captured().trimmed();
        const qsizetype slash = path.lastIndexOf(QLatin1Char('\\'));
        folders.append(path.left(std::max<qsizetype>(slash, 3)));
    }
    for (const QRegularExpressionMatch &m : posixPath.globalMatch(text)) {
        QString folder = m.captured(1);
        folder.chop(1);
        folders.append(folder);
    }
    folders.removeDuplicates();
    return folders;
}

// The folders named near the signatures: the lines of the traceback before each and its own. A long
// log is not searched whole.
QStringList foldersNear(const QString &text, const QList<LogSignature> &signatures)
{
    constexpr int kLinesBefore = 40;
    const auto wanted = [&signatures](int line) {
        return std::any_of(signatures.cbegin(), signatures.cend(), [line](const LogSignature &signature) {
            return line >= signature.line - kLinesBefore && line <= signature.line + 2;
        });
    };
    int last = 0;
    for (const LogSignature &signature : signatures)
        last = std::max(last, signature.line + 2);
    QString near;
    qsizetype start = 0;
    for (int line = 1; line <= last && start <= text.size(); ++line) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        if (wanted(line)) {
            near += QStringView(text).mid(start, end - start);
            near += QLatin1Char('\n');
        }
        start = end + 1;
    }
    return foldersNamedIn(near);
}

} // namespace cudnnsetup
