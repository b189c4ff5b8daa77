#pragma once

#include <QPlainTextEdit>
#include <QString>

class QMimeData;

namespace cudnnsetup::wizard {

// Read-only monospace lines (a repair's exact changes) that wrap long paths between their folders
// instead of scrolling sideways, and copy as they were given: the break opportunities after each
// separator (breakablePath) are in what is drawn only, never in what is copied or dragged out. As
// high as its wrapped lines, up to `maximumLines`.
class PathTextView final : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit PathTextView(int maximumLines, QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    // The lines the text takes at the view's width, wrapped (at least 1).
    int shownLines() const;

protected:
    QMimeData *createMimeDataFromSelection() const override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitHeight();

    int m_maximumLines;
    QString m_text;
};

} // namespace cudnnsetup::wizard
