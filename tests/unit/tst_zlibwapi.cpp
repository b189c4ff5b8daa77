#include "Cudnnctl.h"
#include "Suite.h"
#include "install/Zlibwapi.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#ifdef Q_OS_WIN
#include <windows.h>
#endif

#include <zlib.h>

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include "MemoryRegistry.h"
#include "PeImage.h"
#include "Sandbox.h"
#include "SystemTrees.h"
#include "ZipWriter.h"
#include "platform/Sha256.h"

using namespace cudnnsetup;
using namespace peimage;

namespace {

// ---- Exports, read the way the loader does: the tests cannot run objdump under Wine -------------

quint16 le16(const QByteArray &data, qint64 at)
{
    return at >= 0 && at + 2 <= data.size() ? qFromLittleEndian<quint16>(data.constData() + at) : 0;
}

quint32 le32(const QByteArray &data, qint64 at)
{
    return at >= 0 && at + 4 <= data.size() ? qFromLittleEndian<quint32>(data.constData() + at) : 0;
}

struct ExportTable
{
    QString dllName;
    QStringList names;
};

std::optional<ExportTable> exportTable(const QByteArray &pe)
{
    const qint64 nt = le32(pe, 0x3c);
    if (!pe.startsWith("MZ") || pe.mid(nt, 4) != QByteArrayLiteral("PE\0\0"))
        return std::nullopt;
    const qint64 coff = nt + 4;
    const int sections = le16(pe, coff + 2);
    const qint64 optional = coff + 20;
    const qint64 optionalSize = le16(pe, coff + 16);
    const bool pe32Plus = le16(pe, optional) == 0x20b;
    const qint64 directories = optional + (pe32Plus ? 112 : 96);
    const quint32 exportRva = le32(pe, directories);
    if (exportRva == 0)
        return std::nullopt;
    const qint64 table = optional + optionalSize;
    const auto offsetOf = [&](quint32 rva) -> qint64 {
        for (int i = 0; i < sections; ++i) {
            const qint64 at = table + 40 * i;
            const quint32 va = le32(pe, at + 12);
            const quint32 size = std::max(le32(pe, at + 8), le32(pe, at + 16));
            if (rva >= va && rva < va + size)
                return qint64(le32(pe, at + 20)) + (rva - va);
        }
        return -1;
    };
    const auto stringAt = [&](quint32 rva) {
        const qint64 at = offsetOf(rva);
        if (at < 0 || at >= pe.size())
            return QString();
        const qsizetype end = pe.indexOf('\0', at);
        return QString::fromLatin1(pe.mid(at, end < 0 ? -1 : end - at));
    };
    const qint64 directory = offsetOf(exportRva);
    if (directory < 0)
        return std::nullopt;
    ExportTable result;
    result.dllName = stringAt(le32(pe, directory + 12));
    const quint32 count = le32(pe, directory + 24);
    const qint64 namePointers = offsetOf(le32(pe, directory + 32));
    if (namePointers < 0 || count > 65536)
        return std::nullopt;
    for (quint32 i = 0; i < count; ++i)
        result.names.append(stringAt(le32(pe, namePointers + 4 * i)));
    return result;
}

// ---- DLL images ----------------------------------------------------------------------------------

QList<QByteArray> latin1(const QStringList &names)
{
    QList<QByteArray> result;
    for (const QString &name : names)
        result.append(name.toLatin1());
    return result;
}

// The image with `shift` bytes of noise after the headers and every section moved back by as much:
// the import table then lies far beyond the first 64 KiB, as in a real cuDNN DLL, and the noise
// does not deflate away, so a stream has to inflate it all to get there.
QByteArray pushedBack(const Image &image, int shift)
{
    QByteArray noise(shift, Qt::Uninitialized);
    QRandomGenerator generator(20261130);
    for (char &c : noise)
        c = char(generator.bounded(256));
    QByteArray bytes = image.bytes;
    const int sections = le16(bytes, image.coff + 2);
    const int table = image.optional + le16(bytes, image.coff + 16);
    for (int i = 0; i < sections; ++i) {
        const int field = table + 40 * i + 20;
        qToLittleEndian<quint32>(le32(bytes, field) + quint32(shift), bytes.data() + field);
    }
    bytes.insert(image.rdataRaw, noise);
    return bytes;
}

QByteArray dllImporting(const QStringList &imports, const QStringList &delayImports, int shift = 0)
{
    ImageSpec spec;
    spec.imports = latin1(imports);
    spec.delayImports = latin1(delayImports);
    spec.fileVersion = {8, 9, 7, 29};
    spec.productVersion = {8, 9, 7, 29};
    const Image image = buildImage(spec);
    return shift > 0 ? pushedBack(image, shift) : image.bytes;
}

// An entry stream over bytes in memory, in small reads, counting what is read; it fails at
// `failAt` when that is set.
class MemoryStream final : public ZipEntryStream
{
public:
    MemoryStream(QByteArray data, qint64 *counter, qint64 failAt)
        : m_data(std::move(data))
        , m_counter(counter)
        , m_failAt(failAt)
    {
    }
    qint64 read(char *data, qint64 maxSize) override
    {
        if (m_failAt >= 0 && m_position >= m_failAt)
            return -1;
        qint64 count = std::min<qint64>({maxSize, m_data.size() - m_position, 7000});
        if (m_failAt >= 0)
            count = std::min(count, m_failAt - m_position);
        std::memcpy(data, m_data.constData() + m_position, size_t(count));
        m_position += count;
        *m_counter += count;
        return count;
    }
    bool crcMatches() const override { return true; }
    QString errorString() const override { return QStringLiteral("invalid stored block lengths"); }

private:
    QByteArray m_data;
    qint64 m_position = 0;
    qint64 *m_counter;
    qint64 m_failAt;
};

struct StreamStats
{
    qint64 bytes = 0;
    int opens = 0;
};

DllImage memoryStream(const QString &name, const QByteArray &data, const std::shared_ptr<StreamStats> &stats,
                      qint64 failAt = -1)
{
    return DllImage::fromStream(name, [data, stats, failAt]() -> Expected<std::unique_ptr<ZipEntryStream>> {
        ++stats->opens;
        return std::unique_ptr<ZipEntryStream>(std::make_unique<MemoryStream>(data, &stats->bytes, failAt));
    });
}

SystemContext windowsContext(const Sandbox &sandbox, const QString &path,
                             std::shared_ptr<Registry> registry = Registry::unavailable())
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), path);
    environment.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
    return SystemContext(FileSystem(OsFamily::Windows, sandbox.root()),
                         EnvironmentStore(OsFamily::Windows, environment, registry), registry,
                         std::make_shared<ProcessRunner>(), std::make_shared<LibraryLoader>());
}

