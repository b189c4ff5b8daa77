// The static dependency walk: synthetic PE trees in Windows sandboxes, and the real cuDNN libraries
// of /usr/local/cuda-13.0 on Linux (checked against what ldd says the loader does).
#include "Suite.h"
#include "loader/DependencyWalker.h"

#include "PeImage.h"
#include "Sandbox.h"
#include "SystemTrees.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include "platform/SystemContext.h"

using namespace cudnnsetup;

namespace {

const QString kCudnnBin = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin");
const QString kCudaBin = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2\\bin");
const QString kCudnn8 = kCudnnBin + QStringLiteral("\\cudnn64_8.dll");
const QString kCudnnLib = QStringLiteral("/usr/local/cuda-13.0/lib64");

QByteArray dll(const QList<QByteArray> &imports, const QList<QByteArray> &delayImports = {},
               quint16 machine = PeInfo::Amd64)
{
    peimage::ImageSpec spec;
    spec.machine = machine;
    spec.pe32Plus = machine != PeInfo::I386;
    spec.imports = imports;
    spec.delayImports = delayImports;
    return peimage::buildImage(spec).bytes;
}

// A Windows tree with cuDNN 8.9's main DLL (importing what the real one imports, plus an API set
// and the CRT) and the CUDA runtime; zlibwapi.dll is for each test to place.
void cudnn8Tree(const Sandbox &sandbox)
{
    trees::windowsSystem(sandbox);
    sandbox.write(kCudnn8, dll({"KERNEL32.dll", "msvcrt.dll", "api-ms-win-crt-runtime-l1-1-0.dll",
                                "cudart64_12.dll", "ZLIBWAPI.DLL"}));
    sandbox.write(kCudaBin + QStringLiteral("\\cudart64_12.dll"), dll({"KERNEL32.dll"}));
}

// The file a dependency resolved to; "-" when it was not resolved at all.
QString resolvedPath(const DependencyWalk &walk, const QString &name)
{
    for (const auto &[library, path] : walk.resolved) {
        if (library.compare(name, Qt::CaseInsensitive) == 0)
            return path;
    }
    return QStringLiteral("-");
}

bool isResolved(const DependencyWalk &walk, const QString &name)
{
    return std::any_of(walk.resolved.cbegin(), walk.resolved.cend(), [&](const auto &entry) {
        return entry.first.compare(name, Qt::CaseInsensitive) == 0;
    });
}

QString describe(const DependencyWalk &walk)
{
    QStringList lines;
    for (const DependencyProblem &problem : walk.problems)
        lines.append(QString::fromUtf8(QJsonDocument(problem.toJson()).toJson(QJsonDocument::Compact)));
    return lines.join(QLatin1Char('\n'));
}

// What the real loader picks for each dependency of `library`: ldd's "name => path" lines.
QList<std::pair<QString, QString>> ldd(const QString &library)
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("ldd"));
    if (program.isEmpty())
        return {};
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("LD_LIBRARY_PATH"));
    process.setProcessEnvironment(environment);
    process.start(program, {library});
    if (!process.waitForFinished(60000))
        return {};
    QList<std::pair<QString, QString>> result;
    static const QRegularExpression line(QStringLiteral(R"(^\s*(\S+) => (/\S+) \(0x)"));
    const QStringList lines = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'));
    for (const QString &text : lines) {
        if (const auto match = line.match(text); match.hasMatch())
            result.append({match.captured(1), match.captured(2)});
    }
    return result;
}

QStringList realCudnnLibraries()
{
    QStringList paths;
    const QStringList names = QDir(kCudnnLib).entryList({QStringLiteral("libcudnn*.so.9")}, QDir::Files);
    for (const QString &name : names)
        paths.append(kCudnnLib + QLatin1Char('/') + name);
    return paths;
}

} // namespace

