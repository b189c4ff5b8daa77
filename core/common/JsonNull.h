#pragma once

#include <QJsonValue>
#include <QString>

namespace cudnnsetup {

// A text nobody could read is null in JSON, never "".
inline QJsonValue orNull(const QString &value)
{
    return value.isEmpty() ? QJsonValue() : QJsonValue(value);
}

} // namespace cudnnsetup
