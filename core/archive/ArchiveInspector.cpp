#include "archive/ArchiveInspector.h"

#include "archive/ArchiveHasher.h"
#include "archive/ArchiveSafety.h"
#include "archive/EntryNames.h"
#include "archive/EntryPass.h"
#include "common/Logging.h"
#include "detect/VersionParsers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>

#include <algorithm>

namespace cudnnsetup {

namespace {

QString fileKindName(ArchiveFile::Kind kind)
{
    switch (kind) {
    case ArchiveFile::Kind::Library:
        return QStringLiteral("library");
    case ArchiveFile::Kind::OtherDll:
        return QStringLiteral("other-dll");
    case ArchiveFile::Kind::Header:
        return QStringLiteral("header");
    case ArchiveFile::Kind::ImportLibrary:
        return QStringLiteral("import-library");
    case ArchiveFile::Kind::Other:
        return QStringLiteral("other");
    }
    return {};
}

ArchiveReport::Verdict verdictFor(const Findings &findings)
{
    bool unsafe = false;
    bool corrupt = false;
    bool notCudnn = false;
    bool altered = false;
    for (const Finding &finding : findings) {
        if (finding.severity != Severity::Error)
            continue;
        const QString &id = finding.id;
        if (id.startsWith(QLatin1String("archive.unsafe-")) || id == QLatin1String("archive.dll-not-x64") ||
            id == QLatin1String("archive.entry-unsupported"))
            unsafe = true;
        else if (id == QLatin1String("archive.checksum-mismatch"))
            altered = true;
        else if (id == QLatin1String("archive.not-zip") || id == QLatin1String("archive.not-cudnn") ||
                 id == QLatin1String("archive.empty") || id == QLatin1String("archive.split") ||
                 id == QLatin1String("archive.tar-unsupported"))
            notCudnn = true;
        else
            corrupt = true;
    }
    return unsafe     ? ArchiveReport::Verdict::Unsafe
           : corrupt  ? ArchiveReport::Verdict::Corrupt
           : notCudnn ? ArchiveReport::Verdict::NotCudnn
           : altered  ? ArchiveReport::Verdict::Altered
                      : ArchiveReport::Verdict::Ok;
}

Finding cancelledFinding()
{
    return Finding::error(QStringLiteral("archive.cancelled"),
                          Text(QT_TRANSLATE_NOOP("cudnnsetup", "Reading the archive was cancelled.")));
}

// cudnn64_9.dll, libcudnn.so.9: the main library's file name, or empty when there is none.
QString mainLibraryName(const ArchiveReport &report)
{
    for (const ArchiveFile &file : report.files) {
        if (file.entry == report.layout.mainLibrary)
            return file.path.section(QLatin1Char('/'), -1);
    }
    return {};
}

// NVIDIA stamps the main library with the release's full version: a second witness beside the
// header, and the build number the header lacks. The header's version, or the stamp's when there
// is no header, is the archive's.
void crossCheckVersion(ArchiveReport &report, const Version &header, const Version &stamp)
{
    report.cudnn = header;
    const QString mainName = mainLibraryName(report);
    const int libraryMajor = versions::fromCudnnLibraryName(mainName).major();
    // Other stamps (CUDA's own 6.14.x style, a re-built DLL's 1.0.0.1) say nothing of the release.
    if (!stamp.isValid() || stamp.major() != libraryMajor)
        return;
    report.libraryVersion = stamp;
    if (!header.isValid()) {
        report.cudnn = stamp;
        report.findings.append(Finding::info(
            QStringLiteral("archive.version-from-library"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive has no readable cudnn_version.h: its version, "
                                                 "%1, was read from the version stamp of %2."))
                .arg(stamp.toString(), mainName)));
        return;
    }
    if (header.truncated(3) != stamp.truncated(3)) {
        report.findings.append(Finding::error(
            QStringLiteral("archive.version-disagrees"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "cudnn_version.h says cuDNN %1, but %2 is stamped cuDNN %3: the archive "
                                   "mixes files of two releases, and cuDNN does not run that way."))
                .arg(header.toString(), mainName, stamp.toString()),
            QStringLiteral("header %1, %2 version resource %3")
                .arg(header.toString(), mainName, stamp.toString()),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the archive again from NVIDIA's cuDNN archive "
                                                 "page."))));
        return;
    }
    report.cudnn = stamp;
}

