// The operations on persistent environment values: one value set or removed, one PATH entry added
// or taken out.
#include "install/OperationFamilies.h"

#include "common/Logging.h"
#include "install/PathEditor.h"

#include <QJsonArray>

namespace cudnnsetup {

namespace operations {

namespace {

QJsonValue valueToJson(const std::optional<StoredEnvironmentValue> &value)
{
    if (!value)
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("text"), value->text},
                       {QStringLiteral("expandable"), value->expandable}};
}

std::optional<StoredEnvironmentValue> valueFromJson(const QJsonValue &json)
{
    if (!json.isObject())
        return std::nullopt;
    const QJsonObject object = json.toObject();
    return StoredEnvironmentValue{object.value(QStringLiteral("text")).toString(),
                                  object.value(QStringLiteral("expandable")).toBool()};
}

class SetEnvironmentValue final : public Operation
{
public:
    SetEnvironmentValue(EnvironmentScope scope, QString name, std::optional<StoredEnvironmentValue> value)
        : m_scope(scope)
        , m_name(std::move(name))
        , m_value(std::move(value))
    {
    }
    QString name() const override { return QStringLiteral("set-environment-value"); }
    QJsonObject arguments() const override
    {
        return {{QStringLiteral("scope"), scopeName(m_scope)},
                {QStringLiteral("name"), m_name},
                {QStringLiteral("value"), valueToJson(m_value)}};
    }
    Text description() const override
    {
        return Text(QT_TRANSLATE_NOOP("cudnnsetup", "Setting the environment variable %1")).arg(m_name);
    }

    Expected<void> perform(OperationContext &context) override
    {
        const auto before = context.environment->read(m_scope, m_name);
        if (!before)
            return before.error();
        context.remember({{QStringLiteral("before"), valueToJson(*before)}});
        if (*before == m_value)
            return {};
        if (Expected<void> changed = m_value ? context.environment->write(m_scope, m_name, *m_value)
                                             : context.environment->remove(m_scope, m_name);
            !changed)
            return changed;
        context.environment->announceChange();
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (!remembered.contains(QStringLiteral("before")))
            return {};
        const std::optional<StoredEnvironmentValue> before =
            valueFromJson(remembered.value(QStringLiteral("before")));
        const auto now = context.environment->read(m_scope, m_name);
        if (!now)
            return now.error();
        if (*now != m_value) {
            // Someone changed it since (or it was never written): theirs stays.
            if (*now != before)
                qCWarning(lcInstall).noquote() << m_name << "changed since it was set; left as it is";
            return {};
        }
        if (Expected<void> restored = before ? context.environment->write(m_scope, m_name, *before)
                                             : context.environment->remove(m_scope, m_name);
            !restored)
            return restored;
        context.environment->announceChange();
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {}; }
    std::optional<EnvironmentScope> changedEnvironment() const override { return m_scope; }

private:
    EnvironmentScope m_scope;
    QString m_name;
    std::optional<StoredEnvironmentValue> m_value;
};

// One entry added to or taken from a PATH value, the rest kept byte for byte.
class EditPath final : public Operation
{
public:
    EditPath(bool adding, OsFamily family, EnvironmentScope scope, QString entry, bool atFront,
             QList<PathFix> fixes = {})
        : m_adding(adding)
        , m_family(family)
        , m_scope(scope)
        , m_entry(std::move(entry))
        , m_atFront(atFront)
        , m_fixes(std::move(fixes))
    {
    }

    static std::unique_ptr<Operation> fromJson(bool adding, const QJsonObject &arguments)
    {
        const auto scope = scopeFromName(arguments.value(QStringLiteral("scope")).toString());
        if (!scope)
            return nullptr;
        const OsFamily family = arguments.value(QStringLiteral("os")).toString() == QLatin1String("linux")
                                    ? OsFamily::Linux
                                    : OsFamily::Windows;
        QList<PathFix> fixes;
        for (const QJsonValue &value : arguments.value(QStringLiteral("fixes")).toArray()) {
            const std::optional<PathFix> fix = PathFix::fromJson(value.toObject());
            if (!fix)
                return nullptr;
            fixes.append(*fix);
        }
        return std::make_unique<EditPath>(
            adding, family, *scope, arguments.value(QStringLiteral("entry")).toString(),
            arguments.value(QStringLiteral("position")).toString() != QLatin1String("back"), fixes);
    }

