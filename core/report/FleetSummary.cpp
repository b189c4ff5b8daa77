#include "report/FleetSummary.h"

#include "common/Logging.h"
#include "common/Text.h"
#include "common/Translations.h"
#include "report/MachineReport.h"

#include <algorithm>
#include <array>
#include <tuple>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtConcurrent/QtConcurrentMap>

namespace cudnnsetup {

namespace {

constexpr int kItemCount = 5; // machineReportItems()
constexpr int kMaxNameLength = 100;
constexpr int kMaxValueLength = 300;
constexpr int kMaxRepairLength = 2000;
constexpr int kMaxFindingsLooked = 200;

// A string from a report as it may be shown: control characters (a terminal's escape sequences)
// and the marks that reverse the direction of text become U+FFFD, and it is cut to `length`.
QString shown(const QString &text, int length)
{
    QString clean = text.left(length + 1);
    for (QChar &c : clean) {
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7f && u <= 0x9f) || (u >= 0x202a && u <= 0x202e) ||
            (u >= 0x2066 && u <= 0x2069) || u == 0x200e || u == 0x200f)
            c = QChar(QChar::ReplacementCharacter);
    }
    if (clean.size() > length) {
        clean.truncate(length);
        clean += QChar(0x2026);
    }
    return clean;
}

struct ReadReport
{
    QString file;
    std::optional<FleetUnreadable::Problem> problem;
    QString machine;
    QDateTime writtenAt;
    std::array<QString, kItemCount> values;
    std::array<QString, kItemCount> repairs;
};

// The repair of one item: its own fix, else the fix of the first open finding it names.
QString repairOf(const QJsonObject &item, const QJsonArray &findings)
{
    if (const QJsonValue fix = item.value(QStringLiteral("fix")); fix.isString() && !fix.toString().isEmpty())
        return shown(fix.toString(), kMaxRepairLength);
    for (const QJsonValue id : item.value(QStringLiteral("findings")).toArray()) {
        for (qsizetype i = 0; i < std::min<qsizetype>(findings.size(), kMaxFindingsLooked); ++i) {
            const QJsonObject finding = findings.at(i).toObject();
            const QString fix = finding.value(QStringLiteral("fix")).toString();
            if (id.isString() && finding.value(QStringLiteral("id")).toString() == id.toString() &&
                !fix.isEmpty())
                return shown(fix, kMaxRepairLength);
        }
    }
    return {};
}

ReadReport readReport(const QString &path)
{
    ReadReport report;
    const QFileInfo info(path);
    report.file = shown(info.fileName(), kMaxNameLength);
    // Only a plain file: a link may lead anywhere, a FIFO would never end.
    if (info.isSymLink() || !info.isFile()) {
        report.problem = FleetUnreadable::Problem::NotAFile;
        return report;
    }
    if (info.size() > FleetSummary::kMaxReportBytes) {
        report.problem = FleetUnreadable::Problem::TooLarge;
        return report;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        report.problem = FleetUnreadable::Problem::Unreadable;
        return report;
    }
    const QByteArray bytes = file.read(FleetSummary::kMaxReportBytes + 1);
    if (bytes.size() > FleetSummary::kMaxReportBytes) {
        report.problem = FleetUnreadable::Problem::TooLarge;
        return report;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        report.problem = FleetUnreadable::Problem::InvalidJson;
        return report;
    }
    const QJsonObject object = document.object();
    const QString machine = object.value(QStringLiteral("machine")).toString().trimmed();
    if (object.value(QStringLiteral("schema")).toString() != QLatin1String(MachineReportInput::kSchema) ||
        machine.isEmpty() || !object.value(QStringLiteral("items")).isObject()) {
        report.problem = FleetUnreadable::Problem::Foreign;
        return report;
    }
    report.machine = shown(machine, kMaxNameLength);
    report.writtenAt =
        QDateTime::fromString(object.value(QStringLiteral("writtenAt")).toString(), Qt::ISODate);
    const QJsonObject items = object.value(QStringLiteral("items")).toObject();
    const QJsonArray findings = object.value(QStringLiteral("findings")).toArray();
    for (int i = 0; i < kItemCount; ++i) {
        const QJsonObject item = items.value(machineReportItems().at(i)).toObject();
        const QJsonValue value = item.value(QStringLiteral("value"));
        report.values[i] =
            value.isString() ? shown(value.toString(), kMaxValueLength) : QStringLiteral("unknown");
        report.repairs[i] = repairOf(item, findings);
    }
    return report;
}