// NVIDIA's archives hold every library of their major, and the main library loads the others by
// name when a program first needs them: a set with one missing installs and then fails there.
void checkLibrarySet(ArchiveReport &report)
{
    const CudnnLayout &layout = report.layout;
    int major = report.cudnn.major();
    if (major == 0)
        major = versions::fromCudnnLibraryName(mainLibraryName(report)).major();
    const bool windows = layout.kind != CudnnLayout::Kind::Linux;
    const QStringList expected = versions::cudnnLibrarySet(windows, major);
    if (expected.isEmpty())
        return;
    QSet<QString> present;
    for (const ArchiveFile &file : report.files) {
        if (file.kind == ArchiveFile::Kind::Library &&
            file.path.section(QLatin1Char('/'), 0, -2) == layout.libraryFolder)
            present.insert(versions::cudnnLibraryStem(file.path));
    }
    QStringList missing;
    for (const QString &name : expected) {
        if (!present.contains(versions::cudnnLibraryStem(name)))
            missing.append(name);
    }
    if (missing.isEmpty())
        return;
    report.findings.append(Finding::error(
        QStringLiteral("archive.incomplete"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "The archive is incomplete: %1 of the %2 libraries of cuDNN %3 are missing, "
                               "such as %4. cuDNN loads them when a program first needs them, so the "
                               "program would fail then."))
            .arg(QString::number(missing.size()), QString::number(expected.size()), QString::number(major),
                 missing.first()),
        QStringLiteral("missing: %1").arg(missing.join(QStringLiteral(", "))),
        Text(QT_TRANSLATE_NOOP("cudnnsetup",
                               "Download the complete archive again from NVIDIA's cuDNN archive "
                               "page."))));
}

void judgeOfficial(ArchiveReport &report, const PublishedArchives &published, const QString &fileName)
{
    if (const KnownArchive *known = published.bySha256(report.sha256)) {
        report.official = ArchiveReport::Official::Match;
        report.officialFile = known->file;
        if (known->file.compare(fileName, Qt::CaseInsensitive) != 0) {
            report.findings.append(Finding::info(
                QStringLiteral("archive.renamed"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "This is NVIDIA's %1, saved under another name."))
                    .arg(known->file)));
        }
        return;
    }
    const KnownArchive *named =
        report.claimed ? published.byFile(report.claimed->canonicalFileName()) : nullptr;
    if (named && !named->sha256.isEmpty()) {
        report.official = ArchiveReport::Official::Mismatch;
        // An error no one can wave through: lab IT must never roll an altered file out.
        report.findings.append(Finding::error(
            QStringLiteral("archive.checksum-mismatch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "This file is named like NVIDIA's %1, but it is not that file: "
                                   "its SHA-256 differs from the one NVIDIA published. It was "
                                   "damaged or altered after NVIDIA published it."))
                .arg(named->file),
            QStringLiteral("published %1, this file %2").arg(named->sha256, report.sha256),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download it again from NVIDIA's cuDNN archive page."))));
        return;
    }
    report.official = ArchiveReport::Official::Unknown;
    report.findings.append(Finding::info(
        QStringLiteral("archive.checksum-unknown"),
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "NVIDIA's checksum for this file is not in the compatibility "
                                             "database (version %1), so it cannot be compared."))
            .arg(published.databaseVersion()),
        QStringLiteral("sha256 %1").arg(report.sha256)));
}

