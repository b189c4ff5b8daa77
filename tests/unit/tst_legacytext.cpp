#include "Suite.h"
#include "platform/LegacyText.h"

#include <QTest>

using namespace cudnnsetup;

class TestLegacyText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("codePage");
        QTest::addColumn<QString>("text");
        // "cudnn-中文说明.txt" as a Chinese zip tool writes it, without the UTF-8 flag.
        QTest::newRow("GBK name") << QByteArray("cudnn-\xd6\xd0\xce\xc4\xcb\xb5\xc3\xf7.txt") << 936
                                  << QStringLiteral("cudnn-中文说明.txt");
        QTest::newRow("GBK path") << QByteArray("\xd5\xc5\xc8\xfd/bin/cudnn64_9.dll") << 936
                                  << QStringLiteral("张三/bin/cudnn64_9.dll");
        QTest::newRow("ASCII in GBK")
            << QByteArray("include/cudnn_version.h") << 936 << QStringLiteral("include/cudnn_version.h");
        QTest::newRow("CP437 accents")
            << QByteArray("r\x82sum\x82.txt") << 437 << QStringLiteral("résumé.txt");
        QTest::newRow("CP437 box") << QByteArray("\xc9\xcd\xbb") << 437 << QStringLiteral("╔═╗");
        QTest::newRow("empty") << QByteArray() << 936 << QString();
    }
    void decodes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, codePage);
        QFETCH(QString, text);
        const auto decoded = legacytext::decode(bytes, codePage);
        QVERIFY(decoded);
        QCOMPARE(*decoded, text);
    }

    // Bytes that are not GBK are refused, not turned into replacement characters.
    void refusesInvalidGbk()
    {
        QVERIFY(!legacytext::decode(QByteArray("abc\xd6"), 936));      // a lead byte with nothing after it
        QVERIFY(!legacytext::decode(QByteArray("\xff\xff\xff"), 936)); // 0xFF leads nothing
        QVERIFY(!legacytext::decode(QByteArray("x"), 12345));          // a code page we do not know
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestLegacyText)
#include "tst_legacytext.moc"
