#include "report/ReportFacts.h"
#include "report/ReportPage.h"

#include <QCoreApplication>
#include <QTranslator>

#include "common/Logging.h"

namespace cudnnsetup {

using reportfacts::isoTime;
using reportfacts::loadedCudnn;
using namespace reporthtml;

namespace {

struct ProblemCount
{
    int errors = 0;
    int warnings = 0;

    void add(const Finding &finding)
    {
        errors += finding.severity == Severity::Error;
        warnings += finding.severity == Severity::Warning;
    }
};

// The doctor's diagnoses include what detection found; without a doctor, detection's own findings.
ProblemCount countProblems(const ReportInput &input)
{
    ProblemCount count;
    if (input.doctor) {
        for (const Diagnosis &diagnosis : input.doctor->diagnoses)
            count.add(diagnosis.finding);
    } else {
        for (const Finding &finding : input.snapshot.findings)
            count.add(finding);
    }
    if (input.verify) {
        for (const Finding &finding : input.verify->findings)
            count.add(finding);
    }
    return count;
}

enum class Verdict
{
    Works,       // verified, and nothing is an error
    Problems,    // a stage failed or something is an error
    NotVerified, // no error, but cuDNN was not run
};

Verdict verdictOf(const ReportInput &input)
{
    if ((input.verify && !input.verify->passed()) || countProblems(input).errors > 0)
        return Verdict::Problems;
    return input.verify ? Verdict::Works : Verdict::NotVerified;
}

constexpr char kStyle[] = R"(
body { font-family: "Segoe UI", "Noto Sans", "Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC", sans-serif;
       color: #1a1a1a; background: #fff; margin: 2em auto; max-width: 62em; padding: 0 1em; line-height: 1.45; }
.zh { display: block; color: #404040; }
h1 .zh, h2 .zh, h3 .zh { font-size: 0.8em; font-weight: normal; }
h1 { border-bottom: 3px solid #333; padding-bottom: 0.3em; }
h2 { border-bottom: 1px solid #999; padding-bottom: 0.2em; margin-top: 0; }
h3 { margin-bottom: 0.3em; }
section { margin-top: 2em; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; }
th, td { border: 1px solid #b0b0b0; padding: 0.35em 0.5em; text-align: left; vertical-align: top; }
th { background: #efefef; }
th.label { width: 28%; }
.path, pre { font-family: Consolas, "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 0.92em;
             overflow-wrap: anywhere; word-break: break-all; }
pre { white-space: pre-wrap; margin: 0.3em 0; background: #f6f6f6; padding: 0.4em; border: 1px solid #ddd; }
.verdict { border: 3px solid; padding: 0.7em 1em; font-size: 1.25em; font-weight: bold; margin: 1em 0; }
.good { color: #1b5e20; border-color: #1b5e20; }
.bad { color: #b71c1c; border-color: #b71c1c; }
.warn { color: #7a4f00; border-color: #7a4f00; }
.neutral { color: #424242; border-color: #616161; }
.mark { font-weight: bold; white-space: nowrap; }
.fix { margin-top: 0.3em; }
.finding { border-left: 4px solid #999; padding: 0.2em 0.8em; margin: 0.8em 0; }
.note { color: #555; font-size: 0.92em; }
@page { size: A4; margin: 15mm 12mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 10pt; }
  section { break-before: page; page-break-before: always; }
  section.first { break-before: auto; page-break-before: auto; }
  tr, .finding, pre { break-inside: avoid; page-break-inside: avoid; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  th, pre { background: none; }
}
)";

Text stageStatusWord(VerifyStage::Status status)
{
    switch (status) {
    case VerifyStage::Status::Passed:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "passed"));
    case VerifyStage::Status::Failed:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "failed"));
    case VerifyStage::Status::Skipped:
        break;
    }
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "skipped"));
}

QString stageMark(const Page &page, VerifyStage::Status status)
{
    const Mark mark = status == VerifyStage::Status::Passed   ? Mark::Good
                      : status == VerifyStage::Status::Failed ? Mark::Bad
                                                              : Mark::Neutral;
    return page.mark(mark, stageStatusWord(status));
}

Text stageName(const QString &id)
{
    static const std::pair<const char *, const char *> names[] = {
        {"load", QT_TRANSLATE_NOOP("cudnnsetup", "Loading the library")},
        {"dependencies", QT_TRANSLATE_NOOP("cudnnsetup", "Libraries it needs")},
        {"version", QT_TRANSLATE_NOOP("cudnnsetup", "Version")},
        {"handle", QT_TRANSLATE_NOOP("cudnnsetup", "Creating a cuDNN handle on the GPU")},
        {"convolution", QT_TRANSLATE_NOOP("cudnnsetup", "Test convolution on the GPU")},
        {"framework", QT_TRANSLATE_NOOP("cudnnsetup", "Frameworks (torch)")},
    };
    for (const auto &[stageId, name] : names) {
        if (id == QLatin1String(stageId))
            return Text(name);
    }
    return Text::verbatim(id);
}

void summarySection(Page &page, const ReportInput &input)
{
    page.beginSection(QStringLiteral("summary"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Summary")), true);
    switch (verdictOf(input)) {
    case Verdict::Works:
        page.append(
            QStringLiteral("<div class=\"verdict good\">") +
            page.mark(Mark::Good, Text(QT_TRANSLATE_NOOP("cudnnsetup", "WORKS"))) + QStringLiteral("<br/>") +
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN loads and runs on this computer."))) +
            QStringLiteral("</div>\n"));
        break;
    case Verdict::Problems:
        page.append(QStringLiteral("<div class=\"verdict bad\">") +
                    page.mark(Mark::Bad, Text(QT_TRANSLATE_NOOP("cudnnsetup", "PROBLEMS"))) +
                    QStringLiteral("<br/>") +
                    page.both(Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup", "cuDNN does not work here yet: see the problems below."))) +
                    QStringLiteral("</div>\n"));
        break;
    case Verdict::NotVerified:
        page.append(QStringLiteral("<div class=\"verdict neutral\">") +
                    page.mark(Mark::Neutral, Text(QT_TRANSLATE_NOOP("cudnnsetup", "NOT VERIFIED"))) +
                    QStringLiteral("<br/>") +
                    page.both(Text(QT_TRANSLATE_NOOP(
                        "cudnnsetup", "No error was found, but cuDNN was not run to prove that it works."))) +
                    QStringLiteral("</div>\n"));
        break;
    }

    page.beginFacts();
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Verification")),
              input.verify ? stageMark(page, input.verify->passed() ? VerifyStage::Status::Passed
                                                                    : VerifyStage::Status::Failed)
                           : page.mark(Mark::Neutral, Text(QT_TRANSLATE_NOOP("cudnnsetup", "not run"))));
    const ProblemCount count = countProblems(input);
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Problems")),
              page.mark(count.errors     ? Mark::Bad
                        : count.warnings ? Mark::Warn
                                         : Mark::Good,
                        Text(QT_TRANSLATE_NOOP("cudnnsetup", "Errors: %1, warnings: %2"))
                            .arg(count.errors)
                            .arg(count.warnings)));
    QString version;
    const QString loaded = loadedCudnn(input, &version);
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN a newly started program loads")),
              loaded.isEmpty() ? page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "none found")))
                               : page.value(version) + QStringLiteral(" ") + page.path(loaded));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Report made")), page.value(isoTime(input.createdAt)));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Made by")), page.value(input.tool));
    page.endFacts();
    page.endSection();
}

void machineSection(Page &page, const SystemSnapshot &snapshot)
{
    page.beginSection(QStringLiteral("machine"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "This computer")));
    page.beginFacts();
    const OsInfo &os = snapshot.os;
    QStringList system{os.name, os.version, os.arch};
    system.removeAll(QString());
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "System")), page.value(system.join(QLatin1Char(' '))));
    if (!os.kernel.isEmpty())
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Linux kernel")), page.value(os.kernel));
    if (os.wsl) {
        page.fact(
            Text::verbatim(QStringLiteral("WSL")),
            page.value(QStringLiteral("%1 %2").arg(os.wsl->version).arg(os.wsl->distribution).trimmed()));
    }
    if (!snapshot.systemRoot.isEmpty())
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Inspected root")), page.path(snapshot.systemRoot));
    if (!snapshot.driver) {
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Driver")),
                  page.mark(Mark::Bad, Text(QT_TRANSLATE_NOOP("cudnnsetup", "not found"))));
    } else {
        QString driver = page.value(snapshot.driver->version);
        if (!snapshot.driver->working)
            driver +=
                QLatin1Char(' ') + page.mark(Mark::Bad, Text(QT_TRANSLATE_NOOP("cudnnsetup", "NOT WORKING")));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Driver")), driver);
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Newest CUDA the driver runs")),
                  page.value(snapshot.driver->maxCuda));
    }
    page.fact(Text::verbatim(QStringLiteral("CUDA_PATH")),
              snapshot.environment.cudaPath.isNull()
                  ? page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "not set")))
                  : page.path(snapshot.environment.cudaPath));
    page.endFacts();

    page.subheading(page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "GPUs"))));
    if (snapshot.gpus.isEmpty()) {
        page.paragraph(page.mark(Mark::Bad, Text(QT_TRANSLATE_NOOP("cudnnsetup", "none found"))));
    } else {
        page.beginTable({Text::verbatim(QStringLiteral("#")), Text(QT_TRANSLATE_NOOP("cudnnsetup", "GPU")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "Compute capability")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "Memory"))});
        for (const GpuInfo &gpu : snapshot.gpus) {
            page.tableRow(
                {QString::number(gpu.index), page.value(gpu.name), page.value(gpu.computeCapability),
                 gpu.memoryMiB >= 0 ? escaped(QStringLiteral("%1 MiB").arg(gpu.memoryMiB)) : page.value({})});
        }
        page.endTable();
    }
    page.endSection();
}

