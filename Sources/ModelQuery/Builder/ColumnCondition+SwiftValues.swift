/// The same conditions as ``ColumnCondition``'s, taking ordinary Swift values (`String`,
/// `Int`, `Date`, `UUID`, optionals, arrays…) so a variable needs no `ModelValue` wrapper:
///
/// ```swift
/// let name = "Ann", since: Date = .now
/// try Person.where("name").eq(name).where("joined").gte(since).all()
/// try Person.where("age").in([30, 41]).all()           // literals still work as before
/// ```
///
/// An optional that is nil behaves as `nil` does (`eq(nil)` is `IS NULL`).
extension ColumnCondition {
    /// `= value` (nil is `IS NULL`).
    public func eq(_ value: some ModelValueConvertible) -> Query<M> { eq(value.modelValue) }
    /// `<> value` (nil is `IS NOT NULL`).
    public func ne(_ value: some ModelValueConvertible) -> Query<M> { ne(value.modelValue) }
    /// `< value`.
    public func lt(_ value: some ModelValueConvertible) -> Query<M> { lt(value.modelValue) }
    /// `<= value`.
    public func lte(_ value: some ModelValueConvertible) -> Query<M> { lte(value.modelValue) }
    /// `> value`.
    public func gt(_ value: some ModelValueConvertible) -> Query<M> { gt(value.modelValue) }
    /// `>= value`.
    public func gte(_ value: some ModelValueConvertible) -> Query<M> { gte(value.modelValue) }
    /// `IN (values)`; an empty list matches nothing.
    public func `in`<S: Sequence>(_ values: S) -> Query<M> where S.Element: ModelValueConvertible {
        self.in(values.map(\.modelValue))
    }
    /// `NOT IN (values)`; an empty list matches everything.
    public func notIn<S: Sequence>(_ values: S) -> Query<M> where S.Element: ModelValueConvertible {
        notIn(values.map(\.modelValue))
    }
    /// `BETWEEN low AND high` (inclusive).
    public func between<V: ModelValueConvertible>(_ low: V, _ high: V) -> Query<M> {
        between(low.modelValue, high.modelValue)
    }
    /// `BETWEEN range.lowerBound AND range.upperBound`.
    public func between<V: ModelValueConvertible & Comparable>(_ range: ClosedRange<V>) -> Query<M> {
        between(range.lowerBound.modelValue, range.upperBound.modelValue)
    }
}
