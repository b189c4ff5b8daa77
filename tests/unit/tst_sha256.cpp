// The platform's SHA-256 (libcrypto, CNG under Wine) and the archive hash taken from reads.
#include "Sandbox.h"
#include "Suite.h"
#include "archive/ArchiveHasher.h"
#include "platform/Sha256.h"

#include <QRandomGenerator>
#include <QTest>

using namespace cudnnsetup;

class TestSha256 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // FIPS 180-2's examples.
    void knownDigests()
    {
        QCOMPARE(Sha256::of(QByteArray()),
                 QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(Sha256::of("abc"),
                 QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        Sha256 million;
        const QByteArray block(1000, 'a');
        for (int i = 0; i < 1000; ++i)
            million.add(block);
        QCOMPARE(million.hex(),
                 QStringLiteral("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
    }

    // Reads that continue the hashed prefix count; gaps and repeats are filled in by finish().
    void archiveHashFromReads()
    {
        QByteArray data(3 << 20, Qt::Uninitialized);
        QRandomGenerator generator(42);
        generator.fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
        Sandbox sandbox;
        sandbox.write(QStringLiteral("/a.zip"), data);
        const QString expected = Sha256::of(data);

        ArchiveHasher hasher(sandbox.hostPath(QStringLiteral("/a.zip")));
        const ReadObserver seen = hasher.observer();
        const auto read = [&](qint64 offset, qint64 size) { seen(offset, data.constData() + offset, size); };
        read(data.size() - 100, 100); // the end record first, as zip readers do: skipped for now
        read(0, 1000);
        read(500, 1500); // overlaps what was hashed
        read(2000, 1 << 20);
        read(1 << 21, 4096); // ahead of the prefix: left for finish()
        read(2000, 10);      // a repeat
        QCOMPARE(hasher.hashedWhileReading(), qint64(2000 + (1 << 20)));
        const auto digest = hasher.finish();
        QVERIFY(digest);
        QCOMPARE(*digest, expected);
    }

    void unreadableArchive()
    {
        ArchiveHasher hasher(QStringLiteral("/nonexistent/a.zip"));
        const auto digest = hasher.finish();
        QVERIFY(!digest);
        QCOMPARE(digest.error().id, QStringLiteral("archive.unreadable"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
