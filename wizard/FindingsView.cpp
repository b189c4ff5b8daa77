#include "FindingsView.h"

#include "Artwork.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

QString detailsTip(const QString &details)
{
    return details.isEmpty()
               ? QString()
               : FindingsView::tr("Technical details, in English:") + QLatin1Char('\n') + details;
}

QString withLinks(const QString &plain)
{
    // An address ends before the punctuation of the sentence around it.
    static const QRegularExpression address(QStringLiteral(
        R"((?:https?://|(?:developer\.|www\.)?nvidia\.com/)[^\s<>"'，。；）]*[^\s<>"'.,;:!?)，。；）])"));
    QString html;
    qsizetype done = 0;
    for (const QRegularExpressionMatch &match : address.globalMatch(plain)) {
        html += plain.mid(done, match.capturedStart() - done).toHtmlEscaped();
        const QString shown = match.captured();
        QString target = shown.startsWith(QLatin1String("http")) ? shown : QStringLiteral("https://") + shown;
        target.remove(QChar(0x200B)); // breakablePath's break opportunities are no part of an address
        html += QStringLiteral("<a href=\"%1\">%2</a>").arg(target.toHtmlEscaped(), shown.toHtmlEscaped());
        done = match.capturedEnd();
    }
    return html + plain.mid(done).toHtmlEscaped();
}

FindingsView::FindingsView(QWidget *parent)
    : QScrollArea(parent)
    , m_list(new QWidget)
    , m_layout(new QVBoxLayout(m_list))
{
    setObjectName(QStringLiteral("findings"));
    m_layout->setContentsMargins(0, 0, 0, 0);
    setWidget(m_list);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
}

void FindingsView::setFindings(const Findings &findings)
{
    while (QLayoutItem *item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const Finding &finding : findings) {
        auto row = new QWidget;
        auto icon = new QLabel(row);
        icon->setPixmap(statusIcon(statusFor(finding.severity)).pixmap(kRowIconSize, kRowIconSize));
        auto text = new QLabel(row);
        text->setObjectName(finding.id);
        text->setWordWrap(true);
        text->setTextFormat(Qt::RichText); // the message is escaped, the fix set in italics
        text->setTextInteractionFlags(Qt::TextBrowserInteraction);
        text->setOpenExternalLinks(true);
        QString body = withLinks(breakablePath(finding.message.toString()));
        if (!finding.fix.isEmpty())
            body += QStringLiteral("<br><i>%1</i>")
                        .arg(withLinks(tr("What to do: %1").arg(finding.fix.toString())));
        text->setText(body);
        text->setToolTip(detailsTip(finding.details));
        text->setAccessibleName(finding.message.toString());
        auto rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 2, 0, 2);
        rowLayout->addWidget(icon, 0, Qt::AlignTop);
        rowLayout->addWidget(text, 1);
        m_layout->addWidget(row);
        // Now, not by the layout's queued call: until then the row counts for no height, and a page
        // painted (or grabbed) in between showed the findings' heading with nothing under it.
        row->show();
    }
    m_layout->addStretch();
    updateGeometry();
}

QSize FindingsView::sizeHint() const
{
    // Word-wrapped rows know their height only for a width: the one the view has now.
    const int width = qMax(viewport()->width(), 200);
    const int height =
        m_layout->hasHeightForWidth() ? m_layout->heightForWidth(width) : m_list->sizeHint().height();
    return {QScrollArea::sizeHint().width(), height + 2 * frameWidth()};
}

void FindingsView::resizeEvent(QResizeEvent *event)
{
    QScrollArea::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        updateGeometry(); // the rows wrap anew, and need another height
}

QSize FindingsView::minimumSizeHint() const
{
    const int oneRow = fontMetrics().lineSpacing() * 3;
    return {QScrollArea::minimumSizeHint().width(), qMin(sizeHint().height(), oneRow)};
}

} // namespace cudnnsetup::wizard
