// Writes the seed corpora of the fuzz targets into <folder>/<target>/: inputs the test tools build
// in the shapes the program meets (NVIDIA's archive layouts, PE images with imports and a version
// resource, an ELF program of this build, the nvidia-smi outputs of the fixtures, a journal, a
// receipt, an answer file), so the fuzzer starts from the paths real input takes.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "PeImage.h"
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
#include "TarWriter.h"
#endif
#include "ZipWriter.h"
#include "install/Journal.h"
#include "install/Receipt.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

using namespace cudnnsetup;

namespace {

bool writeSeed(const QString &folder, const QString &name, const QByteArray &bytes)
{
    QDir().mkpath(folder);
    QFile file(QDir(folder).filePath(name));
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
// NVIDIA's Linux archive as a plain tar (what the fuzzer can change usefully; xz hides the headers)
// and as it is published, and libarchive's own hostile tars of the fixtures.
QMap<QString, QByteArray> tarSeeds()
{
    const QList<TarEntry> entries =
        archives::linuxTarEntries(QStringLiteral("9.19.0.56"), QStringLiteral("13"));
    QMap<QString, QByteArray> seeds;
    seeds[QStringLiteral("9.19.tar")] = tarwriter::write(entries, false);
    seeds[QStringLiteral("9.19.tar.xz")] = tarwriter::write(entries);
    const QDir hostile(BuildPaths::fixtures() + QStringLiteral("/libarchive"));
    for (const QString &name : hostile.entryList({QStringLiteral("*.tar")}, QDir::Files))
        seeds[QStringLiteral("libarchive-") + name] = fileBytes(hostile.filePath(name));
    return seeds;
}
#endif

QMap<QString, QByteArray> archiveSeeds()
{
    QMap<QString, QByteArray> seeds;
    seeds[QStringLiteral("9.1.zip")] = archives::windowsZip(QStringLiteral("9.1.0.70"), QStringLiteral("12"));
    seeds[QStringLiteral("8.9.7.zip")] =
        archives::windowsZip(QStringLiteral("8.9.7.29"), QStringLiteral("12"));
    seeds[QStringLiteral("9.18-x64.zip")] =
        archives::windowsZip(QStringLiteral("9.18.0.77"), QStringLiteral("13"));
    QList<ZipWriter::Entry> zip64 = archives::entriesOf(
        archives::windowsFiles(QStringLiteral("9.1.0.70"), QStringLiteral("12")), QStringLiteral("9.1.0"));
    for (ZipWriter::Entry &entry : zip64)
        entry.zip64 = true;
    seeds[QStringLiteral("9.1-zip64.zip")] = ZipWriter(zip64).finish();
    seeds[QStringLiteral("hostile.zip")] =
        ZipWriter({ZipWriter::Entry::file("../../evil.dll", peimage::x64Dll()),
                   ZipWriter::Entry::symlink("cuda/bin/link", "/etc/passwd"),
                   ZipWriter::Entry::file("cuda/include/cudnn.h", "x", 0)})
            .finish();
    return seeds;
}

QMap<QString, QByteArray> peSeeds()
{
    peimage::ImageSpec full;
    full.imports = {"KERNEL32.dll", "zlibwapi.dll", "cudart64_12.dll"};
    full.delayImports = {"cudnn_graph64_9.dll"};
    full.fileVersion = {9, 1, 0, 70};
    full.productVersion = {9, 1, 0, 70};
    full.certificate = QByteArray(64, '\x5a');
    return {{QStringLiteral("x64.dll"), peimage::x64Dll()},
            {QStringLiteral("x86.dll"), peimage::dllFor(PeInfo::I386)},
            {QStringLiteral("full.dll"), peimage::buildImage(full).bytes}};
}

QMap<QString, QByteArray> toolOutputSeeds()
{
    QMap<QString, QByteArray> seeds;
    const QDir smi(BuildPaths::fixtures() + QStringLiteral("/nvidia-smi"));
    for (const QString &name : smi.entryList(QDir::Files))
        seeds[QStringLiteral("smi-") + name] = fileBytes(smi.filePath(name));
    seeds[QStringLiteral("cudnn_version.h")] = archives::versionHeader(QStringLiteral("9.19.0"));
    seeds[QStringLiteral("version.json")] = R"({"cuda": {"name": "CUDA SDK", "version": "13.0.2"}})";
    seeds[QStringLiteral("nvcc.txt")] =
        "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release "
        "13.0, V13.0.88\nBuild cuda_13.0.r13.0/compiler.36424714_0\n";
    return seeds;
}

QMap<QString, QByteArray> pathSeeds()
{
    return {{QStringLiteral("windows.txt"),
             "%SystemRoot%\\system32;\"C:\\Program "
             "Files\\NVIDIA\\CUDNN\\v9.1\\bin\";C:\\Tools;;C:\\CUDA\\v12.2\\bin\\"},
            {QStringLiteral("linux.txt"), "/usr/local/cuda/lib64::$HOME/lib:/opt/cudnn/lib/"}};
}

QMap<QString, QByteArray> stateFileSeeds(const QString &scratch)
{
    QMap<QString, QByteArray> seeds;
    Receipt receipt;
    receipt.id = QStringLiteral("cudnn-9.1.0.70-cuda12-20261202-120000-000");
    receipt.files.append(
        {QStringLiteral("C:\\cudnn\\bin\\cudnn64_9.dll"), QString(64, QLatin1Char('a')), 1234,
         QStringLiteral("C:\\ProgramData\\cuDNN Setup\\receipts\\x\\replaced\\0-cudnn64_9.dll")});
    seeds[QStringLiteral("receipt.json")] = QJsonDocument(receipt.toJson()).toJson();
    const QString journalPath = scratch + QStringLiteral("/install.journal");
    QFile::remove(journalPath);
    if (Expected<Journal> created = Journal::create(journalPath, {{QStringLiteral("id"), receipt.id}})) {
        Journal &journal = created.value();
        (void)journal.begin(0, QStringLiteral("make-directory"),
                            {{QStringLiteral("path"), QStringLiteral("C:/cudnn")}});
        (void)journal.state(0, {{QStringLiteral("made"), QJsonArray{QStringLiteral("C:/cudnn")}}});
        (void)journal.done(0);
        (void)journal.commit();
    }
    seeds[QStringLiteral("install.journal")] = fileBytes(journalPath);
    seeds[QStringLiteral("answers.ini")] = "[setup]\naction=install\narchive=cudnn.zip\ntarget=toolkit:12.2\n"
                                           "path=system\nif_in_use=fail\nverify=true\nlog=setup.log\n";
    return seeds;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_seeds FOLDER\n");
        return 2;
    }
    const QString root = QString::fromLocal8Bit(argv[1]);
    QDir().mkpath(root);
    QMap<QString, QMap<QString, QByteArray>> corpora{
        {QStringLiteral("fuzz_archive"), archiveSeeds()},
        {QStringLiteral("fuzz_pe"), peSeeds()},
        {QStringLiteral("fuzz_elf"),
         {{QStringLiteral("standin_tool"), fileBytes(BuildPaths::standinTool())}}},
        {QStringLiteral("fuzz_tool_output"), toolOutputSeeds()},
        {QStringLiteral("fuzz_path"), pathSeeds()},
        {QStringLiteral("fuzz_state_files"), stateFileSeeds(root)},
    };
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
    corpora.insert(QStringLiteral("fuzz_tar"), tarSeeds());
#endif
    for (auto corpus = corpora.cbegin(); corpus != corpora.cend(); ++corpus) {
        for (auto seed = corpus->cbegin(); seed != corpus->cend(); ++seed) {
            if (seed->isEmpty() || !writeSeed(root + QLatin1Char('/') + corpus.key(), seed.key(), *seed)) {
                std::fprintf(stderr, "fuzz_seeds: %s/%s could not be made\n", qPrintable(corpus.key()),
                             qPrintable(seed.key()));
                return 1;
            }
        }
    }
    return 0;
}
