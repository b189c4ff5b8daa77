#include "InfoIcon.h"

#include "Artwork.h"

#include <QEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QTreeWidgetItem>

namespace cudnnsetup::wizard {

namespace {

constexpr int kInfoIconSize = 16;

QString termName(Term term)
{
    switch (term) {
    case Term::ComputeCapability:
        return QStringLiteral("computeCapability");
    case Term::Handle:
        return QStringLiteral("handle");
    case Term::ImportLibrary:
        return QStringLiteral("importLibrary");
    case Term::Path:
        break;
    }
    return QStringLiteral("path");
}

} // namespace

InfoIcon::InfoIcon(Term term, QWidget *parent)
    : QLabel(parent)
    , m_term(term)
{
    setObjectName(QStringLiteral("info-") + termName(term));
    setPixmap(explanationIcon().pixmap(kInfoIconSize, kInfoIconSize));
    setFixedSize(kInfoIconSize, kInfoIconSize);
    setCursor(Qt::WhatsThisCursor);
    retranslate();
}

QString InfoIcon::explanation(Term term)
{
    switch (term) {
    case Term::ComputeCapability:
        return tr(
            "Compute capability is how CUDA numbers a graphics card's generation (8.6 for an RTX 3060). "
            "Each cuDNN release runs on a range of them; this wizard checks yours.");
    case Term::Handle:
        return tr("A handle is what a program gets from cuDNN when it starts to use it on a graphics card. "
                  "Getting one proves that cuDNN, the driver and the card work together.");
    case Term::ImportLibrary:
        return tr("Import libraries (.lib files) are what a C++ compiler links against to use the DLLs. "
                  "Only people who compile their own code need them.");
    case Term::Path:
        break;
    }
    return tr("PATH (the environment variable Path) is the list of folders where Windows looks for "
              "programs and DLLs. Programs read it when they start: windows already open keep the old list.");
}

void InfoIcon::retranslate()
{
    const QString text = explanation(m_term);
    setToolTip(text);
    setWhatsThis(text);
    setAccessibleName(tr("Explanation"));
    setAccessibleDescription(text);
}

void InfoIcon::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QLabel::changeEvent(event);
}

// A click shows the explanation at once, for those who click rather than wait.
void InfoIcon::mousePressEvent(QMouseEvent *event)
{
    QToolTip::showText(event->globalPosition().toPoint(), toolTip(), this);
    QLabel::mousePressEvent(event);
}

void markExplained(QTreeWidgetItem *item, int column, Term term)
{
    const QString text = InfoIcon::explanation(term);
    item->setIcon(column, explanationIcon());
    item->setToolTip(column, item->text(column) + QStringLiteral("\n\n") + text);
    item->setWhatsThis(column, text);
}

} // namespace cudnnsetup::wizard