QStringList lower(const QStringList &list)
{
    QStringList result;
    for (const QString &item : list)
        result.append(item.toLower());
    return result;
}

// "(none)" for nullopt, so QCOMPARE prints what was found.
QString found(const std::optional<QString> &path)
{
    return path.value_or(QStringLiteral("(none)"));
}

const QString kCudnnBin = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin");

} // namespace

class TestZlibwapi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- The DLL the build made ----------------------------------------------------------------

    void embeddedDllIsA64BitDll()
    {
#ifndef CUDNNSETUP_HAVE_ZLIBWAPI
        QVERIFY(!embeddedZlibwapiAvailable());
        QVERIFY(embeddedZlibwapi().isEmpty());
        QVERIFY(embeddedZlibwapiSha256().isEmpty());
        QSKIP("built without MinGW-w64 and its zlib: no zlibwapi.dll embedded");
#endif
        QVERIFY(embeddedZlibwapiAvailable());
        const QByteArray dll = embeddedZlibwapi();
        QVERIFY(dll.size() > 32 * 1024);
        const Expected<PeInfo> pe = pe::read(bufferSource(dll));
        QVERIFY2(pe.ok(), qPrintable(pe.error().details));
        QCOMPARE(pe->machine, quint16(PeInfo::Amd64));
        QVERIFY(pe->pe32Plus);
        QVERIFY(pe->isDll);
        QVERIFY2(pe->warnings.isEmpty(), qPrintable(findingIds(pe->warnings).join(QStringLiteral(", "))));
        // Nothing beyond Windows itself and its C runtime: libgcc is linked in.
        QCOMPARE(lower(pe->imports),
                 (QStringList{QStringLiteral("kernel32.dll"), QStringLiteral("msvcrt.dll")}));
        QVERIFY(pe->delayImports.isEmpty());
        // The version resource carries zlib's version.
        QVERIFY(pe->fileVersion.isValid());
        QCOMPARE(pe->fileVersion.major(), 1);
#ifdef Q_OS_WIN
        // The Windows build's zlib.h is the one the DLL was built from.
        QCOMPARE(pe->fileVersion.toString().section(QLatin1Char('.'), 0, 2),
                 QString::fromLatin1(ZLIB_VERSION).section(QLatin1Char('.'), 0, 2));
#endif
        // It imports no zlibwapi.dll itself.
        QVERIFY(dllsImportingZlibwapi({DllImage::fromBuffer(QStringLiteral("zlibwapi.dll"), dll)}).isEmpty());
    }

    void embeddedDllHasItsSha256()
    {
        if (!embeddedZlibwapiAvailable())
            QSKIP("no zlibwapi.dll embedded");
        const QString sha = embeddedZlibwapiSha256();
        QCOMPARE(sha.size(), 64);
        QCOMPARE(sha, Sha256::of(embeddedZlibwapi()));
        QCOMPARE(sha, sha.toLower());
        QCOMPARE(embeddedZlibwapiSha256(), sha); // the same on every call
        QFile resource(QString::fromLatin1(kZlibwapiResource));
        QVERIFY(resource.open(QIODevice::ReadOnly));
        QCOMPARE(resource.readAll(), embeddedZlibwapi());
    }

    void embeddedDllExportsTheZlibApi()
    {
        if (!embeddedZlibwapiAvailable())
            QSKIP("no zlibwapi.dll embedded");
        const std::optional<ExportTable> exports = exportTable(embeddedZlibwapi());
        QVERIFY(exports);
        QCOMPARE(exports->dllName, QStringLiteral("zlibwapi.dll"));
        for (const char *name : {"zlibVersion",
                                 "zError",
                                 "zlibCompileFlags",
                                 "deflate",
                                 "deflateInit_",
                                 "deflateInit2_",
                                 "deflateEnd",
                                 "deflateBound",
                                 "deflateReset",
                                 "deflateParams",
                                 "deflateSetDictionary",
                                 "inflate",
                                 "inflateInit_",
                                 "inflateInit2_",
                                 "inflateEnd",
                                 "inflateReset",
                                 "inflateReset2",
                                 "inflateBack",
                                 "inflateBackInit_",
                                 "inflateSync",
                                 "compress",
                                 "compress2",
                                 "compressBound",
                                 "uncompress",
                                 "uncompress2",
                                 "crc32",
                                 "crc32_z",
                                 "crc32_combine",
                                 "adler32",
                                 "adler32_z",
                                 "adler32_combine",
                                 "get_crc_table",
                                 "gzopen",
                                 "gzopen_w",
                                 "gzdopen",
                                 "gzread",
                                 "gzwrite",
                                 "gzprintf",
                                 "gzgets",
                                 "gzputs",
                                 "gzclose",
                                 "gzerror",
                                 "gzseek",
                                 "gztell",
                                 "gzeof"})
            QVERIFY2(exports->names.contains(QLatin1String(name)), name);
        // zlib's internals stay inside.
        for (const QString &name : exports->names) {
            QVERIFY2(!name.startsWith(QLatin1Char('_')) && name != QLatin1String("inflate_fast") &&
                         name != QLatin1String("zcalloc") && name != QLatin1String("gz_error"),
                     qPrintable(name));
        }
        // The zlib API as zlib's own zlibvc.def lists it, less nothing this zlib defines.
        QVERIFY2(exports->names.size() >= 85, qPrintable(QString::number(exports->names.size())));
        QVERIFY(std::is_sorted(exports->names.cbegin(), exports->names.cend())); // the loader's binary search
    }

    void embeddedDllWorksUnderWindows()
    {
#ifndef Q_OS_WIN
        QSKIP("loading a Windows DLL needs Windows (the MinGW build runs this under Wine)");
#else
        if (!embeddedZlibwapiAvailable())
            QSKIP("no zlibwapi.dll embedded");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = QDir::toNativeSeparators(dir.filePath(QStringLiteral("zlibwapi.dll")));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write(embeddedZlibwapi()), embeddedZlibwapi().size());
        }
        HMODULE module = LoadLibraryW(reinterpret_cast<const wchar_t *>(path.utf16()));
        QVERIFY2(module, qPrintable(QStringLiteral("LoadLibrary: error %1").arg(GetLastError())));
        const auto symbol = [module](const char *name) {
            return reinterpret_cast<void *>(GetProcAddress(module, name));
        };
        const auto version = reinterpret_cast<decltype(&::zlibVersion)>(symbol("zlibVersion"));
        const auto bound = reinterpret_cast<decltype(&::compressBound)>(symbol("compressBound"));
        const auto pack = reinterpret_cast<decltype(&::compress2)>(symbol("compress2"));
        const auto unpack = reinterpret_cast<decltype(&::uncompress)>(symbol("uncompress"));
        const auto crc = reinterpret_cast<decltype(&::crc32)>(symbol("crc32"));
        QVERIFY(version && bound && pack && unpack && crc);
        QCOMPARE(QByteArray(version()), QByteArray(ZLIB_VERSION));

        QByteArray input;
        for (int i = 0; i < 2000; ++i)
            input += "cuDNN 8.9.7 needs zlibwapi.dll; ";
        QByteArray packed(int(bound(uLong(input.size()))), '\0');
        uLongf packedSize = uLongf(packed.size());
        QCOMPARE(pack(reinterpret_cast<Bytef *>(packed.data()), &packedSize,
                      reinterpret_cast<const Bytef *>(input.constData()), uLong(input.size()), 9),
                 Z_OK);
        QVERIFY(packedSize < uLongf(input.size()) / 10);
        QByteArray unpacked(input.size(), '\0');
        uLongf unpackedSize = uLongf(unpacked.size());
        QCOMPARE(unpack(reinterpret_cast<Bytef *>(unpacked.data()), &unpackedSize,
                        reinterpret_cast<const Bytef *>(packed.constData()), packedSize),
                 Z_OK);
        QCOMPARE(qsizetype(unpackedSize), input.size());
        QCOMPARE(unpacked, input);
        QCOMPARE(crc(0, reinterpret_cast<const Bytef *>("123456789"), 9), 0xcbf43926ul);
        QVERIFY(FreeLibrary(module));
