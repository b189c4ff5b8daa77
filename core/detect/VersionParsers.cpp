#include "detect/VersionParsers.h"

#include <algorithm>

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace cudnnsetup {
namespace versions {

namespace {

// File names may come with their folder; only the name counts.
QString baseName(const QString &fileName)
{
    const qsizetype slash =
        std::max(fileName.lastIndexOf(QLatin1Char('/')), fileName.lastIndexOf(QLatin1Char('\\')));
    return fileName.mid(slash + 1).trimmed();
}

} // namespace

Version fromNvccOutput(const QString &text)
{
    // "Cuda compilation tools, release 13.0, V13.0.88"; the build stamp lines around it vary by OS
    // and packaging (time zones, no "Build" line in 10.x) and are not needed.
    static const QRegularExpression pattern(
        QStringLiteral(
            "Cuda compilation tools,\\s*release\\s+(\\d+\\.\\d+)\\s*(?:,\\s*V(\\d+(?:\\.\\d+){1,3}))?"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return {};
    const Version full = Version::parse(match.captured(2));
    return full.isValid() ? full : Version::parse(match.captured(1));
}

Version fromCudaVersionJson(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return {};
    const QJsonValue cuda = document.object().value(QStringLiteral("cuda"));
    if (!cuda.isObject())
        return {};
    return Version::parse(cuda.toObject().value(QStringLiteral("version")).toString());
}

Version fromCudaVersionTxt(const QByteArray &text)
{
    static const QRegularExpression pattern(QStringLiteral("CUDA Version\\s+(\\d+(?:\\.\\d+){1,3})\\b"));
    const QRegularExpressionMatch match = pattern.match(QString::fromUtf8(text));
    return match.hasMatch() ? Version::parse(match.captured(1)) : Version();
}

Version fromCudnnHeader(const QByteArray &header)
{
    // Only the three parts count: CUDNN_VERSION is a formula that changed between 8.x and 9.x.
    static const QRegularExpression pattern(
        QStringLiteral("^[ \\t]*#[ \\t]*define[ \\t]+CUDNN_(MAJOR|MINOR|PATCHLEVEL)[ \\t]+(\\d{1,6})\\b"),
        QRegularExpression::MultilineOption);
    int parts[3] = {-1, -1, -1};
    QRegularExpressionMatchIterator it = pattern.globalMatch(QString::fromUtf8(header));
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString name = match.captured(1);
        const int slot = name == QLatin1String("MAJOR") ? 0 : name == QLatin1String("MINOR") ? 1 : 2;
        if (parts[slot] < 0) // the first definition wins
            parts[slot] = match.captured(2).toInt();
    }
    if (parts[0] < 0 || parts[1] < 0 || parts[2] < 0)
        return {};
    return Version::fromParts({parts[0], parts[1], parts[2]});
}

Version fromCudnnVersionNumber(qint64 number)
{
    // 1000..9999: MAJOR*1000 + MINOR*100 + PATCH (cuDNN <= 8); >= 90000: MAJOR*10000 + ... (9 and
    // newer). The range between belongs to neither and is not guessed at.
    if (number >= 1000 && number < 10000)
        return Version::fromParts({int(number / 1000), int(number % 1000 / 100), int(number % 100)});
    if (number >= 90000 && number < 10000000)
        return Version::fromParts({int(number / 10000), int(number % 10000 / 100), int(number % 100)});
    return {};
}

Version copyVersion(const Version &loaded, const Version &known)
{
    if (loaded.isValid() && known.size() > loaded.size() && known.truncated(loaded.size()) == loaded)
        return known;
    return loaded;
}

Version fromCudnnLibraryName(const QString &fileName)
{
    static const QRegularExpression linuxName(
        QStringLiteral("^libcudnn(?:_[a-z_]+)?\\.so\\.(\\d+(?:\\.\\d+){0,3})$"));
    static const QRegularExpression windowsName(QStringLiteral("^cudnn(?:_[a-z_]+)?64_(\\d+)\\.dll$"),
                                                QRegularExpression::CaseInsensitiveOption);
    const QString name = baseName(fileName);
    QRegularExpressionMatch match = linuxName.match(name);
    if (!match.hasMatch())
        match = windowsName.match(name);
    return match.hasMatch() ? Version::parse(match.captured(1)) : Version();
}

QString sonameOf(const QString &fileName)
{
    static const QRegularExpression versioned(QStringLiteral("^(.+\\.so\\.\\d+)(?:\\.\\d+)+$"));
    const QRegularExpressionMatch match = versioned.match(fileName);
    return match.hasMatch() ? match.captured(1) : fileName;
}

QString cudnnLibraryStem(const QString &fileName)
{
    static const QRegularExpression linuxName(
        QStringLiteral("^lib(cudnn(?:_[a-z_]+)?)\\.so(?:\\.\\d+){0,4}$"));
    static const QRegularExpression windowsName(QStringLiteral("^(cudnn(?:_[a-z_]+)?)64_\\d+\\.dll$"),
                                                QRegularExpression::CaseInsensitiveOption);
    const QString name = baseName(fileName);
    QRegularExpressionMatch match = linuxName.match(name);
    if (!match.hasMatch())
        match = windowsName.match(name);
    return match.hasMatch() ? match.captured(1).toLower() : QString();
}

bool isCudnnLibraryName(const QString &fileName)
{
    return !cudnnLibraryStem(fileName).isEmpty() &&
           !baseName(fileName).contains(QLatin1String("static"), Qt::CaseInsensitive);
}

bool isMainCudnnLibraryName(const QString &fileName)
{
    return cudnnLibraryStem(fileName) == QLatin1String("cudnn");
}

QStringList cudnnLibrarySet(bool windows, int major)
{
    // NVIDIA's archives: cuDNN 9 from 9.0.0 to today, cuDNN 8 from 8.0.0 to 8.9.7 (nvidia-compat.md 4b).
    QStringList stems;
    if (major == 9)
        stems = {QStringLiteral("cudnn"),
                 QStringLiteral("cudnn_graph"),
                 QStringLiteral("cudnn_ops"),
                 QStringLiteral("cudnn_cnn"),
                 QStringLiteral("cudnn_adv"),
                 QStringLiteral("cudnn_engines_precompiled"),
                 QStringLiteral("cudnn_engines_runtime_compiled"),
                 QStringLiteral("cudnn_heuristic")};
    else if (major == 8)
        stems = {QStringLiteral("cudnn"),           QStringLiteral("cudnn_ops_infer"),
                 QStringLiteral("cudnn_ops_train"), QStringLiteral("cudnn_cnn_infer"),
                 QStringLiteral("cudnn_cnn_train"), QStringLiteral("cudnn_adv_infer"),
                 QStringLiteral("cudnn_adv_train")};
    else if (major > 0 && major < 8)
        stems = {QStringLiteral("cudnn")};
    QStringList names;
    for (const QString &stem : stems)
        names.append(windows ? stem + QStringLiteral("64_%1.dll").arg(major)
                             : QStringLiteral("lib%1.so.%2").arg(stem).arg(major));
    return names;
}

QStringList missingCudnnLibraries(const QStringList &present, bool windows, int major)
{
    QStringList missing;
    for (const QString &name : cudnnLibrarySet(windows, major)) {
        if (!present.contains(name, windows ? Qt::CaseInsensitive : Qt::CaseSensitive))
            missing.append(name);
    }
    return missing;
}

QStringList cudnnLibrariesInLoadOrder(const QStringList &names)
{
    // The stems of every set, in their order (cuDNN 9's and 8's sets share only the main one).
    QStringList stems;
    for (const int major : {9, 8}) {
        for (const QString &name : cudnnLibrarySet(true, major)) {
            if (!stems.contains(cudnnLibraryStem(name)))
                stems.append(cudnnLibraryStem(name));
        }
    }
    const auto rank = [&stems](const QString &name) {
        const qsizetype at = stems.indexOf(cudnnLibraryStem(name));
        return at < 0 ? stems.size() : at;
    };
    QStringList ordered = names;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [&rank](const QString &a, const QString &b) { return rank(a) < rank(b); });
    return ordered;
}

Version fromCudartName(const QString &fileName)
{
    static const QRegularExpression linuxName(QStringLiteral("^libcudart\\.so\\.(\\d+(?:\\.\\d+){0,3})$"));
    static const QRegularExpression windowsName(QStringLiteral("^cudart(?:64|32)_(\\d{1,3})\\.dll$"),
                                                QRegularExpression::CaseInsensitiveOption);
    const QString name = baseName(fileName);
    const QRegularExpressionMatch linuxMatch = linuxName.match(name);
    if (linuxMatch.hasMatch())
        return Version::parse(linuxMatch.captured(1));
    const QRegularExpressionMatch windowsMatch = windowsName.match(name);
    if (!windowsMatch.hasMatch())
        return {};
    // The DLL carries MAJOR and MINOR run together up to 11.x ("cudart64_110.dll", "cudart64_92.dll",
    // "cudart64_80.dll") and only MAJOR from 12 ("cudart64_12.dll").
    const QString digits = windowsMatch.captured(1);
    const int value = digits.toInt();
    if (digits.size() == 3)
        return Version::fromParts({value / 10, value % 10});
    if (digits.size() == 2 && value >= 60)
        return Version::fromParts({value / 10, value % 10});
    return Version::fromParts({value});
}

Version fromCublasName(const QString &fileName)
{
    static const QRegularExpression pattern(
        QStringLiteral(
            "^(?:libcublas(?:Lt)?\\.so\\.(\\d+(?:\\.\\d+){0,3})|cublas(?:Lt)?64_(\\d{1,3})\\.dll)$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(baseName(fileName));
    if (!match.hasMatch())
        return {};
    return Version::parse(match.captured(1).isEmpty() ? match.captured(2) : match.captured(1));
}

std::optional<int> cudaMajorFromCudnnWheel(const QString &distInfoName)
{
    static const QRegularExpression pattern(QStringLiteral("^nvidia[-_]cudnn[-_]cu(\\d{1,3})(?:[-.]|$)"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(baseName(distInfoName));
    if (!match.hasMatch())
        return std::nullopt;
    return match.captured(1).toInt();
}

Version fromDistInfoName(const QString &distInfoName)
{
    // "<name>-<version>.dist-info"; the name has no "-" once normalised, the version's release
    // segment is a dotted number ("2.11.0+cu130" and "9.1.0.70.post1" keep only that).
    static const QRegularExpression pattern(
        QStringLiteral("^.+-(\\d+(?:\\.\\d+){0,4})(?:[+.a-z][A-Za-z0-9.+_]*)?\\.dist-info$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(baseName(distInfoName));
    return match.hasMatch() ? Version::parse(match.captured(1)) : Version();
}

Version nvidiaDriverFromWindowsFileVersion(const QString &fileVersion)
{
    // "32.0.15.8129": the last digit of the third part and the fourth part, zero-padded to four
    // digits, are NVIDIA's five-digit version "58129" -> 581.29.
    static const QRegularExpression pattern(
        QStringLiteral("^(\\d{1,5})[.,](\\d{1,5})[.,](\\d{1,5})[.,](\\d{1,4})$"));
    const QRegularExpressionMatch match = pattern.match(fileVersion.trimmed());
    if (!match.hasMatch())
        return {};
    const int build = match.captured(3).toInt();
    const int revision = match.captured(4).toInt();
    if (build < 10) // every NVIDIA display driver since R2xx has 1x here
        return {};
    const int number = (build % 10) * 10000 + revision;
    const int major = number / 100;
    const int minor = number % 100;
    if (major < 100)
        return {};
    return Version::parse(QStringLiteral("%1.%2").arg(major).arg(minor, 2, 10, QLatin1Char('0')));
}

} // namespace versions
} // namespace cudnnsetup
