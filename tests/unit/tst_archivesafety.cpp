// The rules an archive must keep before a byte of it is written, and how its names are read.
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "Suite.h"
#include "archive/ArchiveSafety.h"
#include "archive/EntryNames.h"
#include "archive/ZipSource.h"
#include "platform/LegacyText.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

ZipEntry entry(const QByteArray &name, qint64 offset, qint64 size = 100, qint64 compressed = 60)
{
    ZipEntry e;
    e.rawName = name;
    e.method = 8;
    e.localHeaderOffset = offset;
    e.uncompressedSize = size;
    e.compressedSize = compressed;
    e.versionMadeBy = 20; // MS-DOS host
    return e;
}

// Entries laid out one after another, as an honest zip has them.
QList<ZipEntry> laidOut(const QStringList &names)
{
    QList<ZipEntry> entries;
    qint64 offset = 0;
    for (const QString &name : names) {
        ZipEntry e = entry(name.toUtf8(), offset);
        e.index = int(entries.size());
        entries.append(e);
        offset += 30 + e.rawName.size() + e.compressedSize;
    }
    return entries;
}

qint64 endOf(const QList<ZipEntry> &entries)
{
    const ZipEntry &last = entries.last();
    return last.localHeaderOffset + 30 + last.rawName.size() + last.compressedSize + 1000;
}

} // namespace

