#include "loader/SearchOrder.h"

#include <algorithm>

#include <QRegularExpression>

#include "platform/SystemContext.h"

namespace cudnnsetup {

namespace {

void addLdSoConf(const SystemContext &context, const QString &file, QStringList &dirs, int depth)
{
    if (depth > 8)
        return;
    const auto content = context.files().read(file, 1024 * 1024);
    if (!content)
        return;
    const QStringList lines = QString::fromUtf8(*content).split(QLatin1Char('\n'));
    for (QString line : lines) {
        line = line.section(QLatin1Char('#'), 0, 0).trimmed();
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1String("include"))) {
            const QString pattern = line.mid(7).trimmed();
            const QString dir = context.paths().parent(
                pattern.startsWith(QLatin1Char('/')) ? pattern : QStringLiteral("/etc/") + pattern);
            const QString glob = context.paths().fileName(pattern);
            for (const QString &name : context.files().entries(dir, {glob}, FileSystem::Files))
                addLdSoConf(context, context.paths().join(dir, name), dirs, depth + 1);
            continue;
        }
        const QStringList parts =
            line.split(QRegularExpression(QStringLiteral("[\\s,:]+")), Qt::SkipEmptyParts);
        for (const QString &part : parts) {
            if (part.startsWith(QLatin1Char('/')))
                dirs.append(part);
        }
    }
}

} // namespace

QStringList librarySearchOrder(const SystemContext &context)
{
    const SystemPaths &paths = context.paths();
    QStringList order;
    if (context.family() == OsFamily::Windows) {
        order << QStringLiteral("C:\\Windows\\System32") << QStringLiteral("C:\\Windows");
        const auto fresh = context.environment().freshPath();
        order += fresh ? *fresh : context.environment().processPath();
    } else {
        order += paths.splitList(context.environment().value(QStringLiteral("LD_LIBRARY_PATH")));
        addLdSoConf(context, QStringLiteral("/etc/ld.so.conf"), order, 0);
        // The loader's built-in folders (Debian and Ubuntu build it with the multiarch ones first).
        for (const char *dir :
             {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
              "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
            order.append(QLatin1String(dir));
    }
    QStringList unique;
    for (const QString &dir : std::as_const(order)) {
        if (!paths.isAbsolute(dir))
            continue;
        const QString normalized = paths.normalize(dir);
        const bool seen = std::any_of(unique.cbegin(), unique.cend(),
                                      [&](const QString &d) { return paths.equal(d, normalized); });
        if (!seen)
            unique.append(normalized);
    }
    return unique;
}

} // namespace cudnnsetup
