#include "UninstallPage.h"

#include "Artwork.h"
#include "FindingsView.h"
#include "SummaryBanner.h"
#include "install/ElevatedChange.h"
#include "install/UninstallPreview.h"
#include "session/SetupSession.h"
#include "session/UninstallJob.h"

#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QWizard>

namespace cudnnsetup::wizard {

QString receiptCudnnVersion(const Receipt &receipt)
{
    return receipt.archive.cudnn.toString();
}

QString receiptFolder(const Receipt &receipt)
{
    return receipt.target ? QDir::toNativeSeparators(receipt.target->root) : QString();
}

QString receiptDate(const Receipt &receipt)
{
    const QDateTime created = QDateTime::fromString(receipt.created, Qt::ISODate);
    return created.isValid() ? created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                             : receipt.created;
}

UninstallPage::UninstallPage(SetupSession *session, QWidget *parent)
    : QWizardPage(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("uninstallPage"));
    setCommitPage(true);

    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("receiptsTree"));
    m_list->setRootIsDecorated(false);
    // The folder first and widest: that is what a person recognises; the receipt's id is a tooltip.
    m_list->setColumnCount(3);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->setTextElideMode(Qt::ElideMiddle);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &UninstallPage::showState);

    QFont bold = font();
    bold.setBold(true);
    m_previewTitle = new QLabel(this);
    m_previewTitle->setObjectName(QStringLiteral("previewTitle"));
    m_previewTitle->setFont(bold);
    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("uninstallPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextFormat(Qt::RichText);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0); // one transaction: there are no steps to count

    m_result = new SummaryBanner(QStringLiteral("result"), SummaryBanner::WithoutStatus::KeepIconRoom, this);
    m_result->label()->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The outcome in the page's own weight, not in bold.
    QFont plain = m_result->label()->font();
    plain.setBold(false);
    m_result->label()->setFont(plain);
    m_findings = new FindingsView(this);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_list);
    layout->addWidget(m_previewTitle);
    layout->addWidget(m_preview);
    layout->addWidget(m_progress);
    layout->addWidget(m_result);
    layout->addWidget(m_findings, 1);
    layout->addStretch();
    retranslate();
}

void UninstallPage::initializePage()
{
    listReceipts();
    showState();
}

void UninstallPage::listReceipts()
{
    const QString chosen = chosenReceipt();
    m_receipts = installedReceipts(m_session->context());
    m_list->clear();
    for (const auto &[receipt, path] : std::as_const(m_receipts)) {
        auto item = new QTreeWidgetItem(
            m_list, {receiptFolder(receipt), receiptCudnnVersion(receipt), receiptDate(receipt)});
        item->setData(0, Qt::UserRole, receipt.id);
        for (int column = 0; column < item->columnCount(); ++column)
            item->setToolTip(column, tr("%1\nReceipt %2").arg(receiptFolder(receipt), receipt.id));
        if (receipt.id == chosen)
            item->setSelected(true);
    }
    // The only one there is needs no choosing.
    if (m_list->topLevelItemCount() == 1)
        m_list->topLevelItem(0)->setSelected(true);
    if (!m_list->selectedItems().isEmpty())
        m_list->setCurrentItem(m_list->selectedItems().first());
}

QString UninstallPage::chosenReceipt() const
{
    const QList<QTreeWidgetItem *> selected = m_list->selectedItems();
    return selected.isEmpty() ? QString() : selected.first()->data(0, Qt::UserRole).toString();
}

bool UninstallPage::isUninstalling() const
{
    return m_job && m_job->isRunning();
}

// Uninstall (the commit button) is offered once an install is chosen.
bool UninstallPage::isComplete() const
{
    return !isUninstalling() && ((m_outcome && m_outcome->succeeded()) || !chosenReceipt().isEmpty());
}

bool UninstallPage::validatePage()
{
    if (m_outcome && m_outcome->succeeded())
        return true;
    startUninstall();
    return false;
}

// The shield belongs to this page's Uninstall, not to the Install page's commit button.
void UninstallPage::cleanupPage()
{
    if (wizard())
        wizard()->button(QWizard::CommitButton)->setIcon(QIcon());
    QWizardPage::cleanupPage();
}