void compareNameWithContent(ArchiveReport &report)
{
    if (!report.claimed) {
        if (report.layout.isCudnn())
            report.findings.append(Finding::info(
                QStringLiteral("archive.name-unrecognised"),
                Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                       "The file name is not one NVIDIA uses; what it holds was "
                                       "read from its content."))));
        return;
    }
    const ArchiveName &claimed = *report.claimed;
    if (report.cudnn.isValid() && claimed.cudnn.truncated(3) != report.cudnn.truncated(3)) {
        report.findings.append(Finding::warning(
            QStringLiteral("archive.name-mismatch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The file name says cuDNN %1, but the archive holds cuDNN %2."))
                .arg(claimed.cudnn.toString(), report.cudnn.toString()),
            QStringLiteral("cudnn_version.h")));
    }
    if (!report.cudaVariant.isEmpty() && claimed.cudaVariant != report.cudaVariant) {
        report.findings.append(Finding::warning(
            QStringLiteral("archive.name-mismatch"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The file name says it is for CUDA %1, but the archive is for "
                                   "CUDA %2."))
                .arg(claimed.cudaVariant, report.cudaVariant),
            QStringLiteral("top folder %1").arg(report.layout.root)));
    }
    if (!report.platform.isEmpty() &&
        claimed.platform.section(QLatin1Char('-'), 0, 0) != report.platform.section(QLatin1Char('-'), 0, 0)) {
        report.findings.append(Finding::warning(
            QStringLiteral("archive.name-mismatch"),
            Text(
                QT_TRANSLATE_NOOP("cudnnsetup", "The file name says %1, but the archive holds the %2 files."))
                .arg(claimed.platform, report.platform)));
    }
}

// Each entry's safe path, with a '/' after a folder's; empty for an entry whose name is unsafe.
QStringList entryPaths(const QList<ZipEntry> &entries, const EntryNames &names)
{
    QStringList paths;
    for (int i = 0; i < entries.size(); ++i) {
        const DecodedName &name = names.at(i);
        if (!name.valid || !pathProblem(name.text).isEmpty()) {
            paths.append(QString());
            continue;
        }
        const SafePath path = safePath(name.text);
        paths.append(path.directory ? path.path + QLatin1Char('/') : path.path);
    }
    return paths;
}

// The report's files, one per entry that is neither a folder nor unsafe; for each entry, the index
// of its file (-1: none).
QList<int> listFiles(ArchiveReport &report, const QList<ZipEntry> &entries, const QStringList &paths)
{
    QList<int> fileOfEntry(entries.size(), -1);
    for (int i = 0; i < entries.size(); ++i) {
        if (paths.at(i).isEmpty() || paths.at(i).endsWith(QLatin1Char('/')))
            continue;
        ArchiveFile file;
        file.path = paths.at(i);
        file.entry = i;
        file.crc32 = entries.at(i).crc32;
        file.size = entries.at(i).uncompressedSize;
        if (entries.at(i).streamed && entries.at(i).isSymlink())
            file.linkTarget = QString::fromUtf8(entries.at(i).linkTarget);
        file.kind = report.layout.libraries.contains(i)         ? ArchiveFile::Kind::Library
                    : report.layout.windowsDlls.contains(i)     ? ArchiveFile::Kind::OtherDll
                    : report.layout.headers.contains(i)         ? ArchiveFile::Kind::Header
                    : report.layout.importLibraries.contains(i) ? ArchiveFile::Kind::ImportLibrary
                                                                : ArchiveFile::Kind::Other;
        fileOfEntry[i] = int(report.files.size());
        report.files.append(file);
    }
    return fileOfEntry;
}

// Whether the layout is a cuDNN one as NVIDIA packs it, complete and with a version.
void judgeLayout(ArchiveReport &report)
{
    if (!report.layout.isCudnn()) {
        report.findings.append(Finding::error(
            QStringLiteral("archive.not-cudnn"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "This zip holds no cuDNN: neither cudnn64_N.dll nor "
                                                 "cudnn_version.h is in it."))));
    } else if (report.layout.kind == CudnnLayout::Kind::Other) {
        report.findings.append(Finding::warning(
            QStringLiteral("archive.layout-unusual"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                   "The cuDNN files are not where NVIDIA's archives put them "
                                   "(the libraries are in \"%1\"): it was re-packed by someone."))
                .arg(report.layout.libraryFolder)));
    }
    if (report.layout.isCudnn() && !hasErrors(report.findings))
        checkLibrarySet(report);
    if (report.layout.isCudnn() && !hasErrors(report.findings) && !report.cudnn.isValid()) {
        report.findings.append(Finding::warning(
            QStringLiteral("archive.version-unknown"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive has no readable cudnn_version.h, so its true "
                                                 "version is unknown."))));
    }
}