#endif
    }

    // ---- Which DLLs import it ------------------------------------------------------------------

    void detectsImports_data()
    {
        QTest::addColumn<QStringList>("imports");
        QTest::addColumn<QStringList>("delayImports");
        QTest::addColumn<bool>("needs");
        const QStringList none;
        const QStringList runtime = {QStringLiteral("KERNEL32.dll"), QStringLiteral("cudart64_110.dll")};
        QTest::newRow("imports zlibwapi.dll")
            << QStringList{QStringLiteral("cudnn_ops_infer64_8.dll"), QStringLiteral("zlibwapi.dll"),
                           QStringLiteral("KERNEL32.dll")}
            << QStringList{QStringLiteral("cublasLt64_11.dll")} << true;
        QTest::newRow("delay-imports zlibwapi.dll")
            << runtime << QStringList{QStringLiteral("cublas64_11.dll"), QStringLiteral("zlibwapi.dll")}
            << true;
        QTest::newRow("imports neither")
            << runtime << QStringList{QStringLiteral("cublasLt64_11.dll")} << false;
        QTest::newRow("no imports at all") << none << none << false;
        QTest::newRow("mixed case") << QStringList{QStringLiteral("KERNEL32.dll"),
                                                   QStringLiteral("ZlibWAPI.DLL")}
                                    << none << true;
        QTest::newRow("mixed case, delayed")
            << runtime << QStringList{QStringLiteral("ZLIBWAPI.dll")} << true;
        QTest::newRow("no extension") << QStringList{QStringLiteral("zlibwapi")} << none << true;
        QTest::newRow("only like it")
            << QStringList{QStringLiteral("zlib1.dll"), QStringLiteral("zlibwapi64.dll"),
                           QStringLiteral("zlibwapi.dll.bak")}
            << none << false;
    }

    void detectsImports()
    {
        QFETCH(QStringList, imports);
        QFETCH(QStringList, delayImports);
        QFETCH(bool, needs);
        const QString name = QStringLiteral("bin/cudnn_cnn_infer64_8.dll");
        const QStringList expected = needs ? QStringList{name} : QStringList();

        // In memory, with the imports near the front.
        Findings findings;
        QCOMPARE(dllsImportingZlibwapi({DllImage::fromBuffer(name, dllImporting(imports, delayImports))},
                                       &findings),
                 expected);
        QVERIFY2(findings.isEmpty(), qPrintable(findingIds(findings).join(QStringLiteral(", "))));

        // A file of the inspected system, the imports 1 MiB in.
        const QByteArray pushed = dllImporting(imports, delayImports, 1024 * 1024 + 4321);
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const QString path = kCudnnBin + QStringLiteral("\\cudnn_cnn_infer64_8.dll");
        sandbox.write(path, pushed);
        const SystemContext context = windowsContext(sandbox, QString());
        QCOMPARE(dllsImportingZlibwapi({DllImage::fromFile(context, path)}, &findings),
                 needs ? QStringList{path} : QStringList());
        QVERIFY(findings.isEmpty());

        // A stream read front to back, in small reads: what the install engine gets from the zip.
        auto stats = std::make_shared<StreamStats>();
        QCOMPARE(dllsImportingZlibwapi({memoryStream(name, pushed, stats)}, &findings), expected);
        QVERIFY2(findings.isEmpty(), qPrintable(findingIds(findings).join(QStringLiteral(", "))));
        // On demand, not over and over: the headers, one pass for what they point at (the import
        // table, the end of the sections), at most one more for what that points at.
        QVERIFY2(stats->opens <= 3, qPrintable(QString::number(stats->opens)));
        QVERIFY2(stats->bytes <= 2 * pushed.size() + 256 * 1024, qPrintable(QString::number(stats->bytes)));
    }

    void detectsImportsInsideAZip_data()
    {
        QTest::addColumn<ZipSource::Backend>("backend");
        for (const ZipSource::Backend backend : ZipSource::backends())
            QTest::newRow(qPrintable(ZipSource::backendName(backend))) << backend;
    }

    void detectsImportsInsideAZip()
    {
        QFETCH(ZipSource::Backend, backend);
        // An 8.9-like archive: three DLLs, two of which need zlib (one through a delay import).
        const QStringList runtime = {QStringLiteral("KERNEL32.dll")};
        const int pushed = 3 * 1024 * 1024 + 17;
        ZipWriter writer;
        const QByteArray root = "cudnn-windows-x86_64-8.9.7.29_cuda12-archive/";
        writer.add(
            ZipWriter::Entry::file(root + "include/cudnn_version.h", trees::cudnnVersionHeader(8, 9, 7)));
        writer.add(ZipWriter::Entry::file(root + "bin/cudnn64_8.dll", dllImporting(runtime, {})));
        writer.add(ZipWriter::Entry::file(
            root + "bin/cudnn_ops_infer64_8.dll",
            dllImporting({QStringLiteral("KERNEL32.dll"), QStringLiteral("zlibwapi.dll")}, {}, pushed)));
        ZipWriter::Entry stored = ZipWriter::Entry::file(
            root + "bin/cudnn_cnn_infer64_8.dll",
            dllImporting(runtime, {QStringLiteral("cublasLt64_12.dll"), QStringLiteral("zlibwapi.dll")},
                         pushed),
            0);
        writer.add(stored);
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/archive.zip"), writer.finish());

        Expected<std::unique_ptr<ZipSource>> source =
            ZipSource::open(sandbox.hostPath(QStringLiteral("/archive.zip")), backend);
        QVERIFY2(source.ok(), qPrintable(source.error().details));
        ZipSource &zip = *source.value();
        QList<DllImage> dlls;
        for (const ZipEntry &entry : zip.entries()) {
            const QString name = QString::fromUtf8(entry.rawName);
            if (name.endsWith(QLatin1String(".dll")))
                dlls.append(DllImage::fromZipEntry(zip, entry.index, name));
        }
        QCOMPARE(dlls.size(), 3);
        Findings findings;
        const QStringList importers = dllsImportingZlibwapi(dlls, &findings);
        QCOMPARE(importers, (QStringList{QString::fromLatin1(root + "bin/cudnn_ops_infer64_8.dll"),
                                         QString::fromLatin1(root + "bin/cudnn_cnn_infer64_8.dll")}));
        QVERIFY2(findings.isEmpty(), qPrintable(findingIds(findings).join(QStringLiteral(", "))));
        // The source is still good for the extraction that follows.
        auto header = zip.openEntry(0);
        QVERIFY(header.ok());
    }

    void dllsThatCannotBeReadAreNamed()
    {
        const QByteArray good = dllImporting({QStringLiteral("zlibwapi.dll")}, {}, 200 * 1024);
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        const SystemContext context = windowsContext(sandbox, QString());
        auto stats = std::make_shared<StreamStats>();
        // A stream that breaks before the imports; garbage; a file that is not there; a good one.
        const QList<DllImage> dlls = {
            memoryStream(QStringLiteral("bin/broken.dll"), good, stats, 150 * 1024),
            DllImage::fromBuffer(QStringLiteral("bin/garbage.dll"), QByteArray(4096, 'x')),
            DllImage::fromFile(context, kCudnnBin + QStringLiteral("\\missing.dll")),
            DllImage::fromBuffer(QStringLiteral("bin/good.dll"), good),
        };
        Findings findings;
        QCOMPARE(dllsImportingZlibwapi(dlls, &findings), QStringList{QStringLiteral("bin/good.dll")});
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("zlibwapi.imports-unread")});
        const Finding &unread = findings.first();
        QCOMPARE(unread.severity, Severity::Warning);
        QVERIFY(unread.message.toEnglish().contains(QLatin1String("bin/broken.dll")));
        QVERIFY2(unread.details.contains(QLatin1String("invalid stored block lengths")),
                 qPrintable(unread.details));
        QVERIFY(unread.details.contains(QLatin1String("bin/garbage.dll: pe.not-pe")));
        QVERIFY(unread.details.contains(QLatin1String("missing.dll cannot be opened")));
        QVERIFY(!unread.details.contains(QLatin1String("good.dll")));

        // A DLL cut inside its import table: what was read still counts, and the cut is reported.
        const QByteArray cut =
            dllImporting({QStringLiteral("zlibwapi.dll"), QStringLiteral("KERNEL32.dll")}, {});
        findings.clear();
        QVERIFY(dllsImportingZlibwapi(
                    {DllImage::fromBuffer(QStringLiteral("bin/cut.dll"), cut.left(0x400 + 20))}, &findings)
                    .isEmpty());
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("zlibwapi.imports-unread")});
    }

    void unavailableIsAnError()
    {
        const Finding finding = zlibwapiUnavailable({QStringLiteral("bin/cudnn_ops_infer64_8.dll")});
        QCOMPARE(finding.id, QStringLiteral("zlibwapi.unavailable"));
        QCOMPARE(finding.severity, Severity::Error);
        QVERIFY(finding.message.toEnglish().contains(QLatin1String("bin/cudnn_ops_infer64_8.dll")));
        QVERIFY(!finding.fix.isEmpty());
    }

    // ---- A copy already there ------------------------------------------------------------------

    void findsA64BitCopyInSystem32()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll"), x64Dll());
        sandbox.write(QStringLiteral("C:\\Tools\\zlibwapi.dll"), dllFor(PeInfo::I386)); // later on PATH
        const SystemContext context = windowsContext(sandbox, QStringLiteral("C:\\Tools"));
        Findings findings;
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)),
                 QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll"));
        QVERIFY(findings.isEmpty());
    }

    void a32BitCopyFoundFirstIsAFinding()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        sandbox.write(QStringLiteral("C:\\Tools\\x86\\zlibwapi.dll"), dllFor(PeInfo::I386));
        sandbox.write(QStringLiteral("C:\\Tools\\x64\\zlibwapi.dll"), x64Dll());
        const SystemContext context =
            windowsContext(sandbox, QStringLiteral("C:\\Tools\\x86;C:\\Tools\\x64"));
        Findings findings;
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)), QStringLiteral("(none)"));
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("zlibwapi.wrong-machine")});
        const Finding &finding = findings.first();
        QCOMPARE(finding.severity, Severity::Warning);
        const QString message = finding.message.toEnglish();
        QVERIFY2(message.contains(QLatin1String("C:\\Tools\\x86\\zlibwapi.dll")) &&
                     message.contains(QLatin1String("32-bit")) && message.contains(QLatin1String("x86")) &&
                     message.contains(QLatin1String("193")),
                 qPrintable(message));
        QVERIFY(!finding.fix.isEmpty());
    }

    void noCopyIsNullopt()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        sandbox.mkdir(kCudnnBin);
        sandbox.write(QStringLiteral("C:\\Tools\\zlib1.dll"), x64Dll());
        const SystemContext context = windowsContext(sandbox, QStringLiteral("C:\\Tools;relative\\dir"));
        Findings findings;
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)), QStringLiteral("(none)"));
        QVERIFY(findings.isEmpty());
    }

    void theDllFolderComesFirst()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        sandbox.write(kCudnnBin + QStringLiteral("\\ZLIBWAPI.DLL"), x64Dll()); // any case
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll"), dllFor(PeInfo::I386));
        const SystemContext context = windowsContext(sandbox, QString());
        Findings findings;
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)).toLower(),
                 (kCudnnBin + QStringLiteral("\\zlibwapi.dll")).toLower());
        QVERIFY(findings.isEmpty());

        // Without it there, System32's 32-bit copy is the one found.
        QVERIFY(QFile::remove(sandbox.hostPath(kCudnnBin + QStringLiteral("\\ZLIBWAPI.DLL"))));
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)), QStringLiteral("(none)"));
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("zlibwapi.wrong-machine")});
    }

    void thePathOfAFreshProgramCounts()
    {
        // The registry's PATH, not this process's: the x86 copy on the stale one does not matter.
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        sandbox.write(QStringLiteral("C:\\Stale\\zlibwapi.dll"), dllFor(PeInfo::I386));
        sandbox.write(QStringLiteral("C:\\Fresh\\zlibwapi.dll"), x64Dll());
        auto registry = std::make_shared<MemoryRegistry>();
        registry->setString(RegistryHive::LocalMachine,
                            EnvironmentStore::registryKey(EnvironmentScope::System), QStringLiteral("Path"),
                            QStringLiteral("%SystemRoot%\\System32;C:\\Fresh"), RegistryValue::ExpandString);
        const SystemContext context = windowsContext(sandbox, QStringLiteral("C:\\Stale"), registry);
        Findings findings;
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)),
                 QStringLiteral("C:\\Fresh\\zlibwapi.dll"));
        QVERIFY(findings.isEmpty());
    }

    void aFileThatIsNoDllIsAFinding()
    {
        Sandbox sandbox;
        trees::windowsSystem(sandbox);
        sandbox.write(QStringLiteral("C:\\Windows\\System32\\zlibwapi.dll"), "MZ");
        const SystemContext context = windowsContext(sandbox, QString());
        Findings findings;
        QCOMPARE(found(existingZlibwapi(context, kCudnnBin, &findings)), QStringLiteral("(none)"));
        QCOMPARE(findingIds(findings), QStringList{QStringLiteral("zlibwapi.invalid")});
    }

    void linuxTreesHaveNone()
    {
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/usr/lib/zlibwapi.dll"), x64Dll());
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/lib"));
        const SystemContext context(FileSystem(OsFamily::Linux, sandbox.root()),
                                    EnvironmentStore(OsFamily::Linux, environment, Registry::unavailable()),
                                    Registry::unavailable(), std::make_shared<ProcessRunner>(),
                                    std::make_shared<LibraryLoader>());
        QCOMPARE(found(existingZlibwapi(context, QStringLiteral("/usr/lib"))), QStringLiteral("(none)"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestZlibwapi)
#include "tst_zlibwapi.moc"
