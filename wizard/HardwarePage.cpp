#include "HardwarePage.h"

#include "Artwork.h"
#include "FactsTree.h"
#include "FindingsView.h"
#include "InfoIcon.h"
#include "SummaryBanner.h"
#include "common/Sizes.h"
#include "session/DetectionJob.h"
#include "session/SetupSession.h"

#include <algorithm>

#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

namespace {

// A row's icon, and its status kept beside it (kStatusRole) for what counts the rows.
void setStatus(QTreeWidgetItem *item, Status status)
{
    item->setIcon(0, statusIcon(status));
    item->setData(0, HardwarePage::kStatusRole, int(status));
}

QTreeWidgetItem *addItem(QTreeWidget *tree, Status status, const QString &label, const QString &value)
{
    auto item = new QTreeWidgetItem(tree, {label, value});
    setStatus(item, status);
    item->setToolTip(1, value);
    return item;
}

QTreeWidgetItem *addChild(QTreeWidgetItem *parent, const QString &value)
{
    auto item = new QTreeWidgetItem(parent, {QString(), value});
    item->setToolTip(1, value);
    return item;
}

// A row's text, and below it what its jargon means, as its tooltip.
void explain(QTreeWidgetItem *item, const QString &explanation)
{
    if (!explanation.isEmpty())
        item->setToolTip(1, item->text(1) + QStringLiteral("\n\n") + explanation);
}

// A system cuDNN does not run on at all: Windows on Arm, WSL 1.
bool systemUnfit(const SystemSnapshot &snapshot)
{
    return std::any_of(snapshot.findings.cbegin(), snapshot.findings.cend(), [](const Finding &f) {
        return f.id == QLatin1String("os.windows-arm64") || f.id == QLatin1String("os.wsl1");
    });
}

// The parts whose row is red: their error findings are the same problems, not more.
QStringList redPartsOf(const SystemSnapshot &snapshot)
{
    QStringList redParts;
    if (systemUnfit(snapshot))
        redParts.append(QStringLiteral("os"));
    if (snapshot.gpus.isEmpty())
        redParts.append(QStringLiteral("gpu"));
    if (!snapshot.driver || !snapshot.driver->working)
        redParts.append(QStringLiteral("driver"));
    return redParts;
}

} // namespace

HardwarePage::HardwarePage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("hardwarePage"));

    m_summary =
        new SummaryBanner(QStringLiteral("summary"), SummaryBanner::WithoutStatus::KeepIconRoom, this);
    QFont bold = font();
    bold.setBold(true);

    m_noGpu = new QLabel(this);
    m_noGpu->setObjectName(QStringLiteral("noGpuLabel"));
    m_noGpu->setWordWrap(true);
    m_noGpu->hide();

    m_system = newFactsTree(QStringLiteral("systemTree"), this);

    m_findingsTitle = new QLabel(this);
    m_findingsTitle->setFont(bold);
    m_findings = new FindingsView(this);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_again = new QPushButton(this);
    m_again->setObjectName(QStringLiteral("detectAgainButton"));
    m_save = new QPushButton(this);
    m_save->setObjectName(QStringLiteral("saveReportButton"));
    connect(m_again, &QPushButton::clicked, this, &HardwarePage::startDetection);
    connect(m_save, &QPushButton::clicked, this, &HardwarePage::saveReport);
    auto progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_status, 1);
    auto buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_again);
    buttons->addWidget(m_save);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_noGpu);
    layout->addWidget(m_system, 3);
    layout->addWidget(m_findingsTitle);
    layout->addWidget(m_findings, 2);
    layout->addLayout(progressRow);
    layout->addLayout(buttons);

    retranslate();
}

void HardwarePage::initializePage()
{
    if (m_session->hasSnapshot())
        showSnapshot();
    else
        startDetection();
}

bool HardwarePage::isDetecting() const
{
    return m_job && m_job->isRunning();
}