void UninstallPage::startUninstall()
{
    const QString id = chosenReceipt();
    if (isUninstalling() || id.isEmpty())
        return;
    delete m_job;
    m_outcome.reset();
    m_uninstalled.reset();
    for (const auto &[receipt, path] : std::as_const(m_receipts)) {
        if (receipt.id == id)
            m_uninstalled = receipt;
    }
    m_job = new UninstallJob(id, m_session->context(), m_session->persistentEnvironment(), window()->winId(),
                             this);
    connect(m_job, &UninstallJob::finished, this, [this](const ChangeOutcome &outcome) {
        m_outcome = outcome;
        if (!outcome.succeeded())
            m_uninstalled.reset();
        listReceipts();
        showState();
        Q_EMIT completeChanged();
        // The one confirmation was the commit button: done, the summary follows at once; a
        // failure stays here with its findings.
        if (outcome.succeeded() && wizard()) {
            wizard()->setOption(QWizard::NoCancelButton, true);
            wizard()->next();
        }
    });
    m_job->start();
    showState();
    Q_EMIT completeChanged();
}

void UninstallPage::showState()
{
    const bool running = isUninstalling();
    const bool done = m_outcome && m_outcome->succeeded();
    m_list->setEnabled(!running);
    // Once it is gone the list has nothing left to choose from: the outcome takes its place.
    m_intro->setVisible(!done);
    m_list->setVisible(!done);
    // What the chosen install's uninstall removes, before the user presses Uninstall.
    QStringList removes;
    for (const Text &line : uninstallPreview(chosenReceipt(), m_receipts))
        removes.append(QStringLiteral("<li>%1</li>").arg(line.toString().toHtmlEscaped()));
    m_previewTitle->setVisible(!done && !removes.isEmpty());
    m_preview->setVisible(!done && !removes.isEmpty());
    m_preview->setText(QStringLiteral("<ul style=\"margin-top:0px; margin-bottom:0px\">%1</ul>")
                           .arg(removes.join(QString())));
    // Windows asks for administrator rights first: the button says so, as Windows' own do.
    const bool asksForAdmin = !chosenReceipt().isEmpty() &&
                              uninstallNeedsElevation(chosenReceipt(), m_receipts, ChangeOptions(),
                                                      m_session->context(), m_session->context().elevation());
    if (wizard() && wizard()->currentPage() == this)
        wizard()
            ->button(QWizard::CommitButton)
            ->setIcon(asksForAdmin && !done ? style()->standardIcon(QStyle::SP_VistaShield) : QIcon());
    Q_EMIT completeChanged();
    m_progress->setVisible(running);
    m_result->setVisible(m_outcome.has_value());
    m_findings->setVisible(m_outcome && !m_outcome->findings.isEmpty());
    if (!m_outcome) {
        m_findings->clear();
        return;
    }
    if (done && m_uninstalled) {
        m_result->setSummary(Status::Ok,
                             tr("Uninstalled: cuDNN %1 in %2. Its files, PATH entry and variables are "
                                "gone; the files it had replaced are back.")
                                 .arg(receiptCudnnVersion(*m_uninstalled), receiptFolder(*m_uninstalled)));
    } else {
        m_result->setSummary(Status::Error,
                             tr("Not uninstalled: nothing was changed. The findings below say why."));
    }
    m_findings->setFindings(m_outcome->findings);
}

void UninstallPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWizardPage::changeEvent(event);
}

void UninstallPage::retranslate()
{
    setTitle(tr("Uninstall"));
    setSubTitle(tr("Uninstall what cuDNN Setup installed, exactly as it recorded the install."));
    m_intro->setText(
        tr("Choose the install to uninstall. If a file changed after it was installed, cuDNN Setup "
           "names it and removes nothing."));
    m_list->setHeaderLabels({tr("Folder"), tr("cuDNN"), tr("Installed on")});
    m_list->setAccessibleName(tr("Installs made by cuDNN Setup"));
    setButtonText(QWizard::CommitButton, tr("&Uninstall"));
    m_previewTitle->setText(tr("Pressing Uninstall will:"));
    m_progress->setAccessibleName(tr("Uninstalling"));
    m_findings->setAccessibleName(tr("Findings"));
    showState();
}

} // namespace cudnnsetup::wizard