class TestDependencyWalker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- Windows trees ----------------------------------------------------------------------

    void completeChainResolves()
    {
        Sandbox sandbox;
        cudnn8Tree(sandbox);
        sandbox.write(kCudnnBin + QStringLiteral("\\zlibwapi.dll"), dll({"KERNEL32.dll"}));
        const SystemContext context = SystemContext::rooted(sandbox.root());
        QCOMPARE(context.family(), OsFamily::Windows);

        const DependencyWalk walk = walkDependencies(context, {kCudnn8}, {kCudnnBin, kCudaBin});
        QVERIFY2(walk.problems.isEmpty(), qPrintable(describe(walk)));
        QVERIFY(context.paths().equal(resolvedPath(walk, QStringLiteral("zlibwapi.dll")),
                                      kCudnnBin + QStringLiteral("\\zlibwapi.dll")));
        QVERIFY(context.paths().equal(resolvedPath(walk, QStringLiteral("cudart64_12.dll")),
                                      kCudaBin + QStringLiteral("\\cudart64_12.dll")));
        // Windows's own: no file in this tree, still no problem.
        QCOMPARE(resolvedPath(walk, QStringLiteral("kernel32.dll")), QString());
        QCOMPARE(resolvedPath(walk, QStringLiteral("msvcrt.dll")), QString());
        QCOMPARE(resolvedPath(walk, QStringLiteral("api-ms-win-crt-runtime-l1-1-0.dll")), QString());
        // Each name once, however many import it.
        QCOMPARE(std::count_if(walk.resolved.cbegin(), walk.resolved.cend(),
                               [](const auto &e) {
                                   return e.first.compare(QLatin1String("KERNEL32.dll"),
                                                          Qt::CaseInsensitive) == 0;
                               }),
                 1);
    }

    void windowsOwnDllFoundInSystem32()
    {
        Sandbox sandbox;
        cudnn8Tree(sandbox);
        sandbox.write(kCudnnBin + QStringLiteral("\\zlibwapi.dll"), dll({"KERNEL32.dll"}));
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\kernel32.dll"), dll({"ntdll.dll"}));
        const SystemContext context = SystemContext::rooted(sandbox.root());
        const DependencyWalk walk = walkDependencies(context, {kCudnn8}, {kCudnnBin, kCudaBin});
        QVERIFY2(walk.problems.isEmpty(), qPrintable(describe(walk)));
        QVERIFY(context.paths().equal(resolvedPath(walk, QStringLiteral("KERNEL32.dll")),
                                      QStringLiteral("C:\\Windows\\System32\\kernel32.dll")));
        QVERIFY(!isResolved(walk, QStringLiteral("ntdll.dll"))); // Windows's own imports are not walked
    }

    // Each load model searches its own folders: a program PATH; conda's Python the DLL's folder
    // first, then PATH; Python 3.8+ the DLL's folder and its os.add_dll_directory folders, never
    // PATH - so there cudart64_12.dll, which only PATH leads to, is missing too.
    void missingZlibwapiIsNamed_data()
    {
        QTest::addColumn<int>("model");
        QTest::addColumn<bool>("cudartFound");
        QTest::newRow("program") << int(LoadModel::Program) << true;
        QTest::newRow("conda") << int(LoadModel::CondaActivated) << true;
        QTest::newRow("python") << int(LoadModel::PythonDllDirectories) << false;
    }
    void missingZlibwapiIsNamed()
    {
        QFETCH(int, model);
        QFETCH(bool, cudartFound);
        const LoadModel loadModel = LoadModel(model);
        Sandbox sandbox;
        cudnn8Tree(sandbox);
        const SystemContext context = SystemContext::rooted(sandbox.root());
        const DependencyWalk walk =
            walkDependencies(context, {kCudnn8}, {kCudnnBin, kCudaBin}, loadModel, {kCudnnBin});
        const auto zlib =
            std::find_if(walk.problems.cbegin(), walk.problems.cend(), [](const DependencyProblem &p) {
                return p.library == QLatin1String("ZLIBWAPI.DLL");
            });
        QVERIFY(zlib != walk.problems.cend());
        QCOMPARE(walk.problems.size(), cudartFound ? 1 : 2);
        const DependencyProblem &problem = *zlib;
        QCOMPARE(problem.kind, DependencyProblem::Kind::Missing);
        QVERIFY(context.paths().equal(problem.neededBy, kCudnn8));
        QVERIFY(!problem.delayLoaded);
        QVERIFY(problem.foundAt.isEmpty());
        QStringList expected{QStringLiteral("C:\\Windows\\System32"), QStringLiteral("C:\\Windows")};
        if (loadModel == LoadModel::PythonDllDirectories)
            expected << kCudnnBin;
        else
            expected << kCudnnBin << kCudaBin;
        if (loadModel != LoadModel::Program)
            expected.prepend(kCudnnBin);
        expected.removeDuplicates();
        QCOMPARE(problem.searched, expected);
        QCOMPARE(isResolved(walk, QStringLiteral("cudart64_12.dll")), cudartFound);
    }

    void redistributablesMustBeFiles()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString main = kCudnnBin + QStringLiteral("\\cudnn64_9.dll");
        sandbox.write(main, dll({"KERNEL32.dll", "VCRUNTIME140.dll", "MSVCP140.dll"}));
        const DependencyWalk walk =
            walkDependencies(SystemContext::rooted(sandbox.root()), {main}, {kCudnnBin});
        QStringList missing;
        for (const DependencyProblem &problem : walk.problems)
            missing.append(problem.library);
        QCOMPARE(missing, (QStringList{QStringLiteral("VCRUNTIME140.dll"), QStringLiteral("MSVCP140.dll")}));
    }

    void x86ZlibwapiEarlierOnThePath()
    {
        Sandbox sandbox;
        cudnn8Tree(sandbox);
        const QString old = QStringLiteral("C:\\tools\\zlib32");
        const QString good = QStringLiteral("C:\\tools\\zlib64");
        sandbox.write(old + QStringLiteral("\\zlibwapi.dll"), dll({"KERNEL32.dll"}, {}, PeInfo::I386));
        sandbox.write(good + QStringLiteral("\\zlibwapi.dll"), dll({"KERNEL32.dll"}));
        const SystemContext context = SystemContext::rooted(sandbox.root());

        const DependencyWalk walk = walkDependencies(context, {kCudnn8}, {old, good, kCudnnBin, kCudaBin});
        QCOMPARE(walk.problems.size(), 1);
        const DependencyProblem &problem = walk.problems.first();
        QCOMPARE(problem.kind, DependencyProblem::Kind::WrongArchitecture);
        QCOMPARE(problem.machine, QStringLiteral("x86"));
        QVERIFY2(context.paths().equal(problem.foundAt, old + QStringLiteral("\\zlibwapi.dll")),
                 qPrintable(problem.foundAt));
        QVERIFY(context.paths().equal(problem.neededBy, kCudnn8));

        // The 64-bit one first: the loader takes it and never sees the other.
        const DependencyWalk fixed = walkDependencies(context, {kCudnn8}, {good, old, kCudnnBin, kCudaBin});
        QVERIFY2(fixed.problems.isEmpty(), qPrintable(describe(fixed)));
        QVERIFY(context.paths().equal(resolvedPath(fixed, QStringLiteral("zlibwapi.dll")),
                                      good + QStringLiteral("\\zlibwapi.dll")));
    }

    void firstLibrarySetsTheArchitecture()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString x86 = QStringLiteral("C:\\x86\\zlibwapi.dll");
        const QString x64 = QStringLiteral("C:\\x64\\cudnn64_9.dll");
        sandbox.write(x86, dll({"KERNEL32.dll"}, {}, PeInfo::I386));
        sandbox.write(x64, dll({"KERNEL32.dll"}));
        const SystemContext context = SystemContext::rooted(sandbox.root());
        const DependencyWalk walk = walkDependencies(context, {x64, x86}, {});
        QCOMPARE(walk.problems.size(), 1);
        QCOMPARE(walk.problems.first().kind, DependencyProblem::Kind::WrongArchitecture);
        QCOMPARE(walk.problems.first().machine, QStringLiteral("x86"));
        QCOMPARE(walk.problems.first().library, QStringLiteral("zlibwapi.dll"));
        // A 32-bit chain is consistent in itself.
        QVERIFY(walkDependencies(context, {x86}, {}).problems.isEmpty());
    }

    void missingDelayImportIsFlagged()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString main = kCudnnBin + QStringLiteral("\\cudnn64_9.dll");
        sandbox.write(main, dll({"KERNEL32.dll"}, {"cublasLt64_12.dll", "cudnn_graph64_9.dll"}));
        // Present, but what it needs is not: missing only once the delay-loaded DLL is used.
        sandbox.write(kCudnnBin + QStringLiteral("\\cudnn_graph64_9.dll"),
                      dll({"KERNEL32.dll", "cublas64_12.dll"}));
        const SystemContext context = SystemContext::rooted(sandbox.root());
        const DependencyWalk walk = walkDependencies(context, {main}, {kCudnnBin});
        QCOMPARE(walk.problems.size(), 2);
        for (const DependencyProblem &problem : walk.problems) {
            QCOMPARE(problem.kind, DependencyProblem::Kind::Missing);
            QVERIFY2(problem.delayLoaded, qPrintable(problem.library));
        }
        QCOMPARE(walk.problems.at(0).library, QStringLiteral("cublasLt64_12.dll"));
        QVERIFY(context.paths().equal(walk.problems.at(0).neededBy, main));
        QCOMPARE(walk.problems.at(1).library, QStringLiteral("cublas64_12.dll"));
        QVERIFY(context.paths().equal(walk.problems.at(1).neededBy,
                                      kCudnnBin + QStringLiteral("\\cudnn_graph64_9.dll")));
    }

    // A library reached both through a delay import and through a static one counts as static.
    void staticImportWinsOverDelayImport()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString main = kCudnnBin + QStringLiteral("\\cudnn64_9.dll");
        sandbox.write(main, dll({"KERNEL32.dll", "cudnn_ops64_9.dll"}, {"cudnn_graph64_9.dll"}));
        sandbox.write(kCudnnBin + QStringLiteral("\\cudnn_ops64_9.dll"), dll({"cudnn_graph64_9.dll"}));
        const DependencyWalk walk =
            walkDependencies(SystemContext::rooted(sandbox.root()), {main}, {kCudnnBin});
        QCOMPARE(walk.problems.size(), 1);
        QCOMPARE(walk.problems.first().library, QStringLiteral("cudnn_graph64_9.dll"));
        QVERIFY(!walk.problems.first().delayLoaded);
    }

    void cyclesTerminate()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString bin = QStringLiteral("C:\\cycle");
        sandbox.write(bin + QStringLiteral("\\a.dll"), dll({"b.dll", "a.dll"}, {"c.dll"}));
        sandbox.write(bin + QStringLiteral("\\b.dll"), dll({"c.dll", "A.DLL"}));
        sandbox.write(bin + QStringLiteral("\\c.dll"), dll({"b.dll", "d.dll"}, {"a.dll"}));
        sandbox.write(bin + QStringLiteral("\\d.dll"), dll({"d.dll", "c.dll"}));
        const DependencyWalk walk =
            walkDependencies(SystemContext::rooted(sandbox.root()), {bin + QStringLiteral("\\a.dll")}, {bin});
        QVERIFY2(walk.problems.isEmpty(), qPrintable(describe(walk)));
        QStringList names;
        for (const auto &entry : walk.resolved)
            names.append(entry.first);
        QCOMPARE(names,
                 (QStringList{QStringLiteral("b.dll"), QStringLiteral("c.dll"), QStringLiteral("d.dll")}));
    }

    void damagedDependencyIsUnreadable()
    {
        Sandbox sandbox;
        cudnn8Tree(sandbox);
        sandbox.write(kCudnnBin + QStringLiteral("\\zlibwapi.dll"), QByteArray("MZ but nothing else"));
        const SystemContext context = SystemContext::rooted(sandbox.root());
        const DependencyWalk walk = walkDependencies(context, {kCudnn8}, {kCudnnBin, kCudaBin});
        QCOMPARE(walk.problems.size(), 1);
        QCOMPARE(walk.problems.first().kind, DependencyProblem::Kind::Unreadable);
        QVERIFY(context.paths().equal(walk.problems.first().foundAt,
                                      kCudnnBin + QStringLiteral("\\zlibwapi.dll")));
    }

    void problemJsonRoundTrip()
    {
        DependencyProblem problem;
        problem.kind = DependencyProblem::Kind::WrongArchitecture;
        problem.library = QStringLiteral("zlibwapi.dll");
        problem.neededBy = kCudnn8;
        problem.delayLoaded = true;
        problem.foundAt = QStringLiteral("C:\\tools\\zlibwapi.dll");
        problem.machine = QStringLiteral("x86");
        problem.searched = QStringList{QStringLiteral("C:\\Windows\\System32"), QStringLiteral("C:\\tools")};
        const QJsonObject json = problem.toJson();
        QCOMPARE(json.value(QStringLiteral("kind")).toString(), QStringLiteral("wrong-architecture"));
        const DependencyProblem back = DependencyProblem::fromJson(json);
        QCOMPARE(back.kind, problem.kind);
        QCOMPARE(back.library, problem.library);
        QCOMPARE(back.neededBy, problem.neededBy);
        QCOMPARE(back.delayLoaded, problem.delayLoaded);
        QCOMPARE(back.foundAt, problem.foundAt);
        QCOMPARE(back.machine, problem.machine);
        QCOMPARE(back.searched, problem.searched);
        for (auto kind : {DependencyProblem::Kind::Missing, DependencyProblem::Kind::Unreadable}) {
            problem.kind = kind;
            QCOMPARE(DependencyProblem::fromJson(problem.toJson()).kind, kind);
        }
    }

    // ---- Linux: the real cuDNN ----------------------------------------------------------------

    void realCudnnWalksClean()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "walks the libraries this Linux host loads");
        const QStringList libraries = realCudnnLibraries();
        if (libraries.isEmpty())
            QSKIP("cuDNN 9 is not installed in /usr/local/cuda-13.0");
        const SystemContext context = SystemContext::running();
        const DependencyWalk walk = walkDependencies(context, libraries, {});
        QVERIFY2(walk.problems.isEmpty(), qPrintable(describe(walk)));
        QVERIFY(isResolved(walk, QStringLiteral("libz.so.1")));
        QVERIFY(isResolved(walk, QStringLiteral("libstdc++.so.6")));

        // The loader itself agrees on every file it picks.
        int compared = 0;
        for (const QString &library : libraries) {
            for (const auto &[name, path] : ldd(library)) {
                if (!isResolved(walk, name))
                    continue; // a root of the walk, loaded by path
                QCOMPARE(QFileInfo(resolvedPath(walk, name)).canonicalFilePath(),
                         QFileInfo(path).canonicalFilePath());
                ++compared;
            }
        }
        if (compared == 0)
            QSKIP("ldd is not available to compare with");
    }

    // A copy of libcudnn_cnn.so.9 in another tree with everything it needs but libcudnn_ops.so.9.
    void missingNeededLibraryIsNamed()
    {
        SKIP_UNLESS_HOST(OsFamily::Linux, "the tree is made from what this Linux host loads");
        const QString cnn = kCudnnLib + QStringLiteral("/libcudnn_cnn.so.9");
        if (!QFileInfo::exists(cnn))
            QSKIP("cuDNN 9 is not installed in /usr/local/cuda-13.0");
        const DependencyWalk real = walkDependencies(SystemContext::running(), {cnn}, {});
        QVERIFY2(real.problems.isEmpty(), qPrintable(describe(real)));

        Sandbox sandbox;
        const QString folder = QStringLiteral("/opt/cudnn/lib");
        const QString copy = folder + QStringLiteral("/libcudnn_cnn.so.9");
        sandbox.copyFrom(cnn, copy);
        for (const auto &[name, path] : real.resolved) {
            if (name == QLatin1String("libcudnn_ops.so.9"))
                continue;
            // cuDNN's own libraries beside the copy, where its RUNPATH ($ORIGIN) finds them.
            const bool besideCnn = QFileInfo(path).path() == kCudnnLib;
            sandbox.copyFrom(QFileInfo(path).canonicalFilePath(),
                             besideCnn ? folder + QLatin1Char('/') + name : path);
        }
        const SystemContext context = SystemContext::rooted(sandbox.root());
        QCOMPARE(context.family(), OsFamily::Linux);

        const DependencyWalk walk = walkDependencies(context, {copy}, {});
        QCOMPARE(walk.problems.size(), 1);
        const DependencyProblem &problem = walk.problems.first();
        QCOMPARE(problem.kind, DependencyProblem::Kind::Missing);
        QCOMPARE(problem.library, QStringLiteral("libcudnn_ops.so.9"));
        QCOMPARE(problem.neededBy, copy);
        // RUNPATH ($ORIGIN first), then the loader's own folders (this tree has no ld.so.conf).
        QCOMPARE(problem.searched.mid(0, 4),
                 (QStringList{folder, QStringLiteral("/opt/cublas/lib"),
                              QStringLiteral("/opt/cuda_nvrtc/lib"), QStringLiteral("/opt/cu13/lib")}));
        QVERIFY(problem.searched.contains(QStringLiteral("/lib/x86_64-linux-gnu")));
        QCOMPARE(resolvedPath(walk, QStringLiteral("libcudnn_graph.so.9")),
                 folder + QStringLiteral("/libcudnn_graph.so.9"));

        // LD_LIBRARY_PATH comes before RUNPATH: a 32-bit file there is passed over, and as the only
        // one of that name it is what the loader complains about.
        const QString elf32 = QStringLiteral("/lib32/libm.so.6");
        if (!QFileInfo::exists(elf32))
            QSKIP("no 32-bit library on this machine to stand in for a wrong-class file");
        const QString other = QStringLiteral("/opt/i386");
        sandbox.copyFrom(elf32, other + QStringLiteral("/libcudnn_ops.so.9"));
        const DependencyWalk wrong = walkDependencies(context, {copy}, {other});
        QCOMPARE(wrong.problems.size(), 1);
        QCOMPARE(wrong.problems.first().kind, DependencyProblem::Kind::WrongArchitecture);
        QCOMPARE(wrong.problems.first().machine, QStringLiteral("x86"));
        QCOMPARE(wrong.problems.first().foundAt, other + QStringLiteral("/libcudnn_ops.so.9"));
        QCOMPARE(wrong.problems.first().searched.first(), other);

        // Not a library at all: the loader stops there.
        sandbox.write(folder + QStringLiteral("/libcudnn_ops.so.9"), QByteArray("not an ELF file\n"));
        const DependencyWalk damaged = walkDependencies(context, {copy}, {});
        QCOMPARE(damaged.problems.size(), 1);
        QCOMPARE(damaged.problems.first().kind, DependencyProblem::Kind::Unreadable);
        QCOMPARE(damaged.problems.first().foundAt, folder + QStringLiteral("/libcudnn_ops.so.9"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestDependencyWalker)
#include "tst_dependencywalker.moc"