// The report files of `folder`: "*.json", not a name starting with '.' (one being written).
QStringList reportFiles(const QString &folder)
{
    QStringList files;
    QDirIterator entries(folder, QDir::Files | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot);
    while (entries.hasNext()) {
        entries.next();
        const QString name = entries.fileName();
        if (!name.startsWith(QLatin1Char('.')) && name.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            files.append(entries.filePath());
    }
    files.sort();
    return files;
}

FleetItem summarizeItem(int index, const QList<const ReadReport *> &reports)
{
    FleetItem item;
    item.item = machineReportItems().at(index);
    QHash<QString, int> counts;
    for (const ReadReport *report : reports)
        ++counts[report->values[index]];
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        // A tie goes to the smaller value, so the same share always gives the same summary.
        if (it.value() > item.majorityCount ||
            (it.value() == item.majorityCount && it.key() < item.majority)) {
            item.majority = it.key();
            item.majorityCount = it.value();
        }
    }
    for (const ReadReport *report : reports) {
        if (report->values[index] != item.majority)
            item.outliers.append(
                {report->machine, report->file, report->values[index], report->repairs[index]});
    }
    return item;
}

QString problemName(FleetUnreadable::Problem problem)
{
    switch (problem) {
    case FleetUnreadable::Problem::TooLarge:
        return QStringLiteral("too-large");
    case FleetUnreadable::Problem::NotAFile:
        return QStringLiteral("not-a-file");
    case FleetUnreadable::Problem::Unreadable:
        return QStringLiteral("unreadable");
    case FleetUnreadable::Problem::InvalidJson:
        return QStringLiteral("invalid-json");
    case FleetUnreadable::Problem::Foreign:
        return QStringLiteral("foreign");
    }
    return {};
}

Text problemText(FleetUnreadable::Problem problem)
{
    switch (problem) {
    case FleetUnreadable::Problem::TooLarge:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "larger than %1 MB, not read"))
            .arg(QString::number(FleetSummary::kMaxReportBytes / (1024 * 1024)));
    case FleetUnreadable::Problem::NotAFile:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "not a plain file (a link, a folder or a device)"));
    case FleetUnreadable::Problem::Unreadable:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "cannot be read"));
    case FleetUnreadable::Problem::InvalidJson:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "not valid JSON (damaged or cut short)"));
    case FleetUnreadable::Problem::Foreign:
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "not a machine report of cudnnctl"));
    }
    return {};
}

Text itemName(const QString &item)
{
    if (item == QLatin1String("driver"))
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "NVIDIA driver"));
    if (item == QLatin1String("cudnn"))
        return Text::verbatim(QStringLiteral("cuDNN"));
    if (item == QLatin1String("path"))
        return Text::verbatim(QStringLiteral("PATH"));
    if (item == QLatin1String("torch"))
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "PyTorch build"));
    return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Last verification"));
}

// One word of a value as people read it: the report's tokens translated, versions and paths as
// they are.
QString wordShown(const QString &word)
{
    static const QRegularExpression entry(QStringLiteral("^entry (\\d+)$"));
    if (const QRegularExpressionMatch match = entry.match(word); match.hasMatch())
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "entry %1 of PATH")).arg(match.captured(1)).toString();
    static const std::pair<const char *, const char *> words[] = {
        {"none", QT_TRANSLATE_NOOP("cudnnsetup", "none")},
        {"unknown", QT_TRANSLATE_NOOP("cudnnsetup", "unknown")},
        {"not-working", QT_TRANSLATE_NOOP("cudnnsetup", "installed, not working")},
        {"absent", QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN's folder is on no PATH entry")},
        {"cpu", QT_TRANSLATE_NOOP("cudnnsetup", "CPU only")},
        {"passed", QT_TRANSLATE_NOOP("cudnnsetup", "passed")},
        {"failed", QT_TRANSLATE_NOOP("cudnnsetup", "failed")},
        {"not-verified", QT_TRANSLATE_NOOP("cudnnsetup", "not verified")},
    };
    for (const auto &[token, source] : words) {
        if (word == QLatin1String(token))
            return Text(source).toString();
    }
    return word;
}