void toolkitSection(Page &page, const SystemSnapshot &snapshot)
{
    page.beginSection(QStringLiteral("cuda"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA toolkits")));
    if (snapshot.cudaToolkits.isEmpty()) {
        page.paragraph(page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "none found"))));
    } else {
        page.beginTable({Text(QT_TRANSLATE_NOOP("cudnnsetup", "Version")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "Folder")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "How it was found"))});
        for (const CudaToolkit &toolkit : snapshot.cudaToolkits)
            page.tableRow({page.value(toolkit.version), page.path(toolkit.path), page.value(toolkit.source)});
        page.endTable();
    }
    page.endSection();
}

QString loadOrderHtml(const Page &page, const CudnnCopy &copy)
{
    if (!copy.loadOrder)
        return page.mark(Mark::Neutral, Text(QT_TRANSLATE_NOOP("cudnnsetup", "not on the search path")));
    if (*copy.loadOrder == 1)
        return page.mark(Mark::Good, Text(QT_TRANSLATE_NOOP("cudnnsetup", "loaded by default")));
    return page.mark(
        Mark::Warn,
        Text(QT_TRANSLATE_NOOP("cudnnsetup", "shadowed (#%1 on the search path)")).arg(*copy.loadOrder));
}

void cudnnSection(Page &page, const SystemSnapshot &snapshot)
{
    page.beginSection(QStringLiteral("cudnn"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN copies")));
    if (snapshot.cudnn.isEmpty()) {
        page.paragraph(
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system."))));
    } else {
        page.beginTable({Text(QT_TRANSLATE_NOOP("cudnnsetup", "Version")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "Folder")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "For CUDA")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "How it was found")),
                         Text(QT_TRANSLATE_NOOP("cudnnsetup", "A newly started program"))});
        for (const CudnnCopy &copy : snapshot.cudnn) {
            page.tableRow({page.value(copy.version), page.path(copy.directory),
                           page.value(copy.cudaMajor ? QString::number(*copy.cudaMajor) : QString()),
                           page.value(copy.source), loadOrderHtml(page, copy)});
        }
        page.endTable();
    }
    page.endSection();
}

