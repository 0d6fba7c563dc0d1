/// A model that declares its form: sections, per-column inputs and options.
///
/// ```swift
/// extension Todo: FormDescribing {
///     static func form(_ form: inout FormLayout<Todo>) {
///         form.title = "New task"
///         form.section("Task")
///         form.field(\.name, placeholder: "What to do")
///         form.field(\.notes, .multiline)
///         form.section("Schedule")
///         form.field(\.dueDate, .date)
///         form.field(\.priority, .picker, choices: [1, 2, 3], pickerStyle: .segmented)
///     }
/// }
/// ```
///
/// Models that do not conform get the default form: every column but the id and the
/// timestamps, in declaration order, in one section.
public protocol FormDescribing: ModelProtocol {
    /// Declares the form.
    static func form(_ form: inout FormLayout<Self>)
}

/// The form declaration of model `M`, filled in by ``FormDescribing/form(_:)``.
///
/// Columns named with ``field(_:_:label:placeholder:help:choices:pickerStyle:)`` go into
/// the current section, in the order named; the first ``section(_:)`` call before any
/// field titles the first section. Columns never named follow the named ones in the first
/// section, in declaration order. The id column, `<name>_set_at`/`<name>_changed_at`
/// stamps, and (unless ``includesTimestamps``) `created_at`/`updated_at` are left out;
/// so are array, dictionary and data columns unless named (they have no single input).
public struct FormLayout<M: ModelProtocol> {
    /// The form's title; the humanised model name when nil.
    public var title: String?
    /// Whether `created_at` and `updated_at` get rows (read as date-times).
    public var includesTimestamps = false

    var sections: [(title: String?, slots: [Int])] = [(nil, [])]
    var options: [Int: FieldOptions] = [:]
    var hidden: Set<Int> = []
    var problems: [String] = []
    private let prototype: M

    init() { prototype = M() }

    /// Starts a section; the fields named next go into it.
    public mutating func section(_ title: String) {
        if sections.count == 1, sections[0].title == nil, sections[0].slots.isEmpty {
            sections[0].title = title
        } else {
            sections.append((title, []))
        }
    }

    /// Places the column behind `keyPath` in the current section, with these options.
    public mutating func field<V>(
        _ keyPath: KeyPath<M, V>, _ kind: FormInputKind? = nil, label: String? = nil, placeholder: String? = nil,
        help: String? = nil, choices: [ModelValue]? = nil, pickerStyle: FormPickerStyle? = nil
    ) {
        do {
            let slot = try prototype.slot(of: keyPath)
            place(slot, FieldOptions(kind: kind, label: label, placeholder: placeholder, help: help, choices: choices, pickerStyle: pickerStyle))
        } catch {
            problems.append("\(keyPath) is not an @Column property")
        }
    }

    /// Places the column with this stored name in the current section.
    public mutating func field(
        _ column: String, _ kind: FormInputKind? = nil, label: String? = nil, placeholder: String? = nil,
        help: String? = nil, choices: [ModelValue]? = nil, pickerStyle: FormPickerStyle? = nil
    ) {
        guard let slot = M.schema.index(ofColumn: column) else {
            problems.append("no column named \"\(column)\"")
            return
        }
        place(slot, FieldOptions(kind: kind, label: label, placeholder: placeholder, help: help, choices: choices, pickerStyle: pickerStyle))
    }

    /// Leaves the column behind `keyPath` out of the form (and refuses it on apply).
    public mutating func hide<V>(_ keyPath: KeyPath<M, V>) {
        do {
            hide(slot: try prototype.slot(of: keyPath))
        } catch {
            problems.append("\(keyPath) is not an @Column property")
        }
    }

    /// Leaves the column with this stored name out of the form.
    public mutating func hide(_ column: String) {
        guard let slot = M.schema.index(ofColumn: column) else {
            problems.append("no column named \"\(column)\"")
            return
        }
        hide(slot: slot)
    }

    private mutating func hide(slot: Int) {
        for s in sections.indices { sections[s].slots.removeAll { $0 == slot } }
        options[slot] = nil
        hidden.insert(slot)
    }

    private mutating func place(_ slot: Int, _ fieldOptions: FieldOptions) {
        if slot == 0 {
            problems.append("the id column \"\(M.schema.columns[0].name)\" cannot be a form field")
            return
        }
        for s in sections.indices { sections[s].slots.removeAll { $0 == slot } }
        hidden.remove(slot)
        sections[sections.count - 1].slots.append(slot)
        options[slot] = fieldOptions
    }
}

/// What a layout says about one row.
struct FieldOptions {
    var kind: FormInputKind?
    var label: String?
    var placeholder: String?
    var help: String?
    var choices: [ModelValue]?
    var pickerStyle: FormPickerStyle?
}

/// A malformed form declaration: a programming error, reported when a descriptor is
/// built or a form is applied.
public struct FormDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model's name.
    public let model: String
    /// Each problem found, in declaration order.
    public let problems: [String]

    public var description: String { "\(model) form: " + problems.joined(separator: "; ") }
}

extension FormDefinitionError: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
}