// A file that is no zip: perhaps NVIDIA's graphical installer.
void explainNotZip(ArchiveReport &report, const QString &hostPath, const Finding &error)
{
    QFile file(hostPath);
    const QByteArray head = file.open(QIODevice::ReadOnly) ? file.read(2) : QByteArray();
    report.findings.append(error); // not a zip, or one cut short or damaged
    if (head.startsWith("MZ")) {
        report.findings.append(Finding::info(
            QStringLiteral("archive.is-program"),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "This is a Windows program, not a zip archive: perhaps "
                                                 "NVIDIA's graphical cuDNN installer.")),
            QString(),
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Download the zip archive (cudnn-windows-x86_64-…-archive"
                                                 ".zip) from NVIDIA's cuDNN archive page instead."))));
    }
}

} // namespace

QString ArchiveReport::verdictName() const
{
    switch (verdict) {
    case Verdict::Ok:
        return QStringLiteral("ok");
    case Verdict::Unsafe:
        return QStringLiteral("unsafe");
    case Verdict::Corrupt:
        return QStringLiteral("corrupt");
    case Verdict::Altered:
        return QStringLiteral("altered");
    case Verdict::NotCudnn:
        return QStringLiteral("not-cudnn");
    }
    return {};
}

QString ArchiveReport::officialName() const
{
    switch (official) {
    case Official::Match:
        return QStringLiteral("match");
    case Official::Mismatch:
        return QStringLiteral("mismatch");
    case Official::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

QJsonObject ArchiveReport::toJson() const
{
    const auto str = [](const QString &value) { return value.isEmpty() ? QJsonValue() : QJsonValue(value); };
    QJsonValue name;
    if (claimed) {
        name = QJsonObject{{QStringLiteral("platform"), claimed->platform},
                           {QStringLiteral("cudnn"), claimed->cudnn.toString()},
                           {QStringLiteral("cudaVariant"), claimed->cudaVariant}};
    }
    QJsonArray fileArray;
    for (const ArchiveFile &file : files) {
        QJsonObject object{{QStringLiteral("path"), file.path},
                           {QStringLiteral("kind"), fileKindName(file.kind)},
                           {QStringLiteral("size"), file.size}};
        if (!file.machine.isEmpty())
            object.insert(QStringLiteral("machine"), file.machine);
        fileArray.append(object);
    }
    QJsonArray findingArray;
    for (const Finding &finding : findings)
        findingArray.append(finding.toJson());
    return QJsonObject{
        {QStringLiteral("schema"), QLatin1String(kSchema)},
        {QStringLiteral("path"), path},
        {QStringLiteral("fileName"), QFileInfo(path).fileName()},
        {QStringLiteral("size"), size},
        {QStringLiteral("sha256"), str(sha256)},
        {QStringLiteral("official"), officialName()},
        {QStringLiteral("officialFile"), str(officialFile)},
        {QStringLiteral("verdict"), verdictName()},
        {QStringLiteral("backend"), str(backend)},
        {QStringLiteral("name"), name},
        {QStringLiteral("content"),
         QJsonObject{{QStringLiteral("cudnn"), cudnn.isValid() ? QJsonValue(cudnn.toString()) : QJsonValue()},
                     {QStringLiteral("cudaVariant"), str(cudaVariant)},
                     {QStringLiteral("platform"), str(platform)},
                     {QStringLiteral("libraryVersion"),
                      libraryVersion.isValid() ? QJsonValue(libraryVersion.toString()) : QJsonValue()},
                     {QStringLiteral("layout"), layout.kindName()},
                     {QStringLiteral("root"), str(layout.root)},
                     {QStringLiteral("libraryFolder"), str(layout.libraryFolder)},
                     {QStringLiteral("includeFolder"), str(layout.includeFolder)},
                     {QStringLiteral("importLibraryFolder"), str(layout.importLibraryFolder)},
                     {QStringLiteral("nameEncoding"), str(nameEncoding)},
                     {QStringLiteral("entries"), entryCount},
                     {QStringLiteral("unpackedSize"), unpackedSize}}},
        {QStringLiteral("files"), fileArray},
        {QStringLiteral("findings"), findingArray}};
}

Expected<ArchiveReport> inspectArchive(const QString &hostPath, const PublishedArchives &published,
                                       const InspectOptions &options)
{
    const QFileInfo info(hostPath);
    if (!info.isFile() || !QFile(hostPath).open(QIODevice::ReadOnly)) {
        return Finding::error(QStringLiteral("archive.unreadable"),
                              Text(QT_TRANSLATE_NOOP("cudnnsetup", "The archive %1 cannot be read."))
                                  .arg(QDir::toNativeSeparators(hostPath)),
                              info.exists() ? QStringLiteral("not a readable file")
                                            : QStringLiteral("missing"));
    }
    ArchiveReport report;
    report.path = hostPath;
    report.size = info.size();
    report.claimed = ArchiveName::parse(info.fileName());
    const ZipSource::Backend backend = options.backend.value_or(ZipSource::backends().first());
    report.backend = ZipSource::backendName(backend);

    ArchiveHasher hasher(hostPath);
    auto opened = ZipSource::open(hostPath, backend, hasher.observer());
    if (!opened && opened.error().id == QLatin1String("archive.unreadable"))
        return opened.error();
    if (opened) {
        ZipSource &source = **opened;
        report.backend = ZipSource::backendName(source.backend());
        const QList<ZipEntry> &entries = source.entries();
        const EntryNames names(entries);
        report.nameEncoding = names.unflaggedEncodingName();
        report.entryCount = int(entries.size());
        report.unpackedSize = declaredUnpackedSize(entries);
        report.findings += archiveSafetyProblems(entries, names, report.size,
                                                 ArchiveLimits::forLargestArchive(published.largestSize()));

        const QStringList paths = entryPaths(entries, names);
        report.layout = CudnnLayout::recognise(paths);
        const QList<int> fileOfEntry = listFiles(report, entries, paths);

        // Not a byte is inflated from an archive that breaks the rules: that is what a bomb wants.
        Version headerVersion;
        Version libraryVersion;
        if (!hasErrors(report.findings)) {
            EntryPass pass(source, report, fileOfEntry, options);
            if (!pass.run())
                return cancelledFinding();
            headerVersion = pass.headerVersion();
            libraryVersion = pass.libraryVersion();
        }
        const auto rootName = ArchiveName::parse(report.layout.root + QStringLiteral(".zip"));
        report.cudaVariant = rootName ? rootName->cudaVariant : QString();
        if (report.layout.kind == CudnnLayout::Kind::Linux)
            report.platform = rootName ? rootName->platform : QStringLiteral("linux-x86_64");
        else if (!report.layout.windowsDlls.isEmpty())
            report.platform = QStringLiteral("windows-x86_64");
        crossCheckVersion(report, headerVersion, libraryVersion);

        judgeLayout(report);
    } else {
        explainNotZip(report, hostPath, opened.error());
    }

    if (opened) {
        // The build number is not in the header: the library's stamp gave it, else NVIDIA's record
        // will (judgeChecksum), else the name does, when they agree.
        if (report.claimed && report.cudnn.isValid() && report.cudnn.size() <= 3 &&
            report.claimed->cudnn.truncated(3) == report.cudnn.truncated(3))
            report.cudnn = report.claimed->cudnn;
        compareNameWithContent(report);
    }
    report.verdict = verdictFor(report.findings);
    if (!options.hashArchive)
        return report;
    // A quick look leaves most of the file to this read, so it is the progress then.
    const auto digest = hasher.finish(
        options.cancelled, options.verifyData ? std::function<void(qint64, qint64)>() : options.progress);
    if (!digest)
        return digest.error();
    qCInfo(lcCore) << "archive" << hostPath << "sha256" << *digest << "hashed while reading"
                   << hasher.hashedWhileReading() << "of" << report.size;
    if (opened)
        judgeChecksum(report, *digest, published);
    else
        report.sha256 = *digest;
    return report;
}

void judgeChecksum(ArchiveReport &report, const QString &sha256, const PublishedArchives &published)
{
    report.sha256 = sha256;
    judgeOfficial(report, published, QFileInfo(report.path).fileName());
    report.verdict = verdictFor(report.findings);
    if (const KnownArchive *known = published.bySha256(report.sha256);
        known && known->cudnn.truncated(3) == report.cudnn.truncated(3)) {
        report.cudnn = known->cudnn;
        if (!known->cuda.isEmpty())
            report.cudaVariant = known->cuda;
    }
}

} // namespace cudnnsetup
