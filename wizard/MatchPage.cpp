#include "MatchPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "SummaryBanner.h"
#include "compat/CudaNumbers.h"
#include "session/SetupSession.h"

#include <QCheckBox>
#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <optional>

namespace cudnnsetup::wizard {

MatchPage::MatchPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("matchPage"));

    m_summary =
        new SummaryBanner(QStringLiteral("summary"), SummaryBanner::WithoutStatus::KeepIconRoom, this);
    QFont bold = font();
    bold.setBold(true);

    auto numbers = new QGridLayout;
    numbers->setHorizontalSpacing(12);
    m_driverCuda = addTile(numbers, 0, QStringLiteral("driverCuda"));
    m_toolkitCuda = addTile(numbers, 1, QStringLiteral("toolkitCuda"));
    m_frameworkCuda = addTile(numbers, 2, QStringLiteral("frameworkCuda"));
    m_archiveCuda = addTile(numbers, 3, QStringLiteral("archiveCuda"));

    m_recommendationTitle = new QLabel(this);
    m_recommendationTitle->setFont(bold);
    m_recommendation = new QLabel(this);
    m_recommendation->setObjectName(QStringLiteral("recommendationLabel"));
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_recommendation->setOpenExternalLinks(true);

    m_findingsTitle = new QLabel(this);
    m_findingsTitle->setFont(bold);
    m_findings = new FindingsView(this);

    m_override = new QCheckBox(this);
    m_override->setObjectName(QStringLiteral("overrideCheck"));
    connect(m_override, &QCheckBox::toggled, this, [this](bool checked) {
        m_session->setBlockersOverridden(checked);
        Q_EMIT completeChanged();
    });
    m_database = new QLabel(this);
    m_database->setObjectName(QStringLiteral("databaseLabel"));
    m_database->setWordWrap(true);
    m_database->setForegroundRole(QPalette::PlaceholderText);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(numbers);
    layout->addWidget(m_recommendationTitle);
    layout->addWidget(m_recommendation);
    layout->addWidget(m_findingsTitle);
    layout->addWidget(m_findings, 1); // kept even when empty: it takes the page's spare room
    layout->addWidget(m_override);
    layout->addWidget(m_database);

    connect(m_session, &SetupSession::matchChanged, this, [this] {
        m_override->setChecked(m_session->blockersOverridden()); // a new verdict takes it back
        if (isVisible())
            showMatch();
        Q_EMIT completeChanged();
    });
    retranslate();
}

MatchPage::NumberTile MatchPage::addTile(QGridLayout *grid, int column, const QString &name)
{
    NumberTile tile;
    tile.frame = new QFrame(this);
    tile.frame->setObjectName(name);
    tile.value = new QLabel(tile.frame);
    tile.value->setObjectName(name + QStringLiteral("Value"));
    tile.value->setAlignment(Qt::AlignCenter);
    QFont big = tile.value->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    tile.value->setFont(big);
    tile.verdict = new QLabel(tile.frame);
    tile.verdict->setObjectName(name + QStringLiteral("Verdict"));
    tile.verdict->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    tile.verdict->setWordWrap(true);
    tile.caption = new QLabel(tile.frame);
    tile.caption->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    tile.caption->setWordWrap(true);
    makeSecondaryText(tile.caption);
    auto layout = new QVBoxLayout(tile.frame);
    layout->setSpacing(2);
    layout->addWidget(tile.value);
    layout->addWidget(tile.verdict);
    layout->addWidget(tile.caption, 1);
    tile.frame->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    grid->addWidget(tile.frame, 0, column);
    grid->setColumnStretch(column, 1);
    return tile;
}

void MatchPage::initializePage()
{
    m_override->setChecked(m_session->blockersOverridden());
    showMatch();
}

bool MatchPage::isComplete() const
{
    return m_session->mayProceed();
}

void MatchPage::showMatch()
{
    if (!m_session->hasMatch())
        return;
    const MatchResult &result = m_session->match();
    const KnowledgeBase &kb = m_session->database().database;
    const CudaNumbers numbers = CudaNumbers::of(m_session->matchFacts(), result, kb);
    showTiles(numbers);
    showRecommendation(result);
    m_findings->setFindings(result.findings);
    m_findingsTitle->setVisible(!result.findings.isEmpty());
    showHeadline(result);
    showDatabase();
}

