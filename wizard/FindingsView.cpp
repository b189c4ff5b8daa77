#include "FindingsView.h"

#include "Artwork.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

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
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QString body = finding.message.toString().toHtmlEscaped();
        if (!finding.fix.isEmpty())
            body += QStringLiteral("<br><i>%1</i>")
                        .arg(tr("What to do: %1").arg(finding.fix.toString().toHtmlEscaped()));
        text->setText(body);
        text->setToolTip(finding.details);
        text->setAccessibleName(finding.message.toString());
        auto rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 2, 0, 2);
        rowLayout->addWidget(icon, 0, Qt::AlignTop);
        rowLayout->addWidget(text, 1);
        m_layout->addWidget(row);
    }
    m_layout->addStretch();
}

} // namespace cudnnsetup::wizard