void pythonSection(Page &page, const SystemSnapshot &snapshot)
{
    page.beginSection(QStringLiteral("python"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Python and torch")));
    if (snapshot.pythons.isEmpty())
        page.paragraph(page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "none found"))));
    const Text notInstalled(QT_TRANSLATE_NOOP("cudnnsetup", "not installed"));
    for (const PythonInstall &python : snapshot.pythons) {
        page.subheading(page.path(python.path));
        page.beginFacts();
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Version")),
                  page.value(python.version) +
                      (python.bits
                           ? QLatin1Char(' ') +
                                 page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1-bit")).arg(python.bits))
                           : QString()));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "How it was found")), page.value(python.source));
        if (!python.probeError.isEmpty()) {
            page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Could not be asked")),
                      preformatted(python.probeError));
        } else if (!python.torch) {
            page.fact(Text::verbatim(QStringLiteral("torch")), page.both(notInstalled));
        } else {
            const TorchInfo &torch = *python.torch;
            page.fact(Text::verbatim(QStringLiteral("torch")), page.value(torch.version));
            page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA torch was built for")),
                      torch.cuda.isEmpty()
                          ? page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "none (CPU only)")))
                          : page.value(torch.cuda));
            page.fact(
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch sees a GPU")),
                python.factsFrom == QLatin1String("files")
                    ? page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "not asked (its files were read)")))
                    : page.yesNo(torch.cudaAvailable));
            page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN torch uses")), page.value(torch.cudnn));
            page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN file torch loads")),
                      page.path(torch.cudnnLoadedFrom));
        }
        for (const FrameworkInfo &framework : python.frameworks) {
            page.fact(
                Text::verbatim(framework.displayName()),
                page.value(framework.version) + QLatin1Char(' ') +
                    (framework.cuda.isEmpty()
                         ? page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "none (CPU only)")))
                         : page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA %1, cuDNN %2"))
                                         .arg(framework.cuda)
                                         .arg(framework.cudnn.isEmpty()
                                                  ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "unknown version"))
                                                  : Text::verbatim(framework.cudnn)))));
        }
        if (python.probeError.isEmpty()) {
            page.fact(Text::verbatim(QStringLiteral("TensorFlow")),
                      python.tensorflow.isEmpty() ? page.both(notInstalled) : page.value(python.tensorflow));
        }
        page.endFacts();
    }
    page.endSection();
}

