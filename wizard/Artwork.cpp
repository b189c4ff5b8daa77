#include "Artwork.h"

#include <QFont>
#include <QFontDatabase>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace cudnnsetup::wizard {

Status statusFor(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return Status::Error;
    case Severity::Warning:
        return Status::Warning;
    case Severity::Info:
        return Status::Info;
    }
    return Status::Info;
}

QColor statusColour(Status status)
{
    switch (status) {
    case Status::Ok:
        return QColor(0x2e, 0x7d, 0x32);
    case Status::Info:
        return QColor(0x15, 0x65, 0xc0);
    case Status::Warning:
        return QColor(0xc7, 0x7c, 0x02);
    case Status::Error:
        return QColor(0xc6, 0x28, 0x28);
    }
    return QColor(0x15, 0x65, 0xc0);
}

static QPixmap drawStatus(Status status, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF box(size * 0.06, size * 0.06, size * 0.88, size * 0.88);
    const QColor fill = statusColour(status);
    QPainterPath shape;
    switch (status) {
    case Status::Ok:
    case Status::Info:
        shape.addEllipse(box);
        break;
    case Status::Warning:
        shape.moveTo(box.center().x(), box.top());
        shape.lineTo(box.right(), box.bottom());
        shape.lineTo(box.left(), box.bottom());
        shape.closeSubpath();
        break;
    case Status::Error:
        shape.addRoundedRect(box, size * 0.12, size * 0.12);
        break;
    }
    painter.fillPath(shape, fill);
    QPen pen(Qt::white, size * 0.12, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    painter.setPen(pen);
    const qreal s = size;
    switch (status) {
    case Status::Ok:
        painter.drawPolyline(QPolygonF{{s * 0.28, s * 0.52}, {s * 0.44, s * 0.68}, {s * 0.72, s * 0.36}});
        break;
    case Status::Info:
        painter.drawLine(QPointF(s * 0.5, s * 0.46), QPointF(s * 0.5, s * 0.72));
        painter.drawPoint(QPointF(s * 0.5, s * 0.3));
        break;
    case Status::Warning:
        painter.drawLine(QPointF(s * 0.5, s * 0.4), QPointF(s * 0.5, s * 0.66));
        painter.drawPoint(QPointF(s * 0.5, s * 0.8));
        break;
    case Status::Error:
        painter.drawLine(QPointF(s * 0.32, s * 0.32), QPointF(s * 0.68, s * 0.68));
        painter.drawLine(QPointF(s * 0.68, s * 0.32), QPointF(s * 0.32, s * 0.68));
        break;
    }
    return pixmap;
}

QIcon statusIcon(Status status)
{
    QIcon icon;
    for (int size : {16, 20, 24, 32, 48, 64})
        icon.addPixmap(drawStatus(status, size));
    return icon;
}

// An outlined (i): unlike the filled status icons it marks no result, only that an explanation is
// there to read.
static QPixmap drawExplanation(int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor blue(0x15, 0x65, 0xc0);
    const qreal s = size;
    painter.setPen(QPen(blue, s * 0.08));
    painter.drawEllipse(QRectF(s * 0.1, s * 0.1, s * 0.8, s * 0.8));
    painter.setPen(QPen(blue, s * 0.12, Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(QPointF(s * 0.5, s * 0.46), QPointF(s * 0.5, s * 0.7));
    painter.drawPoint(QPointF(s * 0.5, s * 0.3));
    return pixmap;
}

QIcon explanationIcon()
{
    QIcon icon;
    for (int size : {16, 20, 24, 32})
        icon.addPixmap(drawExplanation(size));
    return icon;
}

QPixmap logo(int logicalSize, qreal devicePixelRatio)
{
    const int size = qRound(logicalSize * devicePixelRatio);
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const QRectF box(size * 0.04, size * 0.04, size * 0.92, size * 0.92);
    QLinearGradient gradient(box.topLeft(), box.bottomRight());
    gradient.setColorAt(0, QColor(0x8d, 0xc6, 0x3f));
    gradient.setColorAt(1, QColor(0x4e, 0x8a, 0x00));
    painter.setBrush(gradient);
    painter.setPen(Qt::NoPen);
    painter.drawRoundedRect(box, size * 0.18, size * 0.18);
    // A small network of nodes: the "DNN" in cuDNN.
    painter.setPen(QPen(QColor(255, 255, 255, 200), size * 0.03));
    const QList<QPointF> left{
        {size * 0.28, size * 0.3}, {size * 0.28, size * 0.5}, {size * 0.28, size * 0.7}};
    const QList<QPointF> right{{size * 0.72, size * 0.4}, {size * 0.72, size * 0.6}};
    for (const QPointF &a : left) {
        for (const QPointF &b : right)
            painter.drawLine(a, b);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(Qt::white);
    for (const QPointF &point : left + right)
        painter.drawEllipse(point, size * 0.065, size * 0.065);
    painter.end();
    pixmap.setDevicePixelRatio(devicePixelRatio);
    return pixmap;
}

double contrastRatio(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &colour) {
        const auto channel = [](double value) {
            return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) +
               0.0722 * channel(colour.blueF());
    };
    const double first = luminance(a);
    const double second = luminance(b);
    return (std::max(first, second) + 0.05) / (std::min(first, second) + 0.05);
}

void makeSecondaryText(QWidget *widget)
{
    QPalette palette = widget->palette();
    const QColor text = palette.color(QPalette::WindowText);
    const QColor background = palette.color(QPalette::Window);
    // From two thirds of the way to the background towards the text, until it reads well enough.
    QColor secondary = text;
    for (double weight = 0.65; weight <= 1.0; weight += 0.05) {
        secondary = QColor::fromRgbF(float(text.redF() * weight + background.redF() * (1 - weight)),
                                     float(text.greenF() * weight + background.greenF() * (1 - weight)),
                                     float(text.blueF() * weight + background.blueF() * (1 - weight)));
        if (contrastRatio(secondary, background) >= 4.5)
            break;
    }
    palette.setColor(QPalette::WindowText, secondary);
    widget->setPalette(palette);
}

QFont codeFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setFamilies({QStringLiteral("Consolas"), QStringLiteral("Courier New"),
                      QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Noto Sans Mono"),
                      QStringLiteral("Liberation Mono"), font.family()});
    font.setStyleHint(QFont::Monospace);
    return font;
}

QString breakablePath(const QString &path)
{
    QString breakable;
    for (const QChar character : path) {
        breakable += character;
        if (character == QLatin1Char('\\') || character == QLatin1Char('/'))
            breakable += QChar(0x200B); // zero width space: a place to break, nothing drawn
    }
    return breakable;
}

} // namespace cudnnsetup::wizard
