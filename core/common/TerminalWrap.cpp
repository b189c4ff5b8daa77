#include "common/TerminalWrap.h"

namespace cudnnsetup {

namespace {

bool isWide(char32_t code)
{
    return (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
           (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
           (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
           (code >= 0xFFE0 && code <= 0xFFE6) || (code >= 0x20000 && code <= 0x3FFFD);
}

// Marks that may not start a line, and marks that may not end one.
bool closesText(char32_t code)
{
    return code <= 0xFFFF && QStringView(u"，。、；：？！）」』”’》…").contains(QChar(char16_t(code)));
}

bool opensText(char32_t code)
{
    return code <= 0xFFFF && QStringView(u"（「『“‘《").contains(QChar(char16_t(code)));
}

struct Unit
{
    QString text;
    bool spaceBefore = false;
};

// Words stay whole; each wide character is a unit of its own, with the marks around it attached so
// that a break never separates them.
QList<Unit> unitsOf(const QString &text)
{
    QList<Unit> units;
    bool space = false;
    bool inWord = false;
    bool attachNext = false;
    for (char32_t code : QStringView(text).toUcs4()) {
        const QString character = QString::fromUcs4(&code, 1);
        if (QChar::isSpace(code)) {
            space = true;
            inWord = false;
            continue;
        }
        const bool wide = isWide(code);
        if (!units.isEmpty() && !space && (attachNext || closesText(code) || (inWord && !wide))) {
            units.last().text += character;
        } else {
            units.append({character, space && !units.isEmpty()});
        }
        attachNext = opensText(code);
        inWord = !wide;
        space = false;
    }
    return units;
}

} // namespace

int displayWidth(QStringView text)
{
    int width = 0;
    for (char32_t code : text.toUcs4())
        width += isWide(code) ? 2 : 1;
    return width;
}

QStringList wrapToWidth(const QString &text, int columns)
{
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        int used = 0;
        for (const Unit &unit : unitsOf(paragraph)) {
            const int unitWidth = displayWidth(unit.text);
            const int gap = (used > 0 && unit.spaceBefore) ? 1 : 0;
            if (used > 0 && used + gap + unitWidth > columns) {
                lines.append(line);
                line.clear();
                used = 0;
            } else if (gap) {
                line += QLatin1Char(' ');
                used += 1;
            }
            line += unit.text;
            used += unitWidth;
        }
        lines.append(line);
    }
    return lines;
}

QString hangingRows(const QList<std::pair<QString, QString>> &rows, int maxNameWidth, int columns)
{
    constexpr int kIndent = 2;
    constexpr int kGap = 2;
    int nameWidth = 0;
    for (const auto &[name, text] : rows) {
        if (displayWidth(name) <= maxNameWidth)
            nameWidth = qMax(nameWidth, displayWidth(name));
    }
    const int textColumn = kIndent + nameWidth + kGap;
    const QString hang(textColumn, QLatin1Char(' '));
    QString out;
    for (const auto &[name, text] : rows) {
        const QStringList lines = wrapToWidth(text, qMax(columns - textColumn, 20));
        QString head = QString(kIndent, QLatin1Char(' ')) + name;
        if (displayWidth(name) > nameWidth) {
            out += head + QLatin1Char('\n');
            head = hang;
        } else {
            head += QString(textColumn - kIndent - displayWidth(name), QLatin1Char(' '));
        }
        for (int i = 0; i < lines.size(); ++i)
            out += (i == 0 ? head : hang) + lines.at(i) + QLatin1Char('\n');
    }
    return out;
}

} // namespace cudnnsetup