void MatchPage::showTiles(const CudaNumbers &numbers)
{
    showTile(m_driverCuda, numbers.driverTile(),
             tr("The newest CUDA version the installed driver can run (nvidia-smi's \"CUDA Version\"). It is "
                "not an installed toolkit."));
    showTile(m_toolkitCuda, numbers.toolkitTile(), tr("The CUDA toolkit cuDNN goes with (nvcc --version)."));
    showTile(m_frameworkCuda, numbers.frameworkTile(),
             numbers.frameworkName.isEmpty() ? tr("No PyTorch was found.")
                                             : tr("The CUDA version %1 was built for; it brings its own CUDA "
                                                  "libraries.")
                                                   .arg(numbers.frameworkName));
    showTile(m_archiveCuda, numbers.archiveTile(),
             tr("The CUDA major the cuDNN archive is built for (the _cudaNN in its name). It must match the "
                "toolkit's major."));
    fitTiles();
}

void MatchPage::showTile(const NumberTile &tile, const CudaNumbers::Tile &judged, const QString &tooltip)
{
    const QString value = judged.value.toString();
    const QString verdict = judged.verdict.toString();
    // The colours of the status icons, so a tile reads like the rows below it; a grey frame for
    // a number that needs nothing.
    std::optional<Status> status;
    switch (judged.level) {
    case CudaNumbers::Tile::Level::Good:
        status = Status::Ok;
        break;
    case CudaNumbers::Tile::Level::Caution:
        status = Status::Warning;
        break;
    case CudaNumbers::Tile::Level::Bad:
        status = Status::Error;
        break;
    case CudaNumbers::Tile::Level::Neutral:
        break;
    }
    const QColor colour = status ? statusColour(*status) : tile.frame->palette().color(QPalette::Mid);
    tile.frame->setStyleSheet(QStringLiteral("QFrame#%1 { border: 2px solid %2; border-radius: 6px; }")
                                  .arg(tile.frame->objectName(), colour.name()));
    QPalette palette = tile.value->palette();
    palette.setColor(QPalette::WindowText,
                     status ? colour : tile.frame->palette().color(QPalette::WindowText));
    tile.value->setPalette(palette);
    tile.value->setText(value);
    tile.verdict->setText(verdict);
    tile.value->setAccessibleName(tr("%1: %2 (%3)", "a CUDA number's name, its value and what it means")
                                      .arg(tile.caption->text(), value, verdict));
    tile.frame->setToolTip(tooltip);
}

void MatchPage::showRecommendation(const MatchResult &result)
{
    if (result.recommendation) {
        const Recommendation &recommendation = *result.recommendation;
        QStringList lines;
        const QString file = recommendation.archiveFile.toHtmlEscaped();
        const QString link =
            recommendation.url.isEmpty()
                ? file
                : QStringLiteral("<a href=\"%1\">%2</a>").arg(recommendation.url.toHtmlEscaped(), file);
        // The newest release is on NVIDIA's download page; only older ones are in its archive.
        lines.append(recommendation.newestRelease
                         ? tr("Download <b>%1</b> from NVIDIA's cuDNN download page.").arg(link)
                         : tr("Download <b>%1</b> from NVIDIA's cuDNN archive.").arg(link));
        if (const std::optional<CudnnBeside> &program = m_session->program())
            lines.append(tr("It is what %1 needs, and goes beside it in %2, for that program only.")
                             .arg(program->program.toHtmlEscaped(), program->folder.toHtmlEscaped()));
        else if (recommendation.targetToolkit && !recommendation.targetToolkit->path.isEmpty())
            lines.append(tr("It goes with the CUDA %1 toolkit in %2.")
                             .arg(recommendation.targetToolkit->version.toString(),
                                  recommendation.targetToolkit->path.toHtmlEscaped()));
        else
            lines.append(tr("Install the CUDA %1 toolkit first if you build programs yourself; "
                            "frameworks such as PyTorch bring their own.")
                             .arg(recommendation.cudaVariant));
        if (recommendation.driverUpdateNeeded)
            lines.append(recommendation.driverMinimum.isValid()
                             ? tr("First update the driver to %1 or newer.")
                                   .arg(recommendation.driverMinimum.toString())
                             : tr("First update the driver to one that supports this CUDA version."));
        if (!recommendation.sha256.isEmpty())
            lines.append(tr("NVIDIA's SHA-256: %1").arg(recommendation.sha256));
        else
            lines.append(tr("NVIDIA's checksum for this file is not in the compatibility database, so it "
                            "cannot be checked, and an install into the CUDA toolkit or for every user "
                            "refuses it: on \"Where cuDNN goes\", choose a folder for you only or "
                            "beside one program."));
        m_recommendation->setText(lines.join(QStringLiteral("<br>")));
    } else {
        m_recommendation->setText(
            tr("No cuDNN archive fits this machine as it is; the findings below say why."));
    }
    m_recommendation->setAccessibleName(m_recommendation->text());
}

