#pragma once

#include "common/Finding.h"

#include <QList>
#include <QPair>
#include <QString>

namespace cudnnsetup {

// Label/value rows for a terminal, the values lined up in one column. Widths are counted in
// terminal cells, so Chinese labels (two cells a character) line up too.
class TextTable
{
public:
    void row(const QString &label, const QString &value) { m_rows.append({label, value}); }
    QString text() const;

private:
    QList<QPair<QString, QString>> m_rows;
};

// The cells a text takes in a terminal: East Asian wide characters take two.
int terminalWidth(const QString &text);

// "Findings" and one "[error] message / Fix: …" entry per finding; empty when there are none.
QString findingsText(const Findings &findings);
// A finding's severity as text output tags it, in the reader's language: "error", "warning", "note".
QString severityLabel(Severity severity);
// Where detection found something ("toolkit", "pip", "system32", ...) in the reader's language.
QString sourceLabel(const QString &source);

} // namespace cudnnsetup
