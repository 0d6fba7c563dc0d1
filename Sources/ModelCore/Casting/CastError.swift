/// A value that could not be cast to a column's type.
///
/// Carries everything needed to find the mistake: the model, the column, the offending
/// value and the target type.
///
/// ```
/// Todo.priority: cannot cast "12abc" (string) to int: not an integer
/// ```
public struct CastError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model's name (`"Todo"`), or empty when casting outside a model.
    public var model: String
    /// The column's name (`"due_date"`), or empty when casting outside a column.
    public var column: String
    /// The value that was given.
    public var value: ModelValue
    /// The type it had to become.
    public var target: CastTarget
    /// Why it failed, in a few words.
    public var reason: String

    /// Creates a cast error.
    public init(model: String = "", column: String = "", value: ModelValue, target: CastTarget, reason: String) {
        self.model = model
        self.column = column
        self.value = value
        self.target = target
        self.reason = reason
    }

    public var description: String {
        let place = [model, column].filter { !$0.isEmpty }.joined(separator: ".")
        return (place.isEmpty ? "" : place + ": ")
            + "cannot cast \(value) (\(value.kindName)) to \(target): \(reason)"
    }
}