void MatchPage::showHeadline(const MatchResult &result)
{
    int errors = 0;
    int warnings = 0;
    for (const Finding &finding : result.findings) {
        errors += finding.severity == Severity::Error;
        warnings += finding.severity == Severity::Warning;
    }
    m_override->setVisible(!result.compatible());
    if (errors > 0)
        m_summary->setSummary(
            Status::Error, tr("%n problem(s) stand in the way of cuDNN on this computer.", nullptr, errors));
    else if (result.verdict() == MatchResult::Verdict::CannotTell)
        m_summary->setSummary(Status::Warning,
                              tr("Cannot tell whether cuDNN fits this computer: something it depends on is "
                                 "not known (see below)."));
    else if (warnings > 0)
        m_summary->setSummary(
            Status::Warning,
            tr("cuDNN fits this computer; %n thing(s) below are worth checking.", nullptr, warnings));
    else
        m_summary->setSummary(Status::Ok, tr("cuDNN fits this computer."));
}

void MatchPage::showDatabase()
{
    const DatabaseChoice &database = m_session->database();
    // The version is the day the data was taken ("2026.12.02"): the date itself goes to the tooltip.
    m_database->setText(database.origin == QLatin1String("embedded")
                            ? tr("Compatibility data: version %1, built in.").arg(database.database.version())
                            : tr("Compatibility data: version %1, from %2.")
                                  .arg(database.database.version(), database.origin));
    m_database->setToolTip(tr("NVIDIA's tables as of %1.").arg(database.database.date()));
}

// A grid row does not grow for a label's height-for-width: each tile's wrapped lines get the
// height their width needs (two lines at least, so that the tiles line up), with any font.
void MatchPage::fitTiles()
{
    for (const NumberTile *tile : {&m_driverCuda, &m_toolkitCuda, &m_frameworkCuda, &m_archiveCuda}) {
        for (QLabel *label : {tile->verdict, tile->caption}) {
            const int twoLines = 2 * label->fontMetrics().lineSpacing();
            label->setMinimumHeight(qMax(twoLines, label->heightForWidth(label->width())));
        }
    }
}

void MatchPage::resizeEvent(QResizeEvent *event)
{
    QWizardPage::resizeEvent(event);
    fitTiles();
}

void MatchPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void MatchPage::retranslate()
{
    setTitle(tr("What fits"));
    setSubTitle(tr("Driver, CUDA, cuDNN, graphics card and frameworks, checked against NVIDIA's tables."));
    m_driverCuda.caption->setText(tr("Newest CUDA the driver runs"));
    m_toolkitCuda.caption->setText(tr("CUDA toolkit (nvcc)"));
    m_frameworkCuda.caption->setText(tr("CUDA of PyTorch"));
    m_archiveCuda.caption->setText(tr("CUDA of the cuDNN archive"));
    m_recommendationTitle->setText(tr("Recommended download"));
    m_findingsTitle->setText(tr("Findings"));
    m_findings->setAccessibleName(tr("Findings"));
    m_override->setText(tr("I understand these problems and want to &continue anyway"));
    showMatch();
}

} // namespace cudnnsetup::wizard
