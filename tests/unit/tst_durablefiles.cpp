#include "Suite.h"
#include "TreeSnapshot.h"
#include "platform/DurableFiles.h"

#include <atomic>
#include <chrono>
#include <thread>

#ifdef Q_OS_WIN
#include <windows.h>
#endif

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

// `count` files named <prefix>000… in `folder`, each saying `content`.
bool writeFiles(const QString &folder, const QString &prefix, int count, const QByteArray &content)
{
    for (int i = 0; i < count; ++i) {
        if (!writeFile(QStringLiteral("%1/%2%3").arg(folder, prefix).arg(i, 3, 10, QLatin1Char('0')),
                       content))
            return false;
    }
    return true;
}

// A symbolic link at `link` to `target`; empty, or why none could be made.
QString makeLink(const QString &target, const QString &link, bool folder)
{
#ifdef Q_OS_WIN
    const DWORD flags =
        (folder ? SYMBOLIC_LINK_FLAG_DIRECTORY : 0) | SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE;
    if (!CreateSymbolicLinkW(QDir::toNativeSeparators(link).toStdWString().c_str(),
                             QDir::toNativeSeparators(target).toStdWString().c_str(), flags))
        return QStringLiteral("CreateSymbolicLinkW: error %1 (it needs developer mode or the right to create "
                              "symbolic links)")
            .arg(GetLastError());
    // Wine's CreateSymbolicLinkW answers TRUE and makes nothing.
    if (!QFileInfo(link).isSymLink())
        return QStringLiteral("CreateSymbolicLinkW made no link (Wine has no Windows symbolic links)");
    return {};
#else
    Q_UNUSED(folder)
    return QFile::link(target, link) ? QString() : QStringLiteral("symlink %1 failed").arg(link);
#endif
}

// Takes a link to a folder away, not what it points at.
bool removeFolderLink(const QString &link)
{
#ifdef Q_OS_WIN
    return RemoveDirectoryW(QDir::toNativeSeparators(link).toStdWString().c_str());
#else
    return QFile::remove(link);
#endif
}

// The files a user keeps outside the tree: its names are those of the tree's swapped folder.
bool fillOutside(const QString &outside)
{
    return writeFiles(outside, QStringLiteral("n"), 200, "outside") &&
           writeFiles(outside + QStringLiteral("/deeper"), QStringLiteral("m"), 20, "outside");
}

// Several levels of folders and files; `tree`/a/swapped holds the names `outside` holds.
bool buildTree(const QString &tree)
{
    return writeFiles(tree, QStringLiteral("t"), 10, "tree") &&
           writeFiles(tree + QStringLiteral("/a"), QStringLiteral("a"), 10, "tree") &&
           writeFiles(tree + QStringLiteral("/a/after"), QStringLiteral("x"), 50, "tree") &&
           writeFiles(tree + QStringLiteral("/a/swapped"), QStringLiteral("n"), 200, "tree") &&
           writeFiles(tree + QStringLiteral("/a/swapped/deeper"), QStringLiteral("m"), 20, "tree") &&
           writeFiles(tree + QStringLiteral("/b/c/d"), QStringLiteral("d"), 50, "tree");
}

} // namespace

class TestDurableFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Everything in the tree goes: nested and empty folders, hidden and read-only files. A root
    // that is not there is fine; a root that is a file goes as a file.
    void removesTheWholeTree()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("tree"));
        QVERIFY(buildTree(tree));
        QVERIFY(QDir().mkpath(tree + QStringLiteral("/empty/emptier")));
        QVERIFY(writeFile(tree + QStringLiteral("/.hidden"), "h"));
        const QString readOnly = tree + QStringLiteral("/b/c/read-only.dll");
        QVERIFY(writeFile(readOnly, "r"));
        QVERIFY(QFile::setPermissions(readOnly, QFileDevice::ReadOwner));
        QVERIFY(!(QFile::permissions(readOnly) & QFileDevice::WriteOwner));

        const SystemResult removed = durable::removeTree(tree);
        QVERIFY2(removed, qPrintable(removed ? QString() : removed.error().message));
        QVERIFY(!QFileInfo::exists(tree));
        QVERIFY(durable::removeTree(tree));

        const QString file = dir.filePath(QStringLiteral("file.txt"));
        QVERIFY(writeFile(file, "f"));
        QVERIFY(durable::removeTree(file));
        QVERIFY(!QFileInfo::exists(file));
    }

    // A link inside the tree, to a folder or to a file outside it, is removed as the link: what it
    // points at keeps every file. So is a root that is itself a link.
    void linksAreRemovedAsLinks()
    {
        QTemporaryDir dir;
        const QString outside = dir.filePath(QStringLiteral("outside"));
        const QString tree = dir.filePath(QStringLiteral("tree"));
        QVERIFY(fillOutside(outside));
        QVERIFY(buildTree(tree));
        if (const QString why = makeLink(outside, tree + QStringLiteral("/a/linked"), true); !why.isEmpty())
            QSKIP(qPrintable(why));
        QCOMPARE(makeLink(outside + QStringLiteral("/n000"), tree + QStringLiteral("/b/n000"), false),
                 QString());
        const QString rootLink = dir.filePath(QStringLiteral("root-link"));
        QCOMPARE(makeLink(outside, rootLink, true), QString());
        const TreeSnapshot before = TreeSnapshot::of(outside);
        QCOMPARE(before.entries.size(), 221);

        const SystemResult removed = durable::removeTree(tree);
        QVERIFY2(removed, qPrintable(removed ? QString() : removed.error().message));
        QVERIFY(!QFileInfo::exists(tree));
        QVERIFY(durable::removeTree(rootLink));
        QVERIFY(!QFileInfo(rootLink).isSymLink());
        const TreeSnapshot after = TreeSnapshot::of(outside);
        QVERIFY2(after == before, qPrintable(before.difference(after)));
    }

    // A folder swapped for a link to an outside folder while the tree is being removed (the
    // attack on an elevated cleanup of a folder the user can write) is never followed: another
    // thread renames a folder of the tree aside and puts a link in its place, then puts it back,
    // up to 10,000 times in all, while the tree is removed again and again. The outside folder
    // keeps every file. A removal may fail while folders come back under it; one after the
    // swapping stopped removes what is left.
    void swappedFolderIsNeverFollowed()
    {
        QTemporaryDir dir;
        const QString outside = dir.filePath(QStringLiteral("outside"));
        const QString tree = dir.filePath(QStringLiteral("tree"));
        const QString swapped = tree + QStringLiteral("/a/swapped");
        const QString aside = dir.filePath(QStringLiteral("aside"));
        QVERIFY(fillOutside(outside));
        const TreeSnapshot before = TreeSnapshot::of(outside);
        const QString probe = dir.filePath(QStringLiteral("probe"));
        if (const QString why = makeLink(outside, probe, true); !why.isEmpty())
            QSKIP(qPrintable(why));
        QVERIFY(removeFolderLink(probe));

        using Clock = std::chrono::steady_clock;
        constexpr int kSwaps = 10000;
        constexpr int kRounds = 2000;
        // Generous: 10,000 swaps take under a minute even on two busy cores.
        const Clock::time_point deadline = Clock::now() + std::chrono::seconds(240);
        int swaps = 0;
        int rounds = 0;
        int failedRemovals = 0;
        while (swaps < kSwaps && rounds < kRounds && Clock::now() < deadline) {
            QVERIFY(buildTree(tree));
            std::atomic<bool> removing{true};
            std::atomic<int> roundSwaps{0};
            std::atomic<bool> swapperDone{false};
            // Stops by itself: at the swap budget, at the deadline, once the folder is gone.
            std::thread swapper([&] {
                while (removing && swaps + roundSwaps < kSwaps && Clock::now() < deadline) {
                    if (!QDir().rename(swapped, aside))
                        break;
                    if (makeLink(outside, swapped, true).isEmpty())
                        removeFolderLink(swapped); // fails where the removal took the link already
                    QDir().rename(aside, swapped);
                    ++roundSwaps;
                }
                swapperDone = true;
            });
            while (roundSwaps < 3 && !swapperDone) // the swapping is under way
                std::this_thread::yield();
            if (!durable::removeTree(tree))
                ++failedRemovals;
            removing = false;
            swapper.join();
            swaps += roundSwaps;
            ++rounds;

            const TreeSnapshot after = TreeSnapshot::of(outside);
            QVERIFY2(after == before, qPrintable(QStringLiteral("round %1, after %2 swaps:\n%3")
                                                     .arg(rounds)
                                                     .arg(swaps)
                                                     .arg(before.difference(after))));
            QVERIFY(durable::removeTree(tree));
            QVERIFY(durable::removeTree(aside));
            QVERIFY(!QFileInfo::exists(tree) && !QFileInfo::exists(aside));
        }
        qInfo("%d swaps in %d rounds, %d removals failed under the swapping", swaps, rounds, failedRemovals);
        QVERIFY2(swaps >= kSwaps, qPrintable(QStringLiteral("only %1 swaps before the deadline").arg(swaps)));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestDurableFiles)
#include "tst_durablefiles.moc"
