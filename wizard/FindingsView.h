#pragma once

#include "common/Finding.h"

#include <QScrollArea>

class QVBoxLayout;

namespace cudnnsetup::wizard {

// A finding's technical details as a tooltip: said to be the English of logs and support (they name
// files, codes and search orders as tools print them); empty without details.
QString detailsTip(const QString &details);

// `plain` as rich text, escaped, with every web address in it a link (a bare "nvidia.com/…" too).
QString withLinks(const QString &plain);

// Findings as a list a person reads: an icon of their severity, the message, and the fix in
// italics, their web addresses links; the technical details in the tooltip. It asks for the room
// its findings take, so a page gives it that before anything else, and scrolls only beyond it.
class FindingsView final : public QScrollArea
{
    Q_OBJECT

public:
    explicit FindingsView(QWidget *parent = nullptr);

    void setFindings(const Findings &findings);
    void clear() { setFindings({}); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *m_list;
    QVBoxLayout *m_layout;
};

} // namespace cudnnsetup::wizard
