#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

class QTranslator;

namespace cudnnsetup {

// Loads the program's own strings and Qt's (so QWizard's Back/Next/Cancel follow the language),
// both embedded under :/i18n, and switches them at run time.
class Translations
{
public:
    static QStringList supportedLanguages(); // "en", "zh_CN"
    // "zh_CN" for any Chinese UI language of `locale`, else "en". Chinese users of Traditional
    // locales read Simplified far better than English.
    static QString languageForLocale(const QLocale &locale);
    // Normalises user input such as "zh", "zh-CN", "zh_CN", "en_US"; empty if unsupported.
    static QString normalize(const QString &language);

    // The value of "--lang X" / "--lang=X" in a command line, or null. Read before the parser is
    // built, because the option descriptions themselves are translated.
    static QString languageArgument(const QStringList &arguments);

    // Installs the translators for `language` (replacing any installed before; QCoreApplication
    // then sends QEvent::LanguageChange to every widget). Returns false for an unsupported language.
    static bool install(const QString &language);
    static QString current();

private:
    static QTranslator *s_app;
    static QTranslator *s_qt;
    static QString s_current;
};

} // namespace cudnnsetup
