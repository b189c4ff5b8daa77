// What the program reads back from disk, which anyone with access to the file may have changed:
// the transaction journal, a receipt, an unattended answer file, a lab's baseline.
#include "FuzzInput.h"
#include "install/Journal.h"
#include "install/Receipt.h"
#include "session/Baseline.h"
#include "session/UnattendedRun.h"

#include <QJsonDocument>

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fuzzinput::InputFile journal(QStringLiteral("install.journal"));
    static fuzzinput::InputFile answers(QStringLiteral("answers.ini"));
    static fuzzinput::InputFile baseline(QStringLiteral("lab.json"));
    (void)Journal::read(journal.write(data, size));
    (void)Receipt::fromJson(QJsonDocument::fromJson(fuzzinput::bytes(data, size)).object());
    (void)UnattendedSettings().withAnswerFile(answers.write(data, size));
    (void)Baseline::read(baseline.write(data, size));
    return 0;
}