QString dependencyProblemHtml(const Page &page, const DependencyProblem &problem)
{
    Text message;
    switch (problem.kind) {
    case DependencyProblem::Kind::Missing:
        message =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1, which %2 needs, is found nowhere the loader looks."))
                .arg(problem.library, problem.neededBy);
        break;
    case DependencyProblem::Kind::WrongArchitecture:
        message = Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                         "%1 (needed by %2) is taken from %3, which is built for %4."))
                      .arg(problem.library, problem.neededBy, problem.foundAt, problem.machine);
        break;
    case DependencyProblem::Kind::Unreadable:
        message = Text(QT_TRANSLATE_NOOP(
                           "cudnnsetup",
                           "%1 (needed by %2) is taken from %3, which is not a library that can be loaded."))
                      .arg(problem.library, problem.neededBy, problem.foundAt);
        break;
    }
    QString html = QStringLiteral("<div class=\"finding\"><p>") +
                   page.mark(problem.delayLoaded ? Mark::Warn : Mark::Bad,
                             severityWord(problem.delayLoaded ? Severity::Warning : Severity::Error)) +
                   QStringLiteral("</p><div>") + page.both(message) + QStringLiteral("</div>");
    if (problem.delayLoaded) {
        html += QStringLiteral("<div class=\"note\">") +
                page.both(Text(QT_TRANSLATE_NOOP(
                    "cudnnsetup", "It is delay-loaded: loading fails only when it is first used."))) +
                QStringLiteral("</div>");
    }
    if (!problem.searched.isEmpty()) {
        html += QStringLiteral("<div class=\"note\">") +
                page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Folders looked in, in order:"))) +
                QStringLiteral("</div>") + preformatted(problem.searched.join(QLatin1Char('\n')));
    }
    return html + QStringLiteral("</div>\n");
}

