#include "Sandbox.h"
#include "Suite.h"
#include "common/Translations.h"
#include "report/ReportFiles.h"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace cudnnsetup;

namespace {

// A receipt's target: its own folder at `root` (a Windows path unless it starts with '/').
InstallTarget folderTarget(const QString &root)
{
    InstallTarget target;
    target.kind = InstallTarget::Kind::Folder;
    target.family = root.startsWith(QLatin1Char('/')) ? OsFamily::Linux : OsFamily::Windows;
    target.root = root;
    target.binFolder = target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("bin");
    target.includeFolder = QStringLiteral("include");
    target.libFolder = target.family == OsFamily::Linux ? QStringLiteral("lib") : QStringLiteral("lib\\x64");
    return target;
}

// A folder name no HTML or XML may carry unescaped, with Chinese in it.
const QString kOddFolder = QStringLiteral("/home/张三/a<b&c/cudnn");
// A message with a zh_CN translation in translations/cudnn-setup_zh_CN.ts.
const char *const kTranslatedMessage = QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system.");
const QString kTranslatedMessageChinese = QStringLiteral("本系统中没有找到 cuDNN。");

ReportInput fixtureInput()
{
    ReportInput input;
    const auto snapshot = SystemSnapshot::fromJson(
        QJsonDocument::fromJson(
            Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/cudnnctl-detect.json")))
            .object());
    if (!snapshot)
        qFatal("fixture snapshot unreadable");
    input.snapshot = *snapshot;
    input.tool = QStringLiteral("cudnn-setup 0.1.0");
    input.createdAt = QDateTime(QDate(2026, 12, 1), QTime(8, 30), Qt::UTC);

    VerifyReport verify;
    verify.createdAt = input.createdAt;
    verify.directory = kOddFolder;
    verify.libraries = {QStringLiteral("libcudnn.so.9")};
    verify.subjectSource = QStringLiteral("detected");
    verify.cudnnVersion = QStringLiteral("9.19.0");
    verify.probe.loads = {
        {QStringLiteral("libcudnn.so.9"), kOddFolder + QStringLiteral("/libcudnn.so.9"), 0, QString(), 4}};
    VerifyStage load;
    load.id = QStringLiteral("load");
    load.status = VerifyStage::Status::Passed;
    load.message = Text(kTranslatedMessage);
    load.milliseconds = 4;
    VerifyStage handle;
    handle.id = QStringLiteral("handle");
    handle.status = VerifyStage::Status::Failed;
    handle.message = Text(QT_TRANSLATE_NOOP("cudnnsetup", "A GPU stopped responding to the driver."));
    handle.details = QStringLiteral("cudnnCreate: CUDNN_STATUS_NOT_INITIALIZED");
    handle.fix = Text(
        QT_TRANSLATE_NOOP("cudnnsetup", "Update the driver to the newest one NVIDIA offers for this GPU."));
    VerifyStage convolution;
    convolution.id = QStringLiteral("convolution");
    verify.stages = {load, handle, convolution};
    DependencyProblem missing;
    missing.library = QStringLiteral("libcublasLt.so.13");
    missing.neededBy = kOddFolder + QStringLiteral("/libcudnn_ops.so.9");
    missing.searched = {QStringLiteral("/usr/lib/x86_64-linux-gnu")};
    verify.dependencies.problems = {missing};
    input.verify = verify;

    Diagnosis diagnosis;
    diagnosis.finding = Finding::error(QStringLiteral("doctor.no-cudnn"), Text(kTranslatedMessage),
                                       QStringLiteral("searched: PATH"),
                                       Text(QT_TRANSLATE_NOOP("cudnnsetup", "Use a newer cuDNN release.")));
    diagnosis.failureMode = 3;
    Repair repair;
    repair.id = QStringLiteral("repair.move-aside");
    repair.summary = Text::verbatim(QStringLiteral("Move aside"));
    repair.preview = {
        Text::verbatim(kOddFolder + QStringLiteral(" -> ") + kOddFolder + QStringLiteral(".old"))};
    diagnosis.repair = repair;
    DoctorReport doctor;
    doctor.diagnoses = {diagnosis};
    input.doctor = doctor;

    Receipt receipt;
    receipt.id = QStringLiteral("20261201-083000-5f3a");
    receipt.created = QStringLiteral("2026-12-01T08:30:00Z");
    receipt.tool = input.tool;
    receipt.archive.cudnn = Version::parse(QStringLiteral("9.19.0.56"));
    receipt.archive.cudaVariant = QStringLiteral("13");
    receipt.archive.fileName = QStringLiteral("cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz");
    receipt.target = folderTarget(kOddFolder);
    receipt.files = {
        {kOddFolder + QStringLiteral("/lib/libcudnn.so.9"), QStringLiteral("ab"), 10, QString()}};
    input.receipts = {receipt};
    return input;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// What the page says, read as XML: headings' and Chinese spans' text, every text node, and the
// attributes that would fetch something from elsewhere.
struct ParsedPage
{
    QStringList headings;     // h1..h3, all their text
    QStringList chineseSpans; // elements with lang="zh-CN"
    QString allText;
    QStringList externalReferences; // src / href attributes, <script>, <link>
    QString verdict;                // the text of the verdict box
    QString error;
};

ParsedPage parse(const QByteArray &html)
{
    struct Element
    {
        bool heading = false;
        bool chinese = false;
        bool verdict = false;
    };
    ParsedPage page;
    QXmlStreamReader xml(html);
    QList<Element> open;
    int headings = 0, chineseSpans = 0, verdicts = 0;
    QString heading, chinese;
    static const QRegularExpression headingName(QStringLiteral("^h[1-3]$"));
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == QLatin1String("script") || xml.name() == QLatin1String("link"))
                page.externalReferences.append(xml.name().toString());
            for (const QXmlStreamAttribute &attribute : xml.attributes()) {
                if (attribute.name() == QLatin1String("src") || attribute.name() == QLatin1String("href"))
                    page.externalReferences.append(attribute.value().toString());
            }
            Element element;
            element.heading = headingName.match(xml.name()).hasMatch();
            element.chinese = xml.attributes().value(QLatin1String("lang")) == QLatin1String("zh-CN");
            element.verdict =
                xml.attributes().value(QLatin1String("class")).contains(QLatin1String("verdict"));
            if (element.heading && headings++ == 0)
                heading.clear();
            if (element.chinese && chineseSpans++ == 0)
                chinese.clear();
            if (element.verdict && verdicts++ == 0)
                page.verdict.clear();
            open.append(element);
        } else if (xml.isEndElement()) {
            const Element element = open.takeLast();
            if (element.heading && --headings == 0)
                page.headings.append(heading);
            if (element.chinese && --chineseSpans == 0)
                page.chineseSpans.append(chinese);
            if (element.verdict)
                --verdicts;
        } else if (xml.isCharacters()) {
            page.allText += xml.text();
            if (headings)
                heading += xml.text();
            if (chineseSpans)
                chinese += xml.text();
            if (verdicts)
                page.verdict += xml.text();
        }
    }
    if (xml.hasError())
        page.error = QStringLiteral("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
    return page;
}

QString chineseOf(const char *source)
{
    QTranslator chinese;
    if (!chinese.load(QStringLiteral(":/i18n/cudnn-setup_zh_CN.qm")))
        return {};
    return chinese.translate(kTextContext, source);
}

} // namespace

class TestReportFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void writesThreeFilesIntoANewFolder()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("reports/今天"));
        const Expected<QStringList> written = writeReport(fixtureInput(), folder);
        QVERIFY2(written, qPrintable(written.error().details));
        QStringList names;
        for (const QString &path : *written) {
            QVERIFY2(QFileInfo(path).isFile(), qPrintable(path));
            QVERIFY(QFileInfo(path).size() > 0);
            names.append(QFileInfo(path).fileName());
        }
        QCOMPARE(names, (QStringList{QStringLiteral("report.json"), QStringLiteral("report.html"),
                                     QStringLiteral("environment_versions.txt")}));
        // Only the three: no temporary file is left behind.
        QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden).size(), 3);
    }

    void jsonReadsBack()
    {
        QTemporaryDir dir;
        const ReportInput input = fixtureInput();
        QVERIFY(writeReport(input, dir.path()));
        QJsonParseError error;
        const QJsonDocument document =
            QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("report.json"))), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject report = document.object();
        QCOMPARE(report.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/report/1"));
        QCOMPARE(report.value(QStringLiteral("tool")).toString(), input.tool);
        QCOMPARE(QDateTime::fromString(report.value(QStringLiteral("createdAt")).toString(), Qt::ISODate),
                 input.createdAt);

        const auto snapshot = SystemSnapshot::fromJson(report.value(QStringLiteral("snapshot")).toObject());
        QVERIFY(snapshot);
        QCOMPARE(snapshot->toJson(), input.snapshot.toJson());
        QCOMPARE(snapshot->gpus.first().name, QStringLiteral("NVIDIA H200"));

        const auto verify = VerifyReport::fromJson(report.value(QStringLiteral("verify")).toObject());
        QVERIFY(verify);
        QCOMPARE(verify->stages.size(), 3);
        QCOMPARE(verify->directory, kOddFolder);
        QVERIFY(!verify->passed());

        const QJsonObject doctor = report.value(QStringLiteral("doctor")).toObject();
        QCOMPARE(doctor.value(QStringLiteral("schema")).toString(), QStringLiteral("cudnn-setup/doctor/1"));
        QCOMPARE(DoctorReport::fromJson(doctor).diagnoses.size(), 1);

        const QJsonArray receipts = report.value(QStringLiteral("receipts")).toArray();
        QCOMPARE(receipts.size(), 1);
        QCOMPARE(Receipt::fromJson(receipts.first().toObject())->id, input.receipts.first().id);

        // What was not part of the report is null, not an empty object that reads like an answer.
        ReportInput bare = input;
        bare.verify.reset();
        bare.doctor.reset();
        QVERIFY(reportJson(bare).value(QStringLiteral("verify")).isNull());
        QVERIFY(reportJson(bare).value(QStringLiteral("doctor")).isNull());
    }

    void htmlIsWellFormedSelfContainedAndBilingual()
    {
        QTemporaryDir dir;
        QVERIFY(writeReport(fixtureInput(), dir.path()));
        const QByteArray html = readAll(dir.filePath(QStringLiteral("report.html")));
        const ParsedPage page = parse(html);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QVERIFY2(page.externalReferences.isEmpty(),
                 qPrintable(page.externalReferences.join(QLatin1Char(' '))));

        // The heading in both languages.
        const QString verificationChinese = chineseOf("Verification");
        QVERIFY2(!verificationChinese.isEmpty() && verificationChinese != QLatin1String("Verification"),
                 "\"Verification\" has no zh_CN translation");
        const bool headingInBoth =
            std::any_of(page.headings.cbegin(), page.headings.cend(), [&](const QString &heading) {
                return heading.contains(QLatin1String("Verification")) &&
                       heading.contains(verificationChinese);
            });
        QVERIFY2(headingInBoth, qPrintable(page.headings.join(QStringLiteral(" | "))));
        QVERIFY(page.chineseSpans.contains(verificationChinese));

        // A message in both languages, each marked with its language.
        QVERIFY(page.chineseSpans.contains(kTranslatedMessageChinese));
        QVERIFY(html.contains(QByteArrayLiteral("<span class=\"en\" lang=\"en\" xml:lang=\"en\">") +
                              kTranslatedMessage));
        // Machine facts from the fixture.
        QVERIFY(page.allText.contains(QLatin1String("NVIDIA H200")));
        QVERIFY(page.allText.contains(QLatin1String("580.159.04")));
        QVERIFY(page.allText.contains(QLatin1String("/usr/local/cuda-13.0")));
        QVERIFY(page.allText.contains(QLatin1String("2.11.0+cu130")));

        // The path is escaped in the markup and reads back as itself.
        QVERIFY(page.allText.contains(kOddFolder));
        QVERIFY(html.contains(kOddFolder.toHtmlEscaped().toUtf8()));
        QVERIFY(!html.contains(kOddFolder.toUtf8()));

        // A failed stage: the verdict says so in an icon and in words, not in colour alone.
        QVERIFY2(page.verdict.contains(QStringLiteral("\u2717")), qPrintable(page.verdict));
        QVERIFY(page.verdict.contains(QLatin1String("PROBLEMS")));

        QVERIFY(html.contains("@media print"));
        QVERIFY(html.contains("size: A4"));
    }

    void passingReportSaysItWorks()
    {
        ReportInput input = fixtureInput();
        input.verify->stages.removeAt(1);
        input.doctor->diagnoses.clear();
        const ParsedPage page = parse(reportHtml(input).toUtf8());
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QVERIFY2(page.verdict.contains(QStringLiteral("\u2713")), qPrintable(page.verdict));
        QVERIFY(page.verdict.contains(QLatin1String("WORKS")));
        QVERIFY(!page.verdict.contains(QLatin1String("PROBLEMS")));
    }

    // Whatever language the program speaks, the page has both.
    void chineseUiStillWritesEnglish()
    {
        QVERIFY(Translations::install(QStringLiteral("zh_CN")));
        const QString html = reportHtml(fixtureInput());
        QVERIFY(html.contains(QLatin1String("Verification")));
        QVERIFY(html.contains(kTranslatedMessageChinese));
        QVERIFY(html.contains(QLatin1String(kTranslatedMessage)));
    }

    void environmentVersions()
    {
        QTemporaryDir dir;
        QVERIFY(writeReport(fixtureInput(), dir.path()));
        const QString text =
            QString::fromUtf8(readAll(dir.filePath(QStringLiteral("environment_versions.txt"))));
        QSet<QString> keys;
        QHash<QString, QString> values;
        const QRegularExpression line(QStringLiteral("^([a-z0-9_.]+): (\\S.*)$"));
        for (const QString &row : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QRegularExpressionMatch match = line.match(row);
            QVERIFY2(match.hasMatch(), qPrintable(row));
            QVERIFY2(!keys.contains(match.captured(1)), qPrintable(row));
            keys.insert(match.captured(1));
            values.insert(match.captured(1), match.captured(2));
        }
        QCOMPARE(values.value(QStringLiteral("driver")), QStringLiteral("580.159.04"));
        QCOMPARE(values.value(QStringLiteral("driver.max_cuda")), QStringLiteral("13.0"));
        QVERIFY2(values.value(QStringLiteral("gpu.0"))
                     .startsWith(QLatin1String("NVIDIA H200, compute capability 9.0")),
                 qPrintable(values.value(QStringLiteral("gpu.0"))));
        QCOMPARE(values.value(QStringLiteral("os")), QStringLiteral("Ubuntu 24.04.3 LTS 24.04 x64"));
        QCOMPARE(values.value(QStringLiteral("cuda_toolkit.0")),
                 QStringLiteral("13.0.2 /usr/local/cuda-13.0"));
        QCOMPARE(values.value(QStringLiteral("cuda_path")), QStringLiteral("unset"));
        QVERIFY(values.value(QStringLiteral("cudnn.1")).endsWith(QLatin1String("load order 1")));
        QCOMPARE(values.value(QStringLiteral("cudnn.loaded")),
                 QStringLiteral("9.19.0 ") + kOddFolder + QStringLiteral("/libcudnn.so.9"));
        QCOMPARE(values.value(QStringLiteral("verify")), QStringLiteral("failed"));
        QCOMPARE(values.value(QStringLiteral("verify.load")), QStringLiteral("passed"));
        QCOMPARE(values.value(QStringLiteral("verify.handle")), QStringLiteral("failed"));
        QCOMPARE(values.value(QStringLiteral("verify.convolution")), QStringLiteral("skipped"));
        QCOMPARE(values.value(QStringLiteral("python.0.torch")), QStringLiteral("2.11.0+cu130"));
        QCOMPARE(values.value(QStringLiteral("python.0.torch_cudnn")), QStringLiteral("9.19.0"));
        QCOMPARE(values.value(QStringLiteral("python.1.torch")), QStringLiteral("none"));
        QCOMPARE(values.value(QStringLiteral("tensorflow")), QStringLiteral("none"));
        QCOMPARE(values.value(QStringLiteral("receipt.count")), QStringLiteral("1"));
    }

    void unknownIsSpelledOut()
    {
        ReportInput input = fixtureInput();
        input.snapshot.gpus.first().computeCapability.clear();
        input.snapshot.gpus.first().memoryMiB = -1;
        input.snapshot.driver->maxCuda.clear();
        input.snapshot.pythons.first().probeError = QStringLiteral("timed out");
        input.verify.reset();
        const QString text = environmentVersionsText(input);
        QVERIFY(
            text.contains(QLatin1String("\ngpu.0: NVIDIA H200, compute capability unknown, unknown MiB\n")));
        QVERIFY(text.contains(QLatin1String("\ndriver.max_cuda: unknown\n")));
        QVERIFY(text.contains(QLatin1String("\npython.0.torch: unknown\n")));
        QVERIFY(text.contains(QLatin1String("\nverify: not run\n")));
        // Without a probe, what detection says a new program loads.
        QVERIFY(
            text.contains(QLatin1String("\ncudnn.loaded: 9.14.0 /usr/lib/x86_64-linux-gnu/libcudnn.so.9\n")));
        input.snapshot.driver.reset();
        QVERIFY(environmentVersionsText(input).contains(QLatin1String("\ndriver: none\n")));
    }

    void folderUnderAFileLeavesNothing()
    {
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain"));
        {
            QFile file(plain);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("not a folder");
        }
        const Expected<QStringList> written = writeReport(fixtureInput(), plain + QStringLiteral("/report"));
        QVERIFY(!written);
        QCOMPARE(written.error().id, QStringLiteral("report.folder"));
        QCOMPARE(written.error().severity, Severity::Error);
        QVERIFY(written.error().message.toString().contains(QLatin1String("report")));
        QVERIFY(!written.error().fix.isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("plain")});
        QCOMPARE(readAll(plain), QByteArray("not a folder"));
    }

    // A file that cannot take the report's place: the error names it and no partial file stays.
    void unwritableFileLeavesNoHalfFile()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("report.html")));
        const Expected<QStringList> written = writeReport(fixtureInput(), dir.path());
        QVERIFY(!written);
        QCOMPARE(written.error().id, QStringLiteral("report.write"));
        QVERIFY(written.error().message.toString().contains(QLatin1String("report.html")));
        QVERIFY(!written.error().details.isEmpty());
        const QStringList left =
            QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        QVERIFY2(left.filter(QStringLiteral(".partial")).isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("report.html"))).isDir());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestReportFiles)
#include "tst_reportfiles.moc"
