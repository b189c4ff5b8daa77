// What the Uninstall page lists before the user confirms, read from the receipt: the files by
// folder, what is put back, the PATH entries and variables, and those of its per-user part.
#include "Suite.h"
#include "install/UninstallPreview.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

Receipt machineWide()
{
    Receipt receipt;
    receipt.id = QStringLiteral("20261203-1");
    const QString bin = QStringLiteral("C:\\CUDA\\v12.9\\bin\\");
    receipt.files = {{bin + QStringLiteral("cudnn64_9.dll"), QString(), 1, QString()},
                     {bin + QStringLiteral("cudnn_graph64_9.dll"), QString(), 1,
                      QStringLiteral("C:\\ProgramData\\kept\\2-cudnn_graph64_9.dll")},
                     {QStringLiteral("C:\\CUDA\\v12.9\\include\\cudnn.h"), QString(), 1, QString()}};
    receipt.environment = {
        {QStringLiteral("machine"), QStringLiteral("PATH"), bin + QStringLiteral("x64"),
         StoredEnvironmentValue{QStringLiteral("C:\\Windows"), true}, std::nullopt},
        {QStringLiteral("machine"), QStringLiteral("CUDNN_PATH"), QString(),
         StoredEnvironmentValue{QStringLiteral("C:\\old"), false}, std::nullopt},
        {QStringLiteral("machine"), QStringLiteral("CUDNN_LIBRARY"), QString(), std::nullopt, std::nullopt}};
    return receipt;
}

Receipt userPart(const QString &of)
{
    Receipt receipt;
    receipt.id = of + QStringLiteral("-user");
    receipt.partOf = of;
    receipt.environment = {{QStringLiteral("user"), QStringLiteral("PATH"),
                            QStringLiteral("C:\\CUDA\\v12.9\\bin"), std::nullopt, std::nullopt}};
    return receipt;
}

QStringList lines(const QList<Text> &texts)
{
    QStringList result;
    for (const Text &text : texts)
        result.append(text.toString());
    return result;
}

} // namespace

class TestUninstallPreview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsWhatTheReceiptRecorded()
    {
        const Receipt receipt = machineWide();
        const Receipt other = [] {
            Receipt another = machineWide();
            another.id = QStringLiteral("20261203-2");
            return another;
        }();
        const QList<std::pair<Receipt, QString>> receipts = {
            {receipt, QString()}, {other, QString()}, {userPart(receipt.id), QString()}};
        QCOMPARE(lines(uninstallPreview(receipt.id, receipts)),
                 (QStringList{QStringLiteral("Remove 2 files in C:\\CUDA\\v12.9\\bin"),
                              QStringLiteral("Remove the file C:\\CUDA\\v12.9\\include\\cudnn.h"),
                              QStringLiteral("Put back the files it replaced: cudnn_graph64_9.dll"),
                              QStringLiteral("Remove C:\\CUDA\\v12.9\\bin\\x64 from the system PATH"),
                              QStringLiteral("Set the variable CUDNN_PATH back to what it was"),
                              QStringLiteral("Remove the variable CUDNN_LIBRARY"),
                              QStringLiteral("Remove C:\\CUDA\\v12.9\\bin from your PATH")}));
    }

    // Nothing chosen: nothing listed.
    void nothingChosenListsNothing()
    {
        QVERIFY(uninstallPreview(QString(), {{machineWide(), QString()}}).isEmpty());
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestUninstallPreview)
#include "tst_uninstallpreview.moc"
