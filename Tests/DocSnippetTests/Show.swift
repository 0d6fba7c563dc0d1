/// Evaluates what a documentation snippet shows: a doc writes `task.isNew   // true`, and
/// the generated test runs `show(task.isNew)`, so the value is computed (and any error
/// thrown) without an unused-value warning. Names a snippet binds are shown the same way.
@inline(never) func show<each T>(_ values: repeat each T) {}