// "cpu, cu126; doctor.torch-cpu-only" -> "CPU only, cu126; doctor.torch-cpu-only"
QString valueShown(const QString &value)
{
    const qsizetype problems = value.indexOf(QStringLiteral("; "));
    const QString base = problems < 0 ? value : value.left(problems);
    QStringList words = base.split(QStringLiteral(", "));
    for (QString &word : words)
        word = wordShown(word);
    const QString shownBase = Text::list([&words] {
                                  QList<Text> items;
                                  for (const QString &word : std::as_const(words))
                                      items.append(Text::verbatim(word));
                                  return items;
                              }())
                                  .toString();
    return problems < 0 ? shownBase
                        : Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 (open: %2)"))
                              .arg(shownBase, value.mid(problems + 2))
                              .toString();
}

QString timeShown(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
                          : Text(QT_TRANSLATE_NOOP("cudnnsetup", "no time written")).toString();
}

QString repairShown(const QString &repair)
{
    return repair.isEmpty() ? Text(QT_TRANSLATE_NOOP("cudnnsetup",
                                                     "No repair is recorded: run \"cudnnctl doctor\" there."))
                                  .toString()
                            : repair;
}

constexpr char kFleetStyle[] = R"(
body { font-family: "Segoe UI", "Noto Sans", "Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC", sans-serif;
       color: #1a1a1a; background: #fff; margin: 2em auto; max-width: 70em; padding: 0 1em; line-height: 1.45; }
h1 { border-bottom: 3px solid #333; padding-bottom: 0.3em; }
h2 { border-bottom: 1px solid #999; padding-bottom: 0.2em; margin-top: 1.5em; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; }
th, td { border: 1px solid #b0b0b0; padding: 0.35em 0.5em; text-align: left; vertical-align: top; }
th { background: #efefef; }
.value, .file { font-family: Consolas, "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 0.92em;
                overflow-wrap: anywhere; word-break: break-all; }
.good { color: #1b5e20; font-weight: bold; }
.bad { color: #b71c1c; font-weight: bold; }
.note { color: #555; }
@media print { th { background: none; } tr { break-inside: avoid; page-break-inside: avoid; } }
)";

QString htmlEscaped(const QString &text)
{
    return text.toHtmlEscaped();
}

QString translated(const char *source)
{
    return Text(source).toString();
}

} // namespace

QJsonObject FleetSummary::toJson() const
{
    QJsonArray itemArray;
    for (const FleetItem &item : items) {
        QJsonArray outliers;
        for (const FleetOutlier &outlier : item.outliers)
            outliers.append(
                QJsonObject{{QStringLiteral("machine"), outlier.machine},
                            {QStringLiteral("file"), outlier.file},
                            {QStringLiteral("value"), outlier.value},
                            {QStringLiteral("repair"),
                             outlier.repair.isEmpty() ? QJsonValue() : QJsonValue(outlier.repair)}});
        itemArray.append(QJsonObject{{QStringLiteral("item"), item.item},
                                     {QStringLiteral("majority"), item.majority},
                                     {QStringLiteral("majorityCount"), item.majorityCount},
                                     {QStringLiteral("outliers"), outliers}});
    }
    QJsonArray staleArray;
    for (const FleetStaleReport &report : stale)
        staleArray.append(QJsonObject{
            {QStringLiteral("machine"), report.machine},
            {QStringLiteral("file"), report.file},
            {QStringLiteral("writtenAt"), report.writtenAt.isValid()
                                              ? QJsonValue(report.writtenAt.toUTC().toString(Qt::ISODate))
                                              : QJsonValue()}});
    QJsonArray unreadableArray;
    for (const FleetUnreadable &file : unreadable)
        unreadableArray.append(QJsonObject{{QStringLiteral("file"), file.file},
                                           {QStringLiteral("problem"), problemName(file.problem)}});
    return {{QStringLiteral("schema"), QLatin1String(kSchema)},
            {QStringLiteral("folder"), folder},
            {QStringLiteral("summarizedAt"), summarizedAt.toUTC().toString(Qt::ISODate)},
            {QStringLiteral("staleDays"), staleDays},
            {QStringLiteral("reports"), reports},
            {QStringLiteral("items"), itemArray},
            {QStringLiteral("stale"), staleArray},
            {QStringLiteral("unreadable"), unreadableArray}};
}

FleetSummary summarizeFleet(const QString &folder, const QDateTime &now, int staleDays)
{
    FleetSummary summary;
    summary.folder = folder;
    summary.summarizedAt = now.toUTC();
    summary.staleDays = staleDays;
    // Reading and parsing dominate: the files are read several at a time.
    const QList<ReadReport> read = QtConcurrent::blockingMapped(reportFiles(folder), readReport);
    QList<const ReadReport *> reports;
    const QDateTime staleBefore = summary.summarizedAt.addDays(-staleDays);
    for (const ReadReport &report : read) {
        if (report.problem) {
            summary.unreadable.append({report.file, *report.problem});
            continue;
        }
        reports.append(&report);
        if (!report.writtenAt.isValid() || report.writtenAt < staleBefore)
            summary.stale.append({report.machine, report.file, report.writtenAt});
    }
    std::sort(reports.begin(), reports.end(), [](const ReadReport *a, const ReadReport *b) {
        return std::tie(a->machine, a->file) < std::tie(b->machine, b->file);
    });
    std::stable_sort(
        summary.stale.begin(), summary.stale.end(),
        [](const FleetStaleReport &a, const FleetStaleReport &b) { return a.writtenAt < b.writtenAt; });
    summary.reports = int(reports.size());
    if (!reports.isEmpty()) {
        for (int i = 0; i < kItemCount; ++i)
            summary.items.append(summarizeItem(i, reports));
    }
    qCInfo(lcCore) << "fleet summary of" << folder << ":" << summary.reports << "reports,"
                   << summary.unreadable.size() << "other files," << summary.stale.size() << "stale";
    return summary;
}

QString fleetSummaryText(const FleetSummary &summary)
{
    const QString folder = QDir::toNativeSeparators(summary.folder);
    if (summary.reports == 0 && summary.unreadable.isEmpty())
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "No machine reports were found in %1."))
                   .arg(folder)
                   .toString() +
               QLatin1Char('\n');
    QString text = Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 machine reports in %2, read %3."))
                       .arg(QString::number(summary.reports), folder, timeShown(summary.summarizedAt))
                       .toString() +
                   QLatin1Char('\n');
    text += QLatin1Char('\n');
    for (const FleetItem &item : summary.items) {
        if (item.outliers.isEmpty()) {
            text += Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1: %2 on all %3 machines"))
                        .arg(itemName(item.item).toString(), valueShown(item.majority),
                             QString::number(item.majorityCount))
                        .toString() +
                    QLatin1Char('\n');
            continue;
        }
        text += Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1: %2 on %3 of %4 machines; different on %5:"))
                    .arg(itemName(item.item).toString(), valueShown(item.majority),
                         QString::number(item.majorityCount), QString::number(summary.reports),
                         QString::number(item.outliers.size()))
                    .toString() +
                QLatin1Char('\n');
        for (const FleetOutlier &outlier : item.outliers) {
            text += QStringLiteral("  %1: %2\n").arg(outlier.machine, valueShown(outlier.value));
            text += QStringLiteral("    ") +
                    Text(QT_TRANSLATE_NOOP("cudnnsetup", "Repair: %1"))
                        .arg(repairShown(outlier.repair))
                        .toString() +
                    QLatin1Char('\n');
        }
    }
    if (!summary.stale.isEmpty()) {
        text += QLatin1Char('\n') +
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Reports older than %1 days (%2):"))
                    .arg(QString::number(summary.staleDays), QString::number(summary.stale.size()))
                    .toString() +
                QLatin1Char('\n');
        for (const FleetStaleReport &report : summary.stale)
            text += QStringLiteral("  %1: %2\n").arg(report.machine, timeShown(report.writtenAt));
    }
    if (!summary.unreadable.isEmpty()) {
        text += QLatin1Char('\n') +
                Text(QT_TRANSLATE_NOOP("cudnnsetup", "Files that are not machine reports (%1):"))
                    .arg(QString::number(summary.unreadable.size()))
                    .toString() +
                QLatin1Char('\n');
        for (const FleetUnreadable &file : summary.unreadable)
            text += QStringLiteral("  %1: %2\n").arg(file.file, problemText(file.problem).toString());
    }
    return text;
}

QString fleetSummaryHtml(const FleetSummary &summary)
{
    const bool chinese = Translations::current() == QLatin1String("zh_CN");
    const QString title = translated(QT_TRANSLATE_NOOP("cudnnsetup", "cuDNN on the lab's machines"));
    QString html =
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                       "style-src 'unsafe-inline'\"/>\n<title>%2</title>\n<style>%3</style>\n</head>\n"
                       "<body>\n<h1>%2</h1>\n")
            .arg(chinese ? QStringLiteral("zh-CN") : QStringLiteral("en"), htmlEscaped(title),
                 QLatin1String(kFleetStyle));
    html += QStringLiteral("<p>%1</p>\n")
                .arg(htmlEscaped(Text(QT_TRANSLATE_NOOP("cudnnsetup", "%1 machine reports in %2, read %3."))
                                     .arg(QString::number(summary.reports),
                                          QDir::toNativeSeparators(summary.folder),
                                          timeShown(summary.summarizedAt))
                                     .toString()));
    if (!summary.items.isEmpty()) {
        html +=
            QStringLiteral("<h2>%1</h2>\n<table>\n<tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>\n")
                .arg(htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "At a glance"))),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Item"))),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Most machines"))),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Machines"))),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Different"))));
        for (const FleetItem &item : summary.items)
            html +=
                QStringLiteral(
                    "<tr><td>%1</td><td class=\"value\">%2</td><td>%3</td><td class=\"%4\">%5</td></tr>\n")
                    .arg(htmlEscaped(itemName(item.item).toString()), htmlEscaped(valueShown(item.majority)),
                         QString::number(item.majorityCount),
                         item.outliers.isEmpty() ? QStringLiteral("good") : QStringLiteral("bad"),
                         QString::number(item.outliers.size()));
        html += QStringLiteral("</table>\n");
    }
    for (const FleetItem &item : summary.items) {
        if (item.outliers.isEmpty())
            continue;
        html +=
            QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n<table>\n<tr><th>%3</th><th>%4</th><th>%5</th></tr>\n")
                .arg(htmlEscaped(itemName(item.item).toString()),
                     htmlEscaped(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Most machines: %1"))
                                     .arg(valueShown(item.majority))
                                     .toString()),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Machine"))),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Value"))),
                     htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Repair"))));
        for (const FleetOutlier &outlier : item.outliers)
            html += QStringLiteral("<tr><td>%1</td><td class=\"value\">%2</td><td>%3</td></tr>\n")
                        .arg(htmlEscaped(outlier.machine), htmlEscaped(valueShown(outlier.value)),
                             htmlEscaped(repairShown(outlier.repair)));
        html += QStringLiteral("</table>\n");
    }
    if (!summary.stale.isEmpty()) {
        html += QStringLiteral("<h2>%1</h2>\n<table>\n<tr><th>%2</th><th>%3</th></tr>\n")
                    .arg(htmlEscaped(Text(QT_TRANSLATE_NOOP("cudnnsetup", "Reports older than %1 days (%2):"))
                                         .arg(QString::number(summary.staleDays),
                                              QString::number(summary.stale.size()))
                                         .toString()),
                         htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Machine"))),
                         htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Written"))));
        for (const FleetStaleReport &report : summary.stale)
            html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>\n")
                        .arg(htmlEscaped(report.machine), htmlEscaped(timeShown(report.writtenAt)));
        html += QStringLiteral("</table>\n");
    }
    if (!summary.unreadable.isEmpty()) {
        html += QStringLiteral("<h2>%1</h2>\n<table>\n<tr><th>%2</th><th>%3</th></tr>\n")
                    .arg(htmlEscaped(
                             Text(QT_TRANSLATE_NOOP("cudnnsetup", "Files that are not machine reports (%1):"))
                                 .arg(QString::number(summary.unreadable.size()))
                                 .toString()),
                         htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "File"))),
                         htmlEscaped(translated(QT_TRANSLATE_NOOP("cudnnsetup", "Why it was not read"))));
        for (const FleetUnreadable &file : summary.unreadable)
            html += QStringLiteral("<tr><td class=\"file\">%1</td><td>%2</td></tr>\n")
                        .arg(htmlEscaped(file.file), htmlEscaped(problemText(file.problem).toString()));
        html += QStringLiteral("</table>\n");
    }
    html += QStringLiteral("<p class=\"note\">%1</p>\n</body>\n</html>\n")
                .arg(htmlEscaped(translated(QT_TRANSLATE_NOOP(
                    "cudnnsetup", "Each machine writes its report with \"cudnnctl report --to "
                                  "FOLDER\"; this page was made by \"cudnnctl fleet summarize\"."))));
    return html;
}

} // namespace cudnnsetup
