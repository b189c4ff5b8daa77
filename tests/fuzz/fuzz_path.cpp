// The PATH editor on any stored value, both families: split and join give back every character,
// and adding, removing and analysing an entry never fail on what a registry may hold.
#include "FuzzInput.h"
#include "install/PathEditor.h"

#include <cstdlib>

using namespace cudnnsetup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString raw = fuzzinput::text(data, size);
    for (const OsFamily family : {OsFamily::Windows, OsFamily::Linux}) {
        const PathEditor editor(family, [](const QString &name) {
            return name == QLatin1String("SystemRoot") ? QStringLiteral("C:\\Windows") : QString();
        });
        if (editor.join(editor.split(raw)) != raw)
            std::abort(); // the editor's own promise
        const QString ours =
            family == OsFamily::Windows ? QStringLiteral("C:\\cuDNN\\bin") : QStringLiteral("/opt/cudnn/lib");
        for (const QString &entry : editor.split(raw)) {
            (void)editor.expanded(entry);
            (void)editor.normalise(entry);
        }
        (void)editor.indexOf(raw, ours);
        (void)editor.withEntry(raw, ours, PathEditor::Position::Front);
        (void)editor.withoutEntry(raw, ours);
        const PathAnalysis analysis = editor.analyse(raw, ours, [](const QString &folder) {
            return folder.contains(QLatin1String("cudnn"), Qt::CaseInsensitive);
        });
        (void)editor.edited(raw, ours, PathEditor::Position::Front, analysis.recommended);
        (void)editor.lengthWarnings(raw);
    }
    return 0;
}
