// The static dependency walk on this (Windows) system with the stand-in cuDNN DLLs, held against
// what Windows's own loader does with the same files and the same PATH.
#include "BuildPaths.h"
#include "Suite.h"
#include "loader/DependencyWalker.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTest>

#include "loader/SearchOrder.h"
#include "platform/LibraryLoader.h"
#include "platform/SystemContext.h"

using namespace cudnnsetup;

namespace {

const QString kStandins = BuildPaths::standins();

// A stand-in folder as this system names it ("Z:\work\...\standins\cuda-12.2").
QString standinFolder(const QString &family)
{
    return QDir::toNativeSeparators(QFileInfo(kStandins + QLatin1Char('/') + family).absoluteFilePath());
}

QStringList dllsOf(const QString &folder)
{
    QStringList paths;
    const QStringList names = QDir(folder).entryList({QStringLiteral("*.dll")}, QDir::Files, QDir::Name);
    for (const QString &name : names)
        paths.append(folder + QLatin1Char('\\') + name);
    return paths;
}

QString describe(const DependencyWalk &walk)
{
    QStringList lines;
    for (const DependencyProblem &problem : walk.problems)
        lines.append(QString::fromUtf8(QJsonDocument(problem.toJson()).toJson(QJsonDocument::Compact)));
    return lines.join(QLatin1Char('\n'));
}

// `folders` in front of this process's PATH while it lives: what the real loader then searches.
class PathInFront
{
public:
    explicit PathInFront(const QStringList &folders)
        : m_saved(qgetenv("PATH"))
    {
        qputenv("PATH", (folders.join(QLatin1Char(';')) + QLatin1Char(';')).toLocal8Bit() + m_saved);
    }
    ~PathInFront() { qputenv("PATH", m_saved); }

private:
    QByteArray m_saved;
};

// The walk of `libraries` with `folders` in front of PATH, and what LoadLibrary says of the first.
struct Outcome
{
    DependencyWalk walk;
    int loaderError = 0; // 0: it loaded
};

Outcome walkAndLoad(const QStringList &libraries, const QStringList &folders)
{
    const SystemContext context = SystemContext::running();
    Outcome outcome;
    outcome.walk = walkDependencies(context, libraries, folders + context.environment().processPath());
    const PathInFront path(folders);
    const LoadResult load = LibraryLoader().load(libraries.first(), LibraryLoader::Search::Standard);
    outcome.loaderError = load.library ? 0 : load.errorCode;
    return outcome;
}

} // namespace

class TestWinDependencies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(SystemContext::running().family(), OsFamily::Windows);
        QVERIFY2(SystemContext::running().paths().isAbsolute(standinFolder(QStringLiteral("cuda-12.2"))),
                 qPrintable(standinFolder(QStringLiteral("cuda-12.2"))));
    }

    void cudnn9SetIsComplete()
    {
        const QString cudnn = standinFolder(QStringLiteral("cudnn-9.18.0.77"));
        const QString cuda = standinFolder(QStringLiteral("cuda-12.2"));
        const QStringList libraries = dllsOf(cudnn);
        QCOMPARE(libraries.size(), 8);
        QVERIFY(libraries.first().endsWith(QLatin1String("cudnn64_9.dll")));
        const Outcome outcome = walkAndLoad(libraries, {cudnn, cuda});
        QVERIFY2(outcome.walk.problems.isEmpty(), qPrintable(describe(outcome.walk)));
        QCOMPARE(outcome.loaderError, 0);
        const SystemPaths &paths = SystemContext::running().paths();
        bool cudart = false;
        for (const auto &[name, path] : outcome.walk.resolved) {
            if (name.compare(QLatin1String("cudart64_12.dll"), Qt::CaseInsensitive) == 0) {
                cudart = true;
                QVERIFY2(paths.equal(path, cuda + QStringLiteral("\\cudart64_12.dll")), qPrintable(path));
            }
        }
        QVERIFY(cudart);
    }

    void cudnn8WithoutZlibwapi()
    {
        const SystemContext context = SystemContext::running();
        const QString cudnn = standinFolder(QStringLiteral("cudnn-8.9.7.29"));
        const QString cuda = standinFolder(QStringLiteral("cuda-12.2"));
        // The real loader also looks in this program's folder first.
        const QStringList folders =
            QStringList{QCoreApplication::applicationDirPath()} + librarySearchOrder(context);
        for (const QString &folder : folders) {
            if (context.files().isFile(context.paths().join(folder, QStringLiteral("zlibwapi.dll"))))
                QSKIP("this system has a zlibwapi.dll of its own on the search path");
        }
        const Outcome outcome = walkAndLoad(dllsOf(cudnn), {cudnn, cuda});
        QVERIFY2(outcome.walk.problems.size() == 1, qPrintable(describe(outcome.walk)));
        const DependencyProblem &problem = outcome.walk.problems.first();
        QCOMPARE(problem.kind, DependencyProblem::Kind::Missing);
        QCOMPARE(problem.library.toLower(), QStringLiteral("zlibwapi.dll"));
        QVERIFY2(context.paths().equal(problem.neededBy, cudnn + QStringLiteral("\\cudnn64_8.dll")),
                 qPrintable(problem.neededBy));
        QVERIFY(problem.searched.size() >= 4);
        QVERIFY(problem.searched.contains(cudnn));
        QVERIFY(problem.searched.contains(cuda));
        QVERIFY(problem.searched.indexOf(cudnn) < problem.searched.indexOf(cuda));
        QCOMPARE(outcome.loaderError, 126); // Windows agrees

        // With zlib on the path the same set is complete.
        const QString zlib = standinFolder(QStringLiteral("zlib-1.2.3"));
        const Outcome fixed = walkAndLoad(dllsOf(cudnn), {cudnn, zlib, cuda});
        QVERIFY2(fixed.walk.problems.isEmpty(), qPrintable(describe(fixed.walk)));
        QCOMPARE(fixed.loaderError, 0);
    }

    void x86ZlibwapiFirst()
    {
        const QString x86 = standinFolder(QStringLiteral("x86"));
        if (!QFileInfo::exists(x86 + QStringLiteral("\\zlibwapi.dll")))
            QSKIP("no 32-bit stand-in (built only where a 32-bit MinGW compiler exists)");
        const QString cudnn = standinFolder(QStringLiteral("cudnn-8.9.7.29"));
        const QString cuda = standinFolder(QStringLiteral("cuda-12.2"));
        const Outcome outcome = walkAndLoad(dllsOf(cudnn), {x86, cudnn, cuda});
        QVERIFY2(outcome.walk.problems.size() == 1, qPrintable(describe(outcome.walk)));
        const DependencyProblem &problem = outcome.walk.problems.first();
        QCOMPARE(problem.kind, DependencyProblem::Kind::WrongArchitecture);
        QCOMPARE(problem.machine, QStringLiteral("x86"));
        QVERIFY2(
            SystemContext::running().paths().equal(problem.foundAt, x86 + QStringLiteral("\\zlibwapi.dll")),
            qPrintable(problem.foundAt));
        // The loader refuses the chain too. Windows stops at the first file of the name (193 or
        // 0xC000007B); Wine passes over the 32-bit file and answers 126, so only the refusal is checked.
        QVERIFY(outcome.loaderError != 0);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinDependencies)
#include "tst_win_dependencies.moc"
