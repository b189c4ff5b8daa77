#pragma once

#include <QLabel>

class QTreeWidgetItem;

namespace cudnnsetup::wizard {

// The words a first-time user does not know, each explained the same way on every page.
enum class Term
{
    ComputeCapability,
    Handle,
    ImportLibrary,
    Path,
};

// A visible (i) beside such a word: students do not hover over plain text. Its explanation shows
// on hover, on a click, through What's This and to a screen reader. Named "info-<term>".
class InfoIcon final : public QLabel
{
    Q_OBJECT

public:
    InfoIcon(Term term, QWidget *parent);

    static QString explanation(Term term);

protected:
    void changeEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void retranslate();

    Term m_term;
};

// The same (i) on a row of a facts tree, before the answer in `column`, which names the term.
void markExplained(QTreeWidgetItem *item, int column, Term term);

} // namespace cudnnsetup::wizard