    QString name() const override
    {
        return m_adding ? QStringLiteral("add-path-entry") : QStringLiteral("remove-path-entry");
    }
    QJsonObject arguments() const override
    {
        QJsonObject object{
            {QStringLiteral("os"),
             m_family == OsFamily::Linux ? QStringLiteral("linux") : QStringLiteral("windows")},
            {QStringLiteral("scope"), scopeName(m_scope)},
            {QStringLiteral("entry"), m_entry},
            {QStringLiteral("position"), m_atFront ? QStringLiteral("front") : QStringLiteral("back")}};
        if (!m_fixes.isEmpty()) {
            QJsonArray fixes;
            for (const PathFix &fix : m_fixes)
                fixes.append(fix.toJson());
            object.insert(QStringLiteral("fixes"), fixes);
        }
        return object;
    }
    Text description() const override
    {
        return m_adding ? Text(QT_TRANSLATE_NOOP("cudnnsetup", "Adding %1 to PATH")).arg(m_entry)
                        : Text(QT_TRANSLATE_NOOP("cudnnsetup", "Taking %1 off PATH")).arg(m_entry);
    }

    Expected<void> perform(OperationContext &context) override
    {
        const auto before = context.environment->read(m_scope, pathName());
        if (!before)
            return before.error();
        const auto edited = editedValue(context, *before);
        if (!edited)
            return edited.error();
        const StoredEnvironmentValue after = *edited;
        context.remember({{QStringLiteral("before"), valueToJson(*before)},
                          {QStringLiteral("after"), valueToJson(after)}});
        if (before->has_value() && before->value() == after)
            return {};
        if (!before->has_value() && after.text.isEmpty())
            return {};
        if (Expected<void> written = context.environment->write(m_scope, pathName(), after); !written)
            return written;
        context.environment->announceChange();
        return {};
    }

    Expected<void> undo(OperationContext &context, const QJsonObject &remembered) override
    {
        if (!remembered.contains(QStringLiteral("after")))
            return {};
        const std::optional<StoredEnvironmentValue> before =
            valueFromJson(remembered.value(QStringLiteral("before")));
        const std::optional<StoredEnvironmentValue> after =
            valueFromJson(remembered.value(QStringLiteral("after")));
        const auto now = context.environment->read(m_scope, pathName());
        if (!now)
            return now.error();
        if (*now == before)
            return {}; // never written, or already undone
        Expected<void> undone;
        if (*now == after) {
            undone = before ? context.environment->write(m_scope, pathName(), *before)
                            : context.environment->remove(m_scope, pathName());
        } else if (m_adding && now->has_value()) {
            // PATH changed since: take out only ours, if it was not there before.
            const PathEditor editor = editorFor(context);
            if (before && editor.indexOf(before->text, m_entry) >= 0)
                return {};
            StoredEnvironmentValue without = now->value();
            without.text = editor.withoutEntry(without.text, m_entry);
            undone = context.environment->write(m_scope, pathName(), without);
        } else {
            qCWarning(lcInstall).noquote()
                << "PATH changed since" << m_entry << "was taken off; left as it is";
            return {};
        }
        if (!undone)
            return undone;
        context.environment->announceChange();
        return {};
    }

    QStringList changedPaths(const QJsonObject &) const override { return {}; }
    std::optional<EnvironmentScope> changedEnvironment() const override { return m_scope; }

