#pragma once

#include "common/Finding.h"

#include <QScrollArea>

class QVBoxLayout;

namespace cudnnsetup::wizard {

// Findings as a list a person reads: an icon of their severity, the message, and the fix in
// italics; the technical details in the tooltip. Scrolls when there are many.
class FindingsView final : public QScrollArea
{
    Q_OBJECT

public:
    explicit FindingsView(QWidget *parent = nullptr);

    void setFindings(const Findings &findings);
    void clear() { setFindings({}); }

private:
    QWidget *m_list;
    QVBoxLayout *m_layout;
};

} // namespace cudnnsetup::wizard
