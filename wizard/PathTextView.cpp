#include "PathTextView.h"

#include "Artwork.h"

#include <QMimeData>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTextLayout>
#include <QtMath>

namespace cudnnsetup::wizard {

namespace {

constexpr QChar kBreak(0x200B); // what breakablePath() adds

} // namespace

PathTextView::PathTextView(int maximumLines, QWidget *parent)
    : QPlainTextEdit(parent)
    , m_maximumLines(maximumLines)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFont(codeFont());
    fitHeight();
}

void PathTextView::setText(const QString &text)
{
    m_text = text;
    setPlainText(breakablePath(text));
    fitHeight();
}

int PathTextView::shownLines() const
{
    int lines = 0;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        blockBoundingRect(block); // lays the block out at the view's width, as drawing it does
        lines += qMax(1, block.layout()->lineCount());
    }
    return qMax(1, lines);
}

QMimeData *PathTextView::createMimeDataFromSelection() const
{
    auto mime = new QMimeData;
    mime->setText(textCursor().selection().toPlainText().remove(kBreak));
    return mime;
}

void PathTextView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    fitHeight(); // a new width wraps the lines anew
}

void PathTextView::fitHeight()
{
    // The blocks as laid out, up to the line that would be one too many; then no more room.
    qreal text = 0;
    int lines = 0;
    for (QTextBlock block = document()->begin(); block.isValid() && lines < m_maximumLines;
         block = block.next()) {
        const QRectF area = blockBoundingRect(block);
        const int blockLines = qMax(1, block.layout()->lineCount());
        const int taken = qMin(blockLines, m_maximumLines - lines);
        text += area.height() * taken / blockLines;
        lines += taken;
    }
    const int margins = 2 * (frameWidth() + qCeil(document()->documentMargin()));
    const int height = qCeil(text) + margins + 1; // +1: rounding
    if (this->height() != height)
        setFixedHeight(height);
}

} // namespace cudnnsetup::wizard