bool HardwarePage::isComplete() const
{
    return !isDetecting() && m_session->hasSnapshot();
}

void HardwarePage::startDetection()
{
    if (isDetecting())
        return;
    delete m_job;
    m_job = new DetectionJob(m_session->context(), DetectOptions(), this);
    connect(m_job, &DetectionJob::progress, this, &HardwarePage::showProgress);
    connect(m_job, &DetectionJob::finished, this, [this](const SystemSnapshot &snapshot) {
        m_session->setSnapshot(snapshot);
        showSnapshot();
        Q_EMIT completeChanged();
    });
    m_session->clearSnapshot();
    m_system->clear();
    m_findings->clear();
    m_summary->setPending(tr("Looking at this computer…"));
    m_noGpu->hide();
    m_progress->setValue(0);
    m_progress->show();
    m_status->show();
    m_again->setEnabled(false);
    m_save->setEnabled(false);
    m_job->start();
    Q_EMIT completeChanged();
}

void HardwarePage::showProgress(double fraction, const QString &text)
{
    m_progress->setValue(int(fraction * 100));
    m_status->setText(text);
}

void HardwarePage::showSnapshot()
{
    if (!m_session->hasSnapshot())
        return;
    const SystemSnapshot &snapshot = m_session->snapshot();
    m_progress->hide();
    m_status->hide();
    m_again->setEnabled(true);
    m_save->setEnabled(true);

    m_system->clear();
    addSystemRow(snapshot);
    addGpuRows(snapshot);
    addDriverRow(snapshot);
    addToolkitRows(snapshot);
    addCudnnRows(snapshot);
    addPythonRows(snapshot);
    m_system->expandAll();

    m_findings->setFindings(snapshot.findings);
    showHeadline(snapshot);
    showCannotRun(snapshot);
}

void HardwarePage::addSystemRow(const SystemSnapshot &snapshot)
{
    QString system = snapshot.os.name.isEmpty() ? snapshot.os.family : snapshot.os.name;
    if (!snapshot.os.arch.isEmpty())
        system += QStringLiteral(" (%1)").arg(snapshot.os.arch);
    addItem(m_system, systemUnfit(snapshot) ? Status::Error : Status::Ok, tr("System"), system);
}

void HardwarePage::addGpuRows(const SystemSnapshot &snapshot)
{
    if (snapshot.gpus.isEmpty()) {
        addItem(m_system, Status::Error, tr("Graphics card"), tr("No NVIDIA GPU found"));
        return;
    }
    QTreeWidgetItem *gpus = nullptr;
    for (const GpuInfo &gpu : snapshot.gpus) {
        QString text = gpu.name.isEmpty() ? tr("NVIDIA GPU") : gpu.name;
        QStringList facts;
        if (!gpu.computeCapability.isEmpty())
            facts.append(tr("compute capability %1").arg(gpu.computeCapability));
        if (gpu.memoryMiB > 0)
            facts.append(tr("%1 memory").arg(shownSize(gpu.memoryMiB << 20)));
        if (!facts.isEmpty())
            text += QStringLiteral(" — ") + facts.join(tr(", ", "list separator"));
        QTreeWidgetItem *row =
            gpus ? addChild(gpus, text) : (gpus = addItem(m_system, Status::Ok, tr("Graphics card"), text));
        if (!gpu.computeCapability.isEmpty())
            markExplained(row, 1, Term::ComputeCapability);
    }
}

void HardwarePage::addDriverRow(const SystemSnapshot &snapshot)
{
    if (!snapshot.driver) {
        addItem(m_system, Status::Error, tr("Driver"), tr("No NVIDIA driver found"));
        return;
    }
    const DriverInfo &driver = *snapshot.driver;
    QString text = driver.maxCuda.isEmpty()
                       ? tr("%1 (the newest CUDA it supports is unknown)").arg(driver.version)
                       : tr("%1, supports CUDA up to %2").arg(driver.version, driver.maxCuda);
    if (!driver.working)
        text = tr("%1, installed but not working").arg(driver.version);
    addItem(m_system,
            driver.working ? (driver.maxCuda.isEmpty() ? Status::Warning : Status::Ok) : Status::Error,
            tr("Driver"), text);
}

