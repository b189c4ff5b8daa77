#include "SummaryBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

SummaryBanner::SummaryBanner(const QString &name, WithoutStatus withoutStatus, QWidget *parent)
    : QWidget(parent)
    , m_withoutStatus(withoutStatus)
{
    setObjectName(name + QStringLiteral("Banner"));
    m_icon = new QLabel(this);
    m_icon->setObjectName(name + QStringLiteral("Icon"));
    m_icon->setFixedSize(kSummaryIconSize, kSummaryIconSize);
    m_text = new QLabel(this);
    m_text->setObjectName(name + QStringLiteral("Label"));
    m_text->setWordWrap(true);
    QFont bold = m_text->font();
    bold.setBold(true);
    m_text->setFont(bold);
    m_column = new QVBoxLayout;
    m_column->addWidget(m_text);
    auto row = new QHBoxLayout(this);
    // Laid out as a row of the page's own layout would be.
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_icon, 0, Qt::AlignTop);
    row->addLayout(m_column, 1);
}

void SummaryBanner::setSummary(Status status, const QString &text)
{
    m_icon->setPixmap(statusIcon(status).pixmap(kSummaryIconSize, kSummaryIconSize));
    m_icon->setAccessibleName(text);
    m_icon->show();
    m_text->setText(text);
    m_text->setAccessibleName(text);
}

void SummaryBanner::setPending(const QString &text)
{
    m_icon->clear();
    m_icon->setAccessibleName(text);
    m_icon->setVisible(m_withoutStatus == WithoutStatus::KeepIconRoom);
    m_text->setText(text);
    m_text->setAccessibleName(text);
}

void SummaryBanner::addBelow(QWidget *widget)
{
    m_column->addWidget(widget);
}

} // namespace cudnnsetup::wizard