void frameworkFacts(Page &page, const FrameworkCheck &framework)
{
    page.subheading(page.path(framework.python));
    page.beginFacts();
    page.fact(Text::verbatim(QStringLiteral("torch")), page.value(framework.torchVersion));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA torch was built for")),
              page.value(framework.torchCuda));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "torch sees a GPU")), page.yesNo(framework.cudaAvailable));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN torch uses")), page.value(framework.cudnnVersion));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN file torch loads")),
              page.path(framework.cudnnLoadedFrom));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "It is the cuDNN that was checked")),
              page.yesNo(framework.usesCheckedCudnn));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Test convolution")),
              framework.convolutionPassed
                  ? stageMark(page, *framework.convolutionPassed ? VerifyStage::Status::Passed
                                                                 : VerifyStage::Status::Failed)
                  : page.value({}));
    if (!framework.error.isEmpty())
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Error")), preformatted(framework.error));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Time")),
              escaped(QStringLiteral("%1 ms").arg(framework.milliseconds, 0, 'f', 0)));
    page.endFacts();
}

void verifySection(Page &page, const std::optional<VerifyReport> &verify)
{
    page.beginSection(QStringLiteral("verification"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Verification")));
    if (!verify) {
        page.paragraph(
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN was not verified for this report."))));
        page.endSection();
        return;
    }
    page.beginFacts();
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Folder checked")), page.path(verify->directory));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Chosen because")),
              page.value(verify->receiptId.isEmpty()
                             ? verify->subjectSource
                             : verify->subjectSource + QLatin1Char(' ') + verify->receiptId));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Expected version")), page.value(verify->expectedVersion));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Version the library reports")),
              page.value(verify->cudnnVersion));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "CUDA toolkit")), page.value(verify->cudaToolkitVersion));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN a newly started program loads")),
              page.path(verify->loadedFrom()));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Search path used")),
              page.value(verify->probeEnvironmentSource) +
                  preformatted(verify->probePath.join(QLatin1Char('\n'))));
    page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Time")),
              escaped(QStringLiteral("%1 ms").arg(verify->totalMilliseconds, 0, 'f', 0)));
    page.endFacts();

    page.beginTable({Text(QT_TRANSLATE_NOOP("cudnnsetup", "Result")),
                     Text(QT_TRANSLATE_NOOP("cudnnsetup", "Step")),
                     Text(QT_TRANSLATE_NOOP("cudnnsetup", "What was found")),
                     Text(QT_TRANSLATE_NOOP("cudnnsetup", "Time"))});
    for (const VerifyStage &stage : verify->stages) {
        page.tableRow({stageMark(page, stage.status), page.both(stageName(stage.id)),
                       messageBlock(page, stage.message, stage.details, stage.fix),
                       escaped(QStringLiteral("%1 ms").arg(stage.milliseconds, 0, 'f', 1))});
    }
    page.endTable();

    if (!verify->dependencies.problems.isEmpty()) {
        page.subheading(
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Libraries that stop cuDNN from loading"))));
        for (const DependencyProblem &problem : verify->dependencies.problems)
            page.append(dependencyProblemHtml(page, problem));
    }
    for (const FrameworkCheck &framework : verify->frameworks)
        frameworkFacts(page, framework);
    if (!verify->findings.isEmpty()) {
        page.subheading(page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Findings"))));
        for (const Finding &finding : verify->findings)
            findingBlock(page, finding);
    }
    page.endSection();
}

void doctorSection(Page &page, const ReportInput &input)
{
    page.beginSection(QStringLiteral("doctor"), Text(QT_TRANSLATE_NOOP("cudnnsetup", "Problems and fixes")));
    if (!input.doctor) {
        page.paragraph(
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "No diagnosis was made for this report."))));
    } else if (input.doctor->diagnoses.isEmpty()) {
        page.paragraph(
            page.mark(Mark::Good, Text(QT_TRANSLATE_NOOP("cudnnsetup", "The diagnosis found no problem."))));
    } else {
        for (const Diagnosis &diagnosis : input.doctor->diagnoses) {
            QString repair;
            if (diagnosis.repair) {
                repair = QStringLiteral("<div class=\"fix\">") +
                         page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Offered repair: %1"))
                                       .arg(diagnosis.repair->summary)) +
                         QStringLiteral("</div>") + preformatted(linesOf(diagnosis.repair->preview));
                if (diagnosis.repair->needsAdministrator) {
                    repair +=
                        QStringLiteral("<div class=\"note\">") +
                        page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "It needs administrator rights."))) +
                        QStringLiteral("</div>");
                }
            }
            findingBlock(page, diagnosis.finding, repair);
        }
    }
    // Without a doctor, what detection itself noticed is the only list of problems.
    if (!input.doctor && !input.snapshot.findings.isEmpty()) {
        page.subheading(
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Found while looking at this computer"))));
        for (const Finding &finding : input.snapshot.findings)
            findingBlock(page, finding);
    }
    page.endSection();
}