void HardwarePage::addToolkitRows(const SystemSnapshot &snapshot)
{
    if (snapshot.cudaToolkits.isEmpty()) {
        addItem(m_system, Status::Info, tr("CUDA toolkit"), tr("None installed"));
        return;
    }
    QTreeWidgetItem *toolkits = nullptr;
    for (const CudaToolkit &toolkit : snapshot.cudaToolkits) {
        const QString text =
            tr("%1 in %2")
                .arg(toolkit.version.isEmpty() ? tr("unknown version") : toolkit.version, toolkit.path);
        if (!toolkits)
            toolkits = addItem(m_system, Status::Ok, tr("CUDA toolkit"), text);
        else
            addChild(toolkits, text);
    }
}

void HardwarePage::addCudnnRows(const SystemSnapshot &snapshot)
{
    if (snapshot.cudnn.isEmpty()) {
        addItem(m_system, Status::Info, tr("cuDNN"), tr("Not installed yet"));
        return;
    }
    QTreeWidgetItem *copies = nullptr;
    for (const CudnnCopy &copy : snapshot.cudnn) {
        // Each copy its own mark: a tick only for the copy programs load; a note (i) for one
        // nothing uses, which is no problem but no working cuDNN either.
        QString where;
        QString meaning;
        Status status = Status::Ok;
        if (!copy.loadOrder) {
            status = Status::Info;
            where = tr("only for programs that look there themselves");
            meaning = tr("Its folder is not on PATH: programs find this copy only when they are pointed at "
                         "that folder.");
        } else if (*copy.loadOrder == 1) {
            where = tr("loaded by default");
        } else {
            status = Status::Warning;
            where = tr("hidden by another copy");
            meaning = tr("Another copy comes earlier on the search path (PATH), so programs load that "
                         "one and never this one.");
        }
        const QString text =
            tr("%1 in %2 (%3)")
                .arg(copy.version.isEmpty() ? tr("unknown version") : copy.version, copy.directory, where);
        QTreeWidgetItem *row =
            copies ? addChild(copies, text) : (copies = addItem(m_system, status, tr("cuDNN"), text));
        setStatus(row, status);
        explain(row, meaning);
    }
}

void HardwarePage::addPythonRows(const SystemSnapshot &snapshot)
{
    QTreeWidgetItem *pythons = nullptr;
    for (const PythonInstall &python : snapshot.pythons) {
        QString text = QStringLiteral("Python %1")
                           .arg(python.version.isEmpty() ? tr("(version unknown)") : python.version);
        if (python.bits)
            text += QStringLiteral(" ") + tr("%1-bit").arg(python.bits);
        if (python.torch) {
            text += tr(", ", "list separator") +
                    (python.torch->cuda.isEmpty()
                         ? tr("torch %1 without CUDA (CPU only)").arg(python.torch->version)
                     : python.torch->cudnn.isEmpty()
                         ? tr("torch %1 for CUDA %2").arg(python.torch->version, python.torch->cuda)
                         : tr("torch %1 for CUDA %2 with cuDNN %3")
                               .arg(python.torch->version, python.torch->cuda, python.torch->cudnn));
        }
        for (const FrameworkInfo &framework : python.frameworks) {
            text += tr(", ", "list separator") +
                    (framework.cuda.isEmpty()
                         ? tr("%1 %2 without CUDA (CPU only)").arg(framework.displayName(), framework.version)
                         : tr("%1 %2 for CUDA %3")
                               .arg(framework.displayName(), framework.version, framework.cuda));
        }
        text += QStringLiteral(" — ") + python.path;
        const Status status = python.bits == 32 || (python.torch && python.torch->cuda.isEmpty())
                                  ? Status::Warning
                                  : Status::Ok;
        if (!pythons)
            pythons = addItem(m_system, status, tr("Python"), text);
        else
            addChild(pythons, text);
    }
}

