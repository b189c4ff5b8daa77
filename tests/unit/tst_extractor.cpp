#include "Suite.h"
#include "archive/Extractor.h"

#include <algorithm>
#include <atomic>
#include <iterator>

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSet>
#include <QTest>
#include <QThread>

#include "CudnnArchiveLists.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "ZipWriter.h"
#include "archive/ArchiveInspector.h"
#include "compat/KnowledgeBase.h"

using namespace cudnnsetup;
using Backend = ZipSource::Backend;

namespace {

const QString kVersion = QStringLiteral("8.9.7.29");
const QString kCuda = QStringLiteral("12");
const QString kRoot = archives::windowsRoot(kVersion, kCuda);
const QString kArchiveName = kRoot + QStringLiteral(".zip");
// Larger than the extractor's 4 MiB buffer, and not a multiple of anything.
constexpr qsizetype kBigDllSize = (4 << 20) + 100003;

QString inRoot(const char *path)
{
    return kRoot + QLatin1Char('/') + QLatin1String(path);
}

const QString kBigDll = inRoot("bin/cudnn_cnn_infer64_8.dll");      // deflated, > the buffer
const QString kStoredDll = inRoot("bin/cudnn_ops_infer64_8.dll");   // stored
const QString kStoredHeader = inRoot("include/cudnn.h");            // stored
const QString kDeflatedHeader = inRoot("include/cudnn_backend.h");  // deflated
const QString kEmptyStored = inRoot("lib/x64/cudnn_adv_train.lib"); // empty, stored
const QString kEmptyDeflated = inRoot("lib/x64/cudnn_adv_infer.lib");
const QString kImportLibrary = inRoot("lib/x64/cudnn64_8.lib");
const QString kLicense = inRoot("LICENSE");

// Text that compresses as real files do; the same for the same seed.
QByteArray filler(qsizetype size, quint32 seed)
{
    static const char *const words[] = {"cudnn", "Tensor", "kernel", "conv2d", "fwd",  "bwd",
                                        "algo",  "0x7f",   "\n",     " ",      "\t\t", ";"};
    QRandomGenerator random(seed);
    QByteArray data;
    data.reserve(size + 8);
    while (data.size() < size)
        data.append(words[random.bounded(int(std::size(words)))]);
    data.truncate(size);
    return data;
}

QString sha256Of(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

ZipWriter::Entry &entryNamed(QList<ZipWriter::Entry> &entries, const QString &path)
{
    for (ZipWriter::Entry &entry : entries) {
        if (entry.name == path.toUtf8())
            return entry;
    }
    qFatal("no entry %s", qPrintable(path));
}

// NVIDIA's Windows file list of 8.9.7.29 with contents that pass inspection, folder entries first
// as zip tools write them; some entries stored, some deflated, one larger than the extractor's
// buffer, two empty.
QList<ZipWriter::Entry> cudnnEntries()
{
    QList<ZipWriter::Entry> entries;
    for (const char *folder : {"", "bin/", "include/", "lib/", "lib/x64/"})
        entries.append(
            ZipWriter::Entry::directory((kRoot + QLatin1Char('/') + QLatin1String(folder)).toUtf8()));
    entries += archives::entriesOf(archives::windowsFiles(kVersion, kCuda), kVersion);

    const QByteArray dll = peimage::x64Dll();
    entryNamed(entries, kBigDll).data = dll + filler(kBigDllSize - dll.size(), 1);
    ZipWriter::Entry &storedDll = entryNamed(entries, kStoredDll);
    // Over 1 MiB: a quick inspection that reads a DLL of 64 KiB to 1 MiB whole in one read refuses
    // it as damaged (it asks for the CRC before the stream has ended), so the sizes avoid that.
    storedDll.data = dll + filler(1500000, 2);
    storedDll.method = 0;
    ZipWriter::Entry &storedHeader = entryNamed(entries, kStoredHeader);
    storedHeader.data = filler(5000, 3);
    storedHeader.method = 0;
    entryNamed(entries, kDeflatedHeader).data = filler(70000, 4);
    entryNamed(entries, kImportLibrary).data = filler(150000, 5);
    entryNamed(entries, kEmptyStored).data.clear();
    entryNamed(entries, kEmptyStored).method = 0;
    entryNamed(entries, kEmptyDeflated).data.clear();
    entryNamed(entries, kLicense).data = filler(20000, 6);
    return entries;
}

// The contents of the files (not the folders) by path.
QHash<QString, QByteArray> contentsOf(const QList<ZipWriter::Entry> &entries)
{
    QHash<QString, QByteArray> contents;
    for (const ZipWriter::Entry &entry : entries) {
        if (!entry.name.endsWith('/'))
            contents.insert(QString::fromUtf8(entry.name), entry.data);
    }
    return contents;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

// Every file and folder under `folder`, relative and '/'-separated, sorted.
QStringList everythingUnder(const QString &folder)
{
    QStringList paths;
    QDirIterator it(folder, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        paths.append(QDir(folder).relativeFilePath(it.next()));
    paths.sort();
    return paths;
}

// `files` and every folder above them, as everythingUnder() lists them.
QString describe(const Finding &finding)
{
    return QStringLiteral("%1: %2 (%3)").arg(finding.id, finding.message.toEnglish(), finding.details);
}

// Inspects as the product does before it extracts (a quick look, the CRCs left to the extraction,
// the test-made archive taken for NVIDIA's file) and insists on an archive that may be installed.
void inspect(const QString &archive, Backend backend, QList<ArchiveFile> &files)
{
    InspectOptions options;
    options.backend = backend;
    options.verifyData = false;
    const Expected<ArchiveReport> report =
        inspectArchive(archive, archives::databaseKnowing({archive}).publishedArchives(), options);
    QVERIFY2(report.ok(), qPrintable(describe(report.error())));
    QStringList findings;
    for (const Finding &finding : report->findings)
        findings.append(describe(finding));
    QVERIFY2(report->verdict == ArchiveReport::Verdict::Ok, qPrintable(findings.join(QLatin1Char('\n'))));
    files = report->files;
}

struct ProgressLog
{
    QMutex mutex;
    QList<ExtractionProgress> calls;
    std::atomic<int> concurrent{0};
    std::atomic<bool> overlapped{false};

    void record(const ExtractionProgress &progress)
    {
        if (concurrent.fetch_add(1) != 0)
            overlapped = true;
        {
            QMutexLocker lock(&mutex);
            calls.append(progress);
        }
        concurrent.fetch_sub(1);
    }
};

} // namespace

class TestExtractor : public QObject
{
    Q_OBJECT

private:
    QList<ZipWriter::Entry> m_entries;
    QByteArray m_zip;
    QHash<QString, QByteArray> m_contents;

    static ExtractOptions currentOptions()
    {
        QFETCH_GLOBAL(Backend, backend);
        QFETCH_GLOBAL(int, workers);
        ExtractOptions options;
        options.backend = backend;
        options.workers = workers;
        return options;
    }

    // An archive of `bytes` in the sandbox, inspected; its files in `files`.
    static QString saveAndInspect(const Sandbox &sandbox, const QByteArray &bytes, QList<ArchiveFile> &files)
    {
        QFETCH_GLOBAL(Backend, backend);
        const QString path = sandbox.root() + QLatin1Char('/') + kArchiveName;
        if (!writeFile(path, bytes)) {
            QTest::qFail("cannot write the archive", __FILE__, __LINE__);
            return QString();
        }
        inspect(path, backend, files);
        return path;
    }

    // Every file of the archive in `staging` with its bytes, and nothing else; the result as
    // `given` lists them, with the SHA-256 of what is on disk.
    static void verifyExtraction(const Expected<Extraction> &extraction, const QList<ArchiveFile> &given,
                                 const QString &staging, const QHash<QString, QByteArray> &contents)
    {
        QVERIFY2(extraction.ok(), qPrintable(describe(extraction.error())));
        QCOMPARE(extraction->stagingFolder, staging);
        QCOMPARE(extraction->files.size(), given.size());
        QCOMPARE(given.size(), contents.size());
        qint64 bytes = 0;
        for (int i = 0; i < given.size(); ++i) {
            const ExtractedFile &file = extraction->files.at(i);
            QCOMPARE(file.path, stagedPath(i, given.at(i).path));
            QVERIFY2(contents.contains(given.at(i).path), qPrintable(given.at(i).path));
            const QByteArray expected = contents.value(given.at(i).path);
            const QByteArray written = readFile(staging + QLatin1Char('/') + file.path);
            QVERIFY2(written == expected, qPrintable(QStringLiteral("%1: %2 bytes written, %3 expected")
                                                         .arg(file.path)
                                                         .arg(written.size())
                                                         .arg(expected.size())));
            QCOMPARE(file.size, qint64(expected.size()));
            QCOMPARE(file.size, given.at(i).size);
            QCOMPARE(file.sha256, sha256Of(expected));
            bytes += expected.size();
        }
        QCOMPARE(extraction->bytesWritten, bytes);
        // Nothing else, and no folders: staged flat.
        QStringList staged;
        for (const ExtractedFile &file : extraction->files)
            staged.append(file.path);
        staged.sort();
        QCOMPARE(everythingUnder(staging), staged);
    }

private Q_SLOTS:
    // Every case runs for every backend compiled into this build, with one worker and with two.
    void initTestCase_data()
    {
        QTest::addColumn<Backend>("backend");
        QTest::addColumn<int>("workers");
        for (const Backend backend : ZipSource::backends()) {
            for (const int workers : {1, 2}) {
                QTest::addRow("%s, %d worker%s", qPrintable(ZipSource::backendName(backend)), workers,
                              workers == 1 ? "" : "s")
                    << backend << workers;
            }
        }
    }

    void initTestCase()
    {
        QVERIFY(!ZipSource::backends().isEmpty());
        m_entries = cudnnEntries();
        m_zip = ZipWriter(m_entries).finish();
        m_contents = contentsOf(m_entries);
        QCOMPARE(m_contents.size(), archives::windowsFiles(kVersion, kCuda).size());
    }

    void extractsEveryFile()
    {
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(files.size(), m_contents.size());
        // The extractor works largest first: a list in another order shows the result keeps the
        // order given.
        std::reverse(files.begin(), files.end());
        const QString staging = sandbox.root() + QStringLiteral("/staging");

        // With the archive's own SHA-256, taken in the same pass.
        ExtractOptions options = currentOptions();
        options.hashArchive = true;
        const Expected<Extraction> extraction = extractArchive(archive, files, staging, options);
        verifyExtraction(extraction, files, staging, m_contents);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(extraction->archiveSha256, sha256Of(m_zip));
        QCOMPARE(files.first().path, kLicense);
        // Staged flat and short, whatever folders the archive has.
        const auto stagedFile = [&](const QString &path) {
            for (int i = 0; i < files.size(); ++i) {
                if (files.at(i).path == path)
                    return staging + QLatin1Char('/') + stagedPath(i, files.at(i).path);
            }
            return QString();
        };
        QCOMPARE(stagedPath(0, files.first().path),
                 QStringLiteral("0-") + kLicense.section(QLatin1Char('/'), -1));
        QVERIFY(QFileInfo(stagedFile(kBigDll)).size() > (4 << 20));
        QCOMPARE(QFileInfo(stagedFile(kEmptyStored)).size(), 0);
        QVERIFY(QFileInfo(stagedFile(kEmptyDeflated)).isFile());
        QCOMPARE(QDir(staging).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList());
    }

    // Zip64 size and offset fields, as archives of DLLs over 4 GiB have them.
    void extractsZip64Entries()
    {
        QList<ZipWriter::Entry> entries = m_entries;
        entryNamed(entries, kBigDll).zip64 = true;
        entryNamed(entries, kStoredDll).zip64 = true;
        entryNamed(entries, kLicense).zip64 = true;
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, ZipWriter(entries).finish(), files);
        if (QTest::currentTestFailed())
            return;
        const QString staging = sandbox.root() + QStringLiteral("/staging");
        verifyExtraction(extractArchive(archive, files, staging, currentOptions()), files, staging,
                         contentsOf(entries));
    }

    void refusesWrongCrc_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("deflated header") << kDeflatedHeader;
        QTest::newRow("stored header") << kStoredHeader;
        QTest::newRow("import library") << kImportLibrary;
        // The quick look reads only a DLL's first 64 KiB: its CRC is the extraction's to check.
        QTest::newRow("DLL larger than the buffer") << kBigDll;
        QTest::newRow("empty file") << kEmptyStored;
    }

    void refusesWrongCrc()
    {
        QFETCH(QString, path);
        QList<ZipWriter::Entry> entries = m_entries;
        ZipWriter::Entry &damaged = entryNamed(entries, path);
        damaged.crc32 = 0x5eed5eedu;
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, ZipWriter(entries).finish(), files);
        if (QTest::currentTestFailed())
            return;
        // Folders above the staging folder that the extraction makes go again, too.
        const QString staging = sandbox.root() + QStringLiteral("/work/staging");

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, currentOptions());
        QVERIFY(!extraction.ok());
        QCOMPARE(extraction.error().id, QStringLiteral("archive.crc-mismatch"));
        QCOMPARE(extraction.error().severity, Severity::Error);
        QVERIFY2(extraction.error().message.toEnglish().contains(path),
                 qPrintable(extraction.error().message.toEnglish()));
        QVERIFY(!QFileInfo::exists(staging));
        QCOMPARE(everythingUnder(sandbox.root()), QStringList{kArchiveName});
    }

    void refusesWrongSize_data()
    {
        QTest::addColumn<qint64>("sizeError");
        QTest::newRow("data shorter than declared") << qint64(1);
        QTest::newRow("data longer than declared") << qint64(-1);
    }

    void refusesWrongSize()
    {
        QFETCH(qint64, sizeError);
        QList<ZipWriter::Entry> entries = m_entries;
        ZipWriter::Entry &damaged = entryNamed(entries, kImportLibrary);
        damaged.declaredSize = quint64(damaged.data.size() + sizeError);
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, ZipWriter(entries).finish(), files);
        if (QTest::currentTestFailed())
            return;
        const QString staging = sandbox.root() + QStringLiteral("/staging");

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, currentOptions());
        QVERIFY(!extraction.ok());
        QCOMPARE(extraction.error().id, QStringLiteral("archive.corrupt"));
        QVERIFY2(extraction.error().message.toEnglish().contains(kImportLibrary),
                 qPrintable(extraction.error().message.toEnglish()));
        QVERIFY(!QFileInfo::exists(staging));
        QCOMPARE(everythingUnder(sandbox.root()), QStringList{kArchiveName});
    }

    void cancelsFromProgress()
    {
        QFETCH_GLOBAL(int, workers);
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        const QString staging = sandbox.root() + QStringLiteral("/work/staging");

        std::atomic<bool> cancel{false};
        QList<ExtractionProgress> calls; // the progress calls come one at a time
        int callsBeforeCancel = -1;
        ExtractOptions options = currentOptions();
        options.cancelled = [&] { return cancel.load(); };
        options.progress = [&](const ExtractionProgress &progress) {
            calls.append(progress);
            if (!cancel.load() && progress.bytesDone > 0) {
                callsBeforeCancel = int(calls.size());
                cancel = true;
            }
        };

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, options);
        QVERIFY(!extraction.ok());
        QCOMPARE(extraction.error().id, QStringLiteral("archive.cancelled"));
        QVERIFY(!QFileInfo::exists(staging));
        QCOMPARE(everythingUnder(sandbox.root()), QStringList{kArchiveName});
        // It was cancelled midway, and stopped there: a worker finishes at most the file it has
        // done when it sees the cancel, and starts no other.
        QVERIFY(callsBeforeCancel > 0);
        const ExtractionProgress &atCancel = calls.at(callsBeforeCancel - 1);
        QVERIFY2(atCancel.filesDone < files.size(), qPrintable(QString::number(atCancel.filesDone)));
        QVERIFY2(
            calls.size() - callsBeforeCancel <= workers,
            qPrintable(
                QStringLiteral("%1 progress calls after the cancel").arg(calls.size() - callsBeforeCancel)));
        QVERIFY(calls.last().filesDone < files.size());
    }

    // A cancel the callback says only once (a flag reset when read) still stops the extraction.
    void cancelIsNotForgotten()
    {
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        const QString staging = sandbox.root() + QStringLiteral("/staging");
        std::atomic<bool> cancel{false};
        bool cancelled = false;
        ExtractOptions options = currentOptions();
        options.cancelled = [&] { return cancel.exchange(false); };
        options.progress = [&](const ExtractionProgress &progress) {
            if (!cancelled && progress.filesDone > 0) {
                cancelled = true;
                cancel = true;
            }
        };

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, options);
        QVERIFY2(!extraction.ok(), "an extraction that skipped files after a cancel ended as done");
        QCOMPARE(extraction.error().id, QStringLiteral("archive.cancelled"));
        QVERIFY(!QFileInfo::exists(staging));
    }

    void refusesChangedArchive_data()
    {
        QTest::addColumn<QByteArray>("replacement");
        QTest::addColumn<QString>("id");
        QList<ZipWriter::Entry> entries = cudnnEntries();
        // The same names and sizes: only the CRC in the central directory tells.
        entryNamed(entries, kStoredDll).data[5000] ^= 1;
        QTest::newRow("one DLL differs") << ZipWriter(entries).finish() << QStringLiteral("archive.changed");

        entries = cudnnEntries();
        entryNamed(entries, kLicense).data.append("more");
        QTest::newRow("a file grew") << ZipWriter(entries).finish() << QStringLiteral("archive.changed");

        entries = cudnnEntries();
        entries.removeLast();
        QTest::newRow("an entry is gone") << ZipWriter(entries).finish() << QStringLiteral("archive.changed");

        QTest::newRow("not a zip any more") << filler(100000, 9) << QStringLiteral("archive.changed");
        const QByteArray zip = ZipWriter(cudnnEntries()).finish();
        QTest::newRow("cut short") << zip.left(zip.size() / 2) << QStringLiteral("archive.changed");
        QTest::newRow("deleted") << QByteArray() << QStringLiteral("archive.unreadable");
    }

    void refusesChangedArchive()
    {
        QFETCH(QByteArray, replacement);
        QFETCH(QString, id);
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        if (replacement.isEmpty())
            QVERIFY(QFile::remove(archive));
        else
            QVERIFY(writeFile(archive, replacement));
        const QString staging = sandbox.root() + QStringLiteral("/work/staging");

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, currentOptions());
        QVERIFY(!extraction.ok());
        QVERIFY2(extraction.error().id == id, qPrintable(describe(extraction.error())));
        QVERIFY(!QFileInfo::exists(staging));
        QCOMPARE(everythingUnder(sandbox.root()),
                 replacement.isEmpty() ? QStringList() : QStringList{kArchiveName});
    }

    void keepsExistingStaging_data()
    {
        QTest::addColumn<bool>("folder");
        QTest::addColumn<QStringList>("contents"); // files in the folder, each holding its own name
        QTest::newRow("folder with files")
            << true << QStringList{QStringLiteral("mine.txt"), kLicense, kBigDll, kEmptyStored};
        QTest::newRow("empty folder") << true << QStringList();
        QTest::newRow("a file") << false << QStringList();
    }

    void keepsExistingStaging()
    {
        QFETCH(bool, folder);
        QFETCH(QStringList, contents);
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        const QString staging = sandbox.root() + QStringLiteral("/staging");
        if (folder)
            QVERIFY(QDir().mkpath(staging));
        else
            QVERIFY(writeFile(staging, "not a folder"));
        for (const QString &file : contents)
            QVERIFY(writeFile(staging + QLatin1Char('/') + file, file.toUtf8()));
        const QStringList before = folder ? everythingUnder(staging) : QStringList();

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, currentOptions());
        QVERIFY(!extraction.ok());
        QCOMPARE(extraction.error().id, QStringLiteral("extract.staging-exists"));
        if (!folder) {
            QCOMPARE(readFile(staging), QByteArray("not a folder"));
            return;
        }
        QCOMPARE(everythingUnder(staging), before);
        for (const QString &file : contents)
            QCOMPARE(readFile(staging + QLatin1Char('/') + file), file.toUtf8());
    }

    void reportsUnwritableStaging_data()
    {
        QTest::addColumn<bool>("readOnlyParent"); // else the parent is a file
        QTest::newRow("read-only parent") << true;
        QTest::newRow("parent is a file") << false;
    }

    void reportsUnwritableStaging()
    {
        QFETCH(bool, readOnlyParent);
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        const QString parent = sandbox.root() + QStringLiteral("/parent");
        if (readOnlyParent) {
#ifdef Q_OS_WIN
            QSKIP("Windows has no folder modes that refuse new entries to their owner");
#endif
            QVERIFY(QDir().mkpath(parent));
            QVERIFY(QFile::setPermissions(parent, QFileDevice::ReadOwner | QFileDevice::ExeOwner)); // 0500
        } else {
            QVERIFY(writeFile(parent, "a file"));
        }
        const auto restore = qScopeGuard([&] {
            QFile::setPermissions(parent,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        });
        if (readOnlyParent && QDir(parent).mkdir(QStringLiteral("probe"))) {
            QDir(parent).rmdir(QStringLiteral("probe"));
            QSKIP("this user writes into read-only folders (root): modes are not enforced");
        }
        // Two levels: the folder between the parent and the staging folder cannot be made either.
        const QString staging = parent + QStringLiteral("/new/staging");

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, currentOptions());
        QVERIFY(!extraction.ok());
        QCOMPARE(extraction.error().id, QStringLiteral("extract.write-failed"));
        QVERIFY(!QFileInfo::exists(staging));
        if (readOnlyParent)
            QCOMPARE(everythingUnder(parent), QStringList());
        else
            QCOMPARE(readFile(parent), QByteArray("a file"));
        QCOMPARE(everythingUnder(sandbox.root()), (QStringList{kArchiveName, QStringLiteral("parent")}));
    }

    // Files staged under one name in the archive (a collision the safety rules would refuse) are
    // staged apart, each under its own index: one never overwrites another.
    void stagesEachFileApart()
    {
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        ArchiveFile twin;
        for (const ArchiveFile &file : std::as_const(files)) {
            if (file.path == kLicense)
                twin = file;
        }
        QCOMPARE(twin.path, kLicense);
        files.append(twin);
        const QString staging = sandbox.root() + QStringLiteral("/staging");

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, currentOptions());
        QVERIFY(extraction.ok());
        QCOMPARE(extraction->files.size(), files.size());
        const auto first = std::find_if(files.cbegin(), files.cend(),
                                        [](const ArchiveFile &file) { return file.path == kLicense; });
        QVERIFY(extraction->files.last().path != extraction->files.at(first - files.cbegin()).path);
        QCOMPARE(readFile(staging + QLatin1Char('/') + extraction->files.last().path),
                 m_contents.value(kLicense));
    }

    void reportsProgress()
    {
        QFETCH_GLOBAL(int, workers);
        Sandbox sandbox;
        QList<ArchiveFile> files;
        const QString archive = saveAndInspect(sandbox, m_zip, files);
        if (QTest::currentTestFailed())
            return;
        qint64 bytesTotal = 0;
        for (const ArchiveFile &file : std::as_const(files))
            bytesTotal += file.size;
        const QString staging = sandbox.root() + QStringLiteral("/staging");

        ProgressLog log;
        ExtractOptions options = currentOptions();
        options.progress = [&](const ExtractionProgress &progress) {
            log.record(progress);
            // A slow receiver: the extraction then lasts long enough for an estimate of the time
            // left (it gives none in its first half second), however fast this machine is.
            QThread::msleep(20);
        };

        const Expected<Extraction> extraction = extractArchive(archive, files, staging, options);
        QVERIFY2(extraction.ok(), qPrintable(describe(extraction.error())));
        QVERIFY(!log.overlapped);
        const QList<ExtractionProgress> &calls = log.calls;
        // Every file done is reported.
        QVERIFY2(calls.size() >= files.size(), qPrintable(QString::number(calls.size())));
        ExtractionProgress previous;
        for (int i = 0; i < calls.size(); ++i) {
            const ExtractionProgress &call = calls.at(i);
            const QString where = QStringLiteral("call %1 of %2 (%3 workers): %4/%5 bytes, %6/%7 files, %8 s")
                                      .arg(i + 1)
                                      .arg(calls.size())
                                      .arg(workers)
                                      .arg(call.bytesDone)
                                      .arg(call.bytesTotal)
                                      .arg(call.filesDone)
                                      .arg(call.filesTotal)
                                      .arg(call.secondsLeft);
            QVERIFY2(call.bytesTotal == bytesTotal, qPrintable(where));
            QVERIFY2(call.filesTotal == files.size(), qPrintable(where));
            QVERIFY2(call.bytesDone >= previous.bytesDone && call.bytesDone <= bytesTotal, qPrintable(where));
            QVERIFY2(call.filesDone >= previous.filesDone && call.filesDone <= files.size(),
                     qPrintable(where));
            QVERIFY2(call.secondsLeft == -1 || call.secondsLeft >= 0, qPrintable(where));
            previous = call;
        }
        QCOMPARE(calls.last().bytesDone, bytesTotal);
        QCOMPARE(calls.last().filesDone, int(files.size()));
        // More than half a second has passed by the last call (at least 20 ms per call before it):
        // all is done, so nothing is left.
        QCOMPARE(calls.last().secondsLeft, 0.0);
        QCOMPARE(extraction->bytesWritten, bytesTotal);
    }

    void extractsIntoChineseFolder()
    {
        QFETCH_GLOBAL(Backend, backend);
        Sandbox sandbox;
        const QString archive = sandbox.root() + QStringLiteral("/归档/") + kArchiveName;
        QVERIFY(writeFile(archive, m_zip));
        QList<ArchiveFile> files;
        inspect(archive, backend, files);
        if (QTest::currentTestFailed())
            return;
        const QString staging = sandbox.root() + QStringLiteral("/下载/暂存");

        verifyExtraction(extractArchive(archive, files, staging, currentOptions()), files, staging,
                         m_contents);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(
            QDir(sandbox.root() + QStringLiteral("/下载")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
            QStringList{QStringLiteral("暂存")});
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestExtractor)
#include "tst_extractor.moc"
