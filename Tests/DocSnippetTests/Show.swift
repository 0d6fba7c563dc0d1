import ArrayAdapter
import ModelCore
import ModelQuery
import ModelValidation

/// Evaluates what a documentation snippet shows: a doc writes `task.isNew   // true`, and
/// the generated test runs `show(task.isNew)`, so the value is computed (and any error
/// thrown) without an unused-value warning. Names a snippet binds are shown the same way.
@inline(never) func show<each T>(_ values: repeat each T) {}

/// Runs a snippet with private settings — default and per-type stores, message templates,
/// NotificationCenter posting, the contexts `ModelContext.clearAll()` clears — so a snippet
/// that sets them (`ModelStore.setDefault(store)` in a guide) never changes what tests
/// running beside it see.
func privately(_ body: () throws -> Void) throws {
    try ModelStore.withPrivateSettings {
        try ValidationMessages.withPrivateTemplates {
            try ModelNotifications.withPrivateSettings {
                try ModelContext.withPrivateContexts(body)
            }
        }
    }
}