// The problems the headline counts are the red rows: those of the table, and the error findings
// that no red row of the table already shows.
void HardwarePage::showHeadline(const SystemSnapshot &snapshot)
{
    const QStringList redParts = redPartsOf(snapshot);
    int problems = 0;
    for (QTreeWidgetItemIterator it(m_system); *it; ++it)
        problems += (*it)->data(0, kStatusRole).toInt() == int(Status::Error);
    int warnings = 0;
    for (const Finding &finding : snapshot.findings) {
        problems += finding.severity == Severity::Error &&
                    !redParts.contains(finding.id.section(QLatin1Char('.'), 0, 0));
        warnings += finding.severity == Severity::Warning;
    }
    m_findingsTitle->setVisible(!snapshot.findings.isEmpty());

    // The headline speaks of an install: that cuDNN works here only the Verify page can say.
    if (problems > 0)
        m_summary->setSummary(
            Status::Error,
            tr("%n problem(s) must be solved before cuDNN can work on this computer.", nullptr, problems));
    else if (warnings > 0)
        m_summary->setSummary(
            Status::Warning,
            tr("This computer is ready for a cuDNN install; %n thing(s) below are worth checking.", nullptr,
               warnings));
    else
        m_summary->setSummary(Status::Ok, tr("This computer is ready for a cuDNN install."));
}

// Without a GPU or a working driver cuDNN cannot run (their rows are red), but it can be placed now
// (a machine imaged before its GPU is in).
void HardwarePage::showCannotRun(const SystemSnapshot &snapshot)
{
    if (snapshot.gpus.isEmpty()) {
        m_noGpu->setText(
            tr("No NVIDIA GPU was found, so cuDNN cannot run on this computer yet. If it has an "
               "NVIDIA GPU, install the GPU's driver from nvidia.com/drivers, restart, and run "
               "cuDNN Setup again. You can still install cuDNN now, for example on a machine "
               "being imaged without its GPU: it will be in place once a GPU and its driver are."));
    } else if (!snapshot.driver || !snapshot.driver->working) {
        m_noGpu->setText(
            tr("The NVIDIA driver is missing or not working, so cuDNN cannot run yet. Install the "
               "current driver for this GPU from nvidia.com/drivers, restart, and run cuDNN Setup "
               "again. You can still install cuDNN now: it will be in place once the driver works."));
    }
    m_noGpu->setVisible(snapshot.gpus.isEmpty() || !snapshot.driver || !snapshot.driver->working);
}

void HardwarePage::saveReport()
{
    if (!m_session->hasSnapshot())
        return;
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) +
                          QStringLiteral("/cudnn-setup-system.json");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save the system report"), start, tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(QJsonDocument(m_session->snapshot().toJson()).toJson(QJsonDocument::Indented));
        if (file.commit())
            return;
    }
    QMessageBox::warning(this, tr("Save the system report"),
                         tr("The report could not be saved to %1: %2").arg(path, file.errorString()));
}

void HardwarePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void HardwarePage::retranslate()
{
    setTitle(tr("Your system"));
    setSubTitle(tr("What this computer has for CUDA and cuDNN, and what is missing."));
    m_system->setHeaderLabels({tr("Part"), tr("What was found")});
    m_system->setAccessibleName(tr("What was found on this computer"));
    m_findingsTitle->setText(tr("Findings"));
    m_findings->setAccessibleName(tr("Findings"));
    m_again->setText(tr("&Detect again"));
    m_save->setText(tr("&Save report…"));
    m_progress->setAccessibleName(tr("Detection progress"));
    // Texts built from the snapshot follow the language too.
    if (m_session->hasSnapshot() && !isDetecting())
        showSnapshot();
}

} // namespace cudnnsetup::wizard