    // An undo writes the value from before back: it must be the one this edit was made from.
    std::optional<QString> implausibleRecord(OperationContext &context,
                                             const QJsonObject &remembered) const override
    {
        if (!remembered.contains(QStringLiteral("after")))
            return std::nullopt;
        const std::optional<StoredEnvironmentValue> after =
            valueFromJson(remembered.value(QStringLiteral("after")));
        const auto expected = editedValue(context, valueFromJson(remembered.value(QStringLiteral("before"))));
        if (!after || !expected || *expected != *after)
            return QStringLiteral("its PATH after the change is not %1 applied to its PATH before")
                .arg(name());
        return std::nullopt;
    }

private:
    QString pathName() const { return QStringLiteral("PATH"); }
    // The value this edit makes of `before`.
    Expected<StoredEnvironmentValue> editedValue(OperationContext &context,
                                                 const std::optional<StoredEnvironmentValue> &before) const
    {
        const QString raw = before ? before->text : QString();
        const PathEditor editor = editorFor(context);
        QString edited;
        if (m_adding) {
            // The fixes the user chose (stale copies out of the way), applied in the same write.
            const auto added = m_fixes.isEmpty() ? editor.withEntry(raw, m_entry, position())
                                                 : editor.edited(raw, m_entry, position(), m_fixes);
            if (!added)
                return added.error();
            edited = *added;
        } else {
            edited = editor.withoutEntry(raw, m_entry);
        }
        // A new PATH is REG_EXPAND_SZ, as Windows makes it; an existing one keeps its type.
        return StoredEnvironmentValue{edited, before ? before->expandable : true};
    }
    PathEditor::Position position() const
    {
        return m_atFront ? PathEditor::Position::Front : PathEditor::Position::Back;
    }
    PathEditor editorFor(OperationContext &context) const
    {
        return PathEditor::forStoredPath(m_family, m_scope, *context.environment, context.sessionVariable);
    }

    bool m_adding;
    OsFamily m_family;
    EnvironmentScope m_scope;
    QString m_entry;
    bool m_atFront;
    QList<PathFix> m_fixes;
};

} // namespace

void addEnvironmentOperations(QHash<QString, Operation::Factory> &table)
{
    table.insert(QStringLiteral("add-path-entry"),
                 [](const QJsonObject &a) { return EditPath::fromJson(true, a); });
    table.insert(QStringLiteral("remove-path-entry"),
                 [](const QJsonObject &a) { return EditPath::fromJson(false, a); });
    table.insert(
        QStringLiteral("set-environment-value"), [](const QJsonObject &a) -> std::unique_ptr<Operation> {
            const auto scope = scopeFromName(a.value(QStringLiteral("scope")).toString());
            if (!scope)
                return nullptr;
            return std::make_unique<SetEnvironmentValue>(*scope, a.value(QStringLiteral("name")).toString(),
                                                         valueFromJson(a.value(QStringLiteral("value"))));
        });
}

QString scopeName(EnvironmentScope scope)
{
    return scope == EnvironmentScope::User ? QStringLiteral("user") : QStringLiteral("machine");
}

std::optional<EnvironmentScope> scopeFromName(const QString &name)
{
    if (name == QLatin1String("user"))
        return EnvironmentScope::User;
    if (name == QLatin1String("machine"))
        return EnvironmentScope::System;
    return std::nullopt;
}

std::unique_ptr<Operation> addPathEntry(OsFamily family, EnvironmentScope scope, const QString &entry,
                                        bool atFront, const QList<PathFix> &fixes)
{
    return std::make_unique<EditPath>(true, family, scope, entry, atFront, fixes);
}

std::unique_ptr<Operation> removePathEntry(OsFamily family, EnvironmentScope scope, const QString &entry)
{
    return std::make_unique<EditPath>(false, family, scope, entry, true);
}

std::unique_ptr<Operation> setEnvironmentValue(EnvironmentScope scope, const QString &name,
                                               const std::optional<StoredEnvironmentValue> &value)
{
    return std::make_unique<SetEnvironmentValue>(scope, name, value);
}

} // namespace operations

std::function<QString(const QString &)> sessionVariablesOf(const SystemContext &context)
{
    return [&context](const QString &name) { return context.environment().value(name); };
}

} // namespace cudnnsetup