void receiptSection(Page &page, const QList<Receipt> &receipts)
{
    page.beginSection(QStringLiteral("installs"),
                      Text(QT_TRANSLATE_NOOP("cudnnsetup", "Installs by cuDNN Setup")));
    if (receipts.isEmpty())
        page.paragraph(
            page.both(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup has installed nothing here."))));
    for (const Receipt &receipt : receipts) {
        page.subheading(escaped(receipt.id));
        page.beginFacts();
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "When")), page.value(receipt.created));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Result")), page.value(receipt.result));
        const QString cudnn = receipt.archive.cudnn.toString();
        const QString &variant = receipt.archive.cudaVariant;
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN")),
                  page.value(variant.isEmpty() ? cudnn : QStringLiteral("%1 (CUDA %2)").arg(cudnn, variant)));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Archive")), page.path(receipt.archive.fileName));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Installed into")),
                  page.path(receipt.target ? receipt.target->root : QString()));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Files")),
                  escaped(QString::number(receipt.files.size())));
        if (!receipt.environment.isEmpty()) {
            QStringList changes;
            for (const Receipt::EnvironmentChange &change : receipt.environment)
                changes.append(
                    QStringList{change.scope, change.name, change.entry}.join(QLatin1Char(' ')).trimmed());
            page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Environment changes")),
                      preformatted(changes.join(QLatin1Char('\n'))));
        }
        if (!receipt.partOf.isEmpty())
            page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Part of")), escaped(receipt.partOf));
        page.fact(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Made by")), page.value(receipt.tool));
        page.endFacts();
    }
    page.endSection();
}
} // namespace

QString reportHtml(const ReportInput &input)
{
    // The Chinese half is rendered from the embedded translation whatever language is current.
    QTranslator chinese;
    if (!chinese.load(QStringLiteral(":/i18n/cudnn-setup_zh_CN.qm"))) {
        qCWarning(lcCore) << "report: the embedded Chinese translation could not be loaded, the page is in "
                             "English only";
    }
    Page page(chinese);
    const Text title(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN Setup report"));
    page.append(
        QStringLiteral("<!DOCTYPE html>\n"
                       "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">\n"
                       "<head>\n<meta charset=\"utf-8\"/>\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>") +
        escaped(page.englishAndChinese(title)) + QStringLiteral("</title>\n<style>") +
        QString::fromUtf8(kStyle) + QStringLiteral("</style>\n</head>\n<body>\n<h1>") + page.both(title) +
        QStringLiteral("</h1>\n"));
    summarySection(page, input);
    machineSection(page, input.snapshot);
    toolkitSection(page, input.snapshot);
    cudnnSection(page, input.snapshot);
    pythonSection(page, input.snapshot);
    verifySection(page, input.verify);
    doctorSection(page, input);
    receiptSection(page, input.receipts);
    page.append(QStringLiteral("</body>\n</html>\n"));
    return page.html();
}
} // namespace cudnnsetup
