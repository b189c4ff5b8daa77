#include "common/Translations.h"

#include "common/Logging.h"

#include <QCoreApplication>
#include <QTranslator>

namespace cudnnsetup {

QTranslator *Translations::s_app = nullptr;
QTranslator *Translations::s_qt = nullptr;
QString Translations::s_current = QStringLiteral("en");

QStringList Translations::supportedLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString Translations::languageForLocale(const QLocale &locale)
{
    const QStringList languages = locale.uiLanguages();
    for (const QString &language : languages) {
        const QString normalized = normalize(language);
        if (!normalized.isEmpty())
            return normalized;
    }
    return QStringLiteral("en");
}

QString Translations::normalize(const QString &language)
{
    const QString lower = language.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (lower == QLatin1String("zh") || lower.startsWith(QLatin1String("zh_")))
        return QStringLiteral("zh_CN");
    if (lower == QLatin1String("en") || lower.startsWith(QLatin1String("en_")) || lower == QLatin1String("c"))
        return QStringLiteral("en");
    return {};
}

QString Translations::languageArgument(const QStringList &arguments)
{
    for (int i = 1; i < arguments.size(); ++i) {
        const QString &argument = arguments.at(i);
        if (argument == QLatin1String("--lang") && i + 1 < arguments.size())
            return arguments.at(i + 1);
        if (argument.startsWith(QLatin1String("--lang=")))
            return argument.mid(7);
    }
    return {};
}

bool Translations::install(const QString &language)
{
    const QString normalized = normalize(language);
    if (normalized.isEmpty())
        return false;

    for (QTranslator **slot : {&s_app, &s_qt}) {
        if (*slot) {
            QCoreApplication::removeTranslator(*slot);
            delete *slot;
            *slot = nullptr;
        }
    }
    s_current = normalized;
    // English needs no Qt translation, but its own file still carries the plural forms.
    if (normalized != QLatin1String("en")) {
        s_qt = new QTranslator;
        if (s_qt->load(QStringLiteral(":/i18n/qtbase_%1.qm").arg(normalized)))
            QCoreApplication::installTranslator(s_qt);
        else
            qCWarning(lcCore) << "Qt's own translation for" << normalized << "is missing";
    }
    s_app = new QTranslator;
    if (!s_app->load(QStringLiteral(":/i18n/cudnn-setup_%1.qm").arg(normalized))) {
        qCWarning(lcCore) << "translation" << normalized << "is missing";
        return false;
    }
    QCoreApplication::installTranslator(s_app);
    return true;
}

QString Translations::current()
{
    return s_current;
}

} // namespace cudnnsetup
