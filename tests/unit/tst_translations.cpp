#include "BuildPaths.h"
#include "Suite.h"
#include "common/TerminalWrap.h"
#include "common/Text.h"
#include "common/Translations.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

using namespace cudnnsetup;

class TestTranslations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void languageNames_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zh") << "zh"
                            << "zh_CN";
        QTest::newRow("zh-CN") << "zh-CN"
                               << "zh_CN";
        QTest::newRow("zh_TW reads Simplified") << "zh_TW"
                                                << "zh_CN";
        QTest::newRow("en_US") << "en_US"
                               << "en";
        QTest::newRow("C locale") << "C"
                                  << "en";
        QTest::newRow("unsupported") << "fr_FR"
                                     << "";
    }
    void languageNames()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(Translations::normalize(input), expected);
    }

    void localePicksLanguage()
    {
        QCOMPARE(Translations::languageForLocale(QLocale(QLocale::Chinese, QLocale::China)),
                 QStringLiteral("zh_CN"));
        QCOMPARE(Translations::languageForLocale(QLocale(QLocale::German, QLocale::Germany)),
                 QStringLiteral("en"));
    }

    void chineseIsEmbeddedAndLive()
    {
        const Text text(QT_TRANSLATE_NOOP("cudnnsetup", "No cuDNN was found on this system."));
        QCOMPARE(text.toString(), QStringLiteral("No cuDNN was found on this system."));
        QVERIFY(Translations::install(QStringLiteral("zh_CN")));
        QCOMPARE(Translations::current(), QStringLiteral("zh_CN"));
        QVERIFY(text.toString() != text.toEnglish());
        QVERIFY(text.toString().contains(QStringLiteral("cuDNN")));
        // Qt's own strings come along, so QWizard's buttons speak Chinese too.
        QVERIFY(QCoreApplication::translate("QWizard", "Cancel") != QLatin1String("Cancel"));
        QVERIFY(Translations::install(QStringLiteral("en")));
        QCOMPARE(text.toString(), text.toEnglish());
        QVERIFY(!Translations::install(QStringLiteral("fr")));
    }

    // Arguments are put in one pass: a path holding "%2" stays as it is, and a translated piece
    // inside a translated sentence follows the language.
    void textArguments()
    {
        QVERIFY(Translations::install(QStringLiteral("en")));
        const Text sentence =
            Text(QT_TRANSLATE_NOOP("cudnnsetup", "Driver %1 is too old for CUDA %2, which needs "
                                                 "driver %3 or newer."))
                .arg(QStringLiteral("C:\\50%2off"), QStringLiteral("12.2"), QStringLiteral("528.33"));
        QCOMPARE(sentence.toString(),
                 QStringLiteral(
                     "Driver C:\\50%2off is too old for CUDA 12.2, which needs driver 528.33 or newer."));
        const Text gpu = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (compute capability %2)"))
                             .arg(Text(QT_TRANSLATE_NOOP("cudnnsetup", "the GPU")), QStringLiteral("6.1"));
        const Text nested = Text(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN %1 for CUDA %2 does not support %3."))
                                .arg(QStringLiteral("9.17.0.29"), QStringLiteral("12"))
                                .arg(gpu);
        QCOMPARE(
            nested.toString(),
            QStringLiteral("cuDNN 9.17.0.29 for CUDA 12 does not support the GPU (compute capability 6.1)."));
        QVERIFY(Translations::install(QStringLiteral("zh_CN")));
        const QString chinese = nested.toString();
        QVERIFY2(!chinese.contains(QLatin1String("compute capability")) &&
                     !chinese.contains(QLatin1String("the GPU")),
                 qPrintable(chinese));
        QVERIFY(chinese.contains(QLatin1String("6.1")) && chinese.contains(QLatin1String("9.17.0.29")));
        QCOMPARE(
            nested.toEnglish(),
            QStringLiteral("cuDNN 9.17.0.29 for CUDA 12 does not support the GPU (compute capability 6.1)."));
    }

    // A list of names joins with the separator of the language it is shown in, its translated
    // items too: ", " in English, "、" in Chinese, never a comma from core.
    void listsJoinInTheLanguage()
    {
        const Text copies = Text::list({Text::verbatim(QStringLiteral("C:\\a")),
                                        Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (%2)"))
                                            .arg(QStringLiteral("C:\\b"), QStringLiteral("9.1.0"))});
        QVERIFY(Translations::install(QStringLiteral("en")));
        QCOMPARE(copies.toString(), QStringLiteral("C:\\a, C:\\b (9.1.0)"));
        QVERIFY(Translations::install(QStringLiteral("zh_CN")));
        QCOMPARE(copies.toString(), QStringLiteral("C:\\a、C:\\b（9.1.0）"));
        QCOMPARE(copies.toEnglish(), QStringLiteral("C:\\a, C:\\b (9.1.0)"));
        QCOMPARE(Text::list(QStringList{QStringLiteral("x")}).toString(), QStringLiteral("x"));
        QCOMPARE(Text::list(QStringList()).toString(), QString());
    }

    void englishPluralsAreRealWords()
    {
        QVERIFY(Translations::install(QStringLiteral("en")));
        const char *context = "cudnnsetup::wizard::HardwarePage";
        const char *source =
            "This computer is ready for a cuDNN install; %n thing(s) below are worth checking.";
        QCOMPARE(
            QCoreApplication::translate(context, source, nullptr, 1),
            QStringLiteral("This computer is ready for a cuDNN install; 1 thing below is worth checking."));
        QCOMPARE(
            QCoreApplication::translate(context, source, nullptr, 3),
            QStringLiteral("This computer is ready for a cuDNN install; 3 things below are worth checking."));
    }

    // Every translation keeps the source's %1..%n and its shortcut, so no argument is lost.
    void placeholdersSurvive()
    {
        QFile file(BuildPaths::sourceDir() + QStringLiteral("/translations/cudnn-setup_zh_CN.ts"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QString source;
        int checked = 0;
        static const QRegularExpression placeholder(QStringLiteral("%(\\d|n)"));
        const auto placeholders = [](const QString &text) {
            QStringList found;
            auto it = placeholder.globalMatch(text);
            while (it.hasNext())
                found.append(it.next().captured(0));
            found.sort();
            found.removeDuplicates();
            return found;
        };
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.name() == QLatin1String("translation") ||
                       xml.name() == QLatin1String("numerusform")) {
                const QString translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
                if (translation.isEmpty())
                    continue;
                QCOMPARE(placeholders(translation), placeholders(source));
                QCOMPARE(translation.contains(QLatin1Char('&')), source.contains(QLatin1Char('&')));
                ++checked;
            }
        }
        QVERIFY(!xml.hasError());
        QVERIFY(checked > 50);
    }

    // --help is wrapped by terminal columns, where a Chinese character takes two: a Chinese text
    // fits, breaks between characters and never before a closing mark, loses nothing; English
    // breaks between words; the texts of a list of rows start in one column.
    void wrapsByDisplayWidth()
    {
        QCOMPARE(displayWidth(u"cuDNN 安装向导"), 14);

        const QString chinese = QString(30, QChar(0x6D4B)) + QStringLiteral("，") +
                                QString(20, QChar(0x8BD5)) + QStringLiteral("（x64）。") +
                                QString(25, QChar(0x5B57));
        const QStringList lines = wrapToWidth(chinese, 40);
        QVERIFY(lines.size() >= 4);
        for (const QString &line : lines) {
            QVERIFY2(displayWidth(line) <= 40, qPrintable(line));
            QVERIFY2(!QStringView(u"，。）").contains(line.front()), qPrintable(line));
            QVERIFY2(!line.endsWith(QStringLiteral("（")), qPrintable(line));
        }
        QCOMPARE(lines.join(QString()), chinese);

        QCOMPARE(wrapToWidth(QStringLiteral("one two three four"), 9),
                 (QStringList{QStringLiteral("one two"), QStringLiteral("three"), QStringLiteral("four")}));
        QCOMPARE(wrapToWidth(QStringLiteral("cudnn-setup/status/1 x"), 8),
                 (QStringList{QStringLiteral("cudnn-setup/status/1"), QStringLiteral("x")}));

        const QString rows = hangingRows({{QStringLiteral("-v"), QStringLiteral("版本")},
                                          {QStringLiteral("--json"), QString(40, QChar(0x5B57))},
                                          {QStringLiteral("--a-very-long-option-name"), QStringLiteral("x")}},
                                         10, 40);
        QCOMPARE(rows, QStringLiteral("  -v      版本\n"
                                      "  --json  ") +
                           QString(15, QChar(0x5B57)) + QStringLiteral("\n          ") +
                           QString(15, QChar(0x5B57)) + QStringLiteral("\n          ") +
                           QString(10, QChar(0x5B57)) +
                           QStringLiteral("\n  --a-very-long-option-name\n          x\n"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