class TestArchiveSafety : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void paths_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("safe");
        QTest::newRow("NVIDIA's DLL")
            << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin/cudnn64_9.dll" << true;
        QTest::newRow("folder entry") << "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin/" << true;
        QTest::newRow("Chinese folder") << "下载/cudnn64_9.dll" << true;
        QTest::newRow("dots inside a name") << "a/cudnn.9.1.h" << true;
        QTest::newRow("parent") << "../evil.dll" << false;
        QTest::newRow("parent deep") << "a/b/../../../evil.dll" << false;
        QTest::newRow("parent by backslash") << "..\\..\\Windows\\System32\\evil.dll" << false;
        QTest::newRow("parent mixed") << "a\\..\\../evil.dll" << false;
        QTest::newRow("current folder") << "./a.dll" << false;
        QTest::newRow("absolute") << "/etc/passwd" << false;
        QTest::newRow("absolute by backslash") << "\\Windows\\evil.dll" << false;
        QTest::newRow("drive") << "C:\\Windows\\evil.dll" << false;
        QTest::newRow("drive relative") << "C:evil.dll" << false;
        QTest::newRow("UNC") << "\\\\server\\share\\evil.dll" << false;
        QTest::newRow("device path") << "\\\\?\\C:\\evil.dll" << false;
        QTest::newRow("device namespace") << "\\\\.\\PhysicalDrive0" << false;
        QTest::newRow("reserved name") << "bin/CON" << false;
        QTest::newRow("reserved with extension") << "bin/nul.txt" << false;
        QTest::newRow("reserved COM") << "bin/com1.dll" << false;
        QTest::newRow("console") << "bin/CONOUT$" << false;
        QTest::newRow("alternate data stream") << "bin/cudnn64_9.dll:hidden" << false;
        QTest::newRow("reserved character") << "bin/a?b.dll" << false;
        QTest::newRow("control character") << "bin/a\tb.dll" << false;
        QTest::newRow("trailing dot") << "bin/cudnn64_9.dll." << false;
        QTest::newRow("trailing space") << "bin /cudnn64_9.dll" << false;
        QTest::newRow("empty component") << "bin//cudnn64_9.dll" << false;
        QTest::newRow("empty") << "" << false;
    }
    void paths()
    {
        QFETCH(QString, name);
        QFETCH(bool, safe);
        QCOMPARE(pathProblem(name).isEmpty(), safe);
        if (!safe)
            QVERIFY(!pathProblem(name).toEnglish().isEmpty());
    }

    void safePathsUseSlashes()
    {
        QCOMPARE(safePath(QStringLiteral("cuda\\bin\\cudnn64_8.dll")).path,
                 QStringLiteral("cuda/bin/cudnn64_8.dll"));
        QVERIFY(safePath(QStringLiteral("cuda/bin/")).directory);
        QCOMPARE(safePath(QStringLiteral("cuda/bin/")).path, QStringLiteral("cuda/bin"));
    }

    void nvidiasArchivesAreClean_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::newRow("8.5.0.96") << archives::windowsFiles(QStringLiteral("8.5.0.96"), QStringLiteral("11"));
        QTest::newRow("8.9.7.29") << archives::windowsFiles(QStringLiteral("8.9.7.29"), QStringLiteral("12"));
        QTest::newRow("9.1.0.70") << archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        QTest::newRow("9.18.0.77") << archives::windowsFiles(QStringLiteral("9.18.0.77"),
                                                             QStringLiteral("13"));
        QTest::newRow("cuda root") << archives::cudaRootFiles(8);
    }
    void nvidiasArchivesAreClean()
    {
        QFETCH(QStringList, files);
        const QList<ZipEntry> entries = laidOut(files);
        const EntryNames names(entries);
        QCOMPARE(names.unflaggedEncoding(), NameEncoding::Ascii);
        const Findings findings = archiveSafetyProblems(entries, names, endOf(entries));
        QVERIFY2(findings.isEmpty(), qPrintable(findingIds(findings).join(QLatin1Char(','))));
    }

    void hostileArchives_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("id");
        QTest::newRow("zip slip") << "slip"
                                  << "archive.unsafe-path";
        QTest::newRow("symbolic link") << "symlink"
                                       << "archive.unsafe-symlink";
        QTest::newRow("encrypted") << "encrypted"
                                   << "archive.unsafe-encrypted";
        QTest::newRow("bzip2") << "method"
                               << "archive.unsafe-method";
        QTest::newRow("same name") << "duplicate"
                                   << "archive.unsafe-duplicate";
        QTest::newRow("same name but for case") << "case"
                                                << "archive.unsafe-duplicate";
        QTest::newRow("file where a folder goes") << "file-folder"
                                                  << "archive.unsafe-duplicate";
        QTest::newRow("huge entry") << "huge"
                                    << "archive.unsafe-size";
        QTest::newRow("too many entries") << "many"
                                          << "archive.unsafe-size";
        QTest::newRow("impossible ratio") << "ratio"
                                          << "archive.unsafe-ratio";
        QTest::newRow("stored sizes differ") << "stored"
                                             << "archive.unsafe-ratio";
        QTest::newRow("overlapping data") << "overlap"
                                          << "archive.unsafe-overlap";
        QTest::newRow("data past the end") << "past-end"
                                           << "archive.truncated";
        QTest::newRow("flagged name not UTF-8") << "bad-utf8"
                                                << "archive.unsafe-name";
    }
    void hostileArchives()
    {
        QFETCH(QString, kind);
        QFETCH(QString, id);
        QList<ZipEntry> entries =
            laidOut(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        ArchiveLimits limits;
        ZipEntry &dll = entries[0];
        qint64 size = endOf(entries);
        if (kind == QLatin1String("slip")) {
            dll.rawName = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin/../../../evil.dll";
        } else if (kind == QLatin1String("symlink")) {
            dll.versionMadeBy = 3 << 8;              // Unix
            dll.externalAttributes = 0120777u << 16; // S_IFLNK
        } else if (kind == QLatin1String("encrypted")) {
            dll.flags |= 0x0001;
        } else if (kind == QLatin1String("method")) {
            dll.method = 12;
        } else if (kind == QLatin1String("duplicate")) {
            entries[1].rawName = dll.rawName;
        } else if (kind == QLatin1String("case")) {
            entries[1].rawName = dll.rawName.toUpper();
        } else if (kind == QLatin1String("file-folder")) {
            entries[1].rawName = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin";
        } else if (kind == QLatin1String("huge")) {
            dll.uncompressedSize = 9LL << 30;
            dll.compressedSize = 9LL << 20;
            size += dll.compressedSize;
            for (int i = 1; i < entries.size(); ++i)
                entries[i].localHeaderOffset += dll.compressedSize;
        } else if (kind == QLatin1String("many")) {
            limits.maxEntries = 10;
        } else if (kind == QLatin1String("ratio")) {
            dll.uncompressedSize = 5LL << 30;
        } else if (kind == QLatin1String("stored")) {
            dll.method = 0;
        } else if (kind == QLatin1String("overlap")) {
            entries[2].localHeaderOffset = entries[1].localHeaderOffset;
        } else if (kind == QLatin1String("past-end")) {
            size = entries.last().localHeaderOffset + 10;
        } else if (kind == QLatin1String("bad-utf8")) {
            dll.rawName = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive/bin/\xff\xfe.dll";
            dll.flags |= 0x0800;
        }
        const EntryNames names(entries);
        const Findings findings = archiveSafetyProblems(entries, names, size, limits);
        QVERIFY2(findingIds(findings).contains(id), qPrintable(findingIds(findings).join(QLatin1Char(','))));
        for (const Finding &finding : findings) {
            QCOMPARE(finding.severity, Severity::Error);
            QVERIFY2(!finding.message.toEnglish().contains(QLatin1Char('%')),
                     qPrintable(finding.message.toEnglish()));
        }
    }

    // A DOS folder entry without its trailing slash ("def", attribute 0x10) beside "def/foo" is a
    // folder and its file, not two names for one thing; a name that is really there twice is said
    // so, without a word about case, which plays no part.
    void folderEntriesAndNamesTwice()
    {
        QList<ZipEntry> entries = laidOut({QStringLiteral("def"), QStringLiteral("def/foo")});
        entries[0].externalAttributes = 0x10;
        entries[0].uncompressedSize = entries[0].compressedSize = 0;
        entries[0].method = 0;
        QVERIFY(findingIds(archiveSafetyProblems(entries, EntryNames(entries), endOf(entries))).isEmpty());

        entries = laidOut({QStringLiteral("a/b"), QStringLiteral("a/b/")});
        Findings findings = archiveSafetyProblems(entries, EntryNames(entries), endOf(entries));
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("archive.unsafe-duplicate")});
        QVERIFY2(
            findings.first().message.toEnglish().contains(QStringLiteral("\"a/b\" is in the archive twice")),
            qPrintable(findings.first().message.toEnglish()));
        QVERIFY(!findings.first().message.toEnglish().contains(QStringLiteral("case")));

        entries = laidOut({QStringLiteral("a/B.dll"), QStringLiteral("a/b.dll")});
        findings = archiveSafetyProblems(entries, EntryNames(entries), endOf(entries));
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("archive.unsafe-duplicate")});
        QVERIFY(findings.first().message.toEnglish().contains(QStringLiteral("ignores case")));
    }

    // An encrypted stored entry: its data is the cipher's 12-byte header longer than the file. It
    // is refused as encrypted, and not called forged.
    void encryptedStoredEntryIsNotCalledForged()
    {
        QList<ZipEntry> entries =
            laidOut(archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")));
        ZipEntry &dll = entries[0];
        dll.flags |= 0x0001;
        dll.method = 0;
        const qint64 grown = dll.uncompressedSize + 12 - dll.compressedSize;
        dll.compressedSize += grown;
        for (int i = 1; i < entries.size(); ++i)
            entries[i].localHeaderOffset += grown;
        const Findings findings = archiveSafetyProblems(entries, EntryNames(entries), endOf(entries));
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("archive.unsafe-encrypted")});
    }

    // The rule of EntryNames.h, case by case.
    void names_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<bool>("flagged");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("encoding");
        const QString chinese = QStringLiteral("深度学习/cudnn64_9.dll");
        QTest::newRow("UTF-8, flagged") << chinese.toUtf8() << true << chinese << "ascii";
        const auto gbk = [](const QString &text) {
            // The test's own encoder: Qt without ICU has none, so the bytes are written out.
            if (text == QStringLiteral("深度学习/cudnn64_9.dll"))
                return QByteArray("\xc9\xee\xb6\xc8\xd1\xa7\xcf\xb0/cudnn64_9.dll");
            return QByteArray();
        };
        QTest::newRow("GBK, unflagged") << gbk(chinese) << false << chinese << "gbk";
        QTest::newRow("CP437, unflagged") << QByteArray("caf\x82/cudnn64_9.dll") << false
                                          << QStringLiteral("café/cudnn64_9.dll") << "cp437";
        QTest::newRow("ASCII") << QByteArray("cuda/bin/cudnn64_8.dll") << false << "cuda/bin/cudnn64_8.dll"
                               << "ascii";
    }
    void names()
    {
        QFETCH(QByteArray, raw);
        QFETCH(bool, flagged);
        QFETCH(QString, text);
        QFETCH(QString, encoding);
        ZipEntry e = entry(raw, 0);
        e.index = 0;
        if (flagged)
            e.flags |= 0x0800;
        const EntryNames names({e});
        QVERIFY(names.at(0).valid);
        QCOMPARE(names.at(0).text, text);
        QCOMPARE(names.unflaggedEncodingName(), encoding);
    }

    // One tool wrote all unflagged names: one name that is not GBK makes them all CP437.
    void oneEncodingPerArchive()
    {
        ZipEntry gbkName = entry(QByteArray("\xc9\xee\xb6\xc8/a.dll"), 0);
        ZipEntry notGbk = entry(QByteArray("caf\x82\xff/b.dll"), 200);
        gbkName.index = 0;
        notGbk.index = 1;
        const EntryNames names({gbkName, notGbk});
        QCOMPARE(names.unflaggedEncoding(), NameEncoding::Cp437);
        QCOMPARE(names.at(0).text, legacytext::decode(gbkName.rawName, legacytext::Cp437).value());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestArchiveSafety)
#include "tst_archivesafety.moc"
