#if canImport(SwiftUI)
import SwiftUI
import ModelForms

/// A SwiftUI `Form` for a ``FormDescriptor``: one `Section` per form section, one input
/// per row, the row's errors under it.
///
/// The view edits the descriptor's texts; submit them with `apply(formValues:)`:
///
/// <!-- snippet: skip SwiftUI exists on Apple platforms only -->
/// ```swift
/// struct EditTodo: View {
///     let todo: Todo
///     @State private var form: FormDescriptor
///     @State private var errors = ValidationErrors()
///
///     var body: some View {
///         ModelFormView(descriptor: $form, errors: errors)
///         Button("Save") {
///             errors = (try? todo.apply(formValues: form.values)) ?? errors
///             if errors.isEmpty { try? todo.save() }
///         }
///     }
/// }
/// ```
public struct ModelFormView: View {
    @Binding private var descriptor: FormDescriptor
    private let errors: ValidationErrors

    /// A form editing `descriptor`'s texts, showing `errors` under their rows.
    public init(descriptor: Binding<FormDescriptor>, errors: ValidationErrors = ValidationErrors()) {
        _descriptor = descriptor
        self.errors = errors
    }

    public var body: some View {
        Form {
            ForEach(descriptor.sections.indices, id: \.self) { s in
                Section {
                    ForEach(descriptor.sections[s].fields.indices, id: \.self) { f in
                        FormFieldRow(field: $descriptor.sections[s].fields[f], messages: errors.messages(for: descriptor.sections[s].fields[f].key))
                    }
                } header: {
                    if let title = descriptor.sections[s].title { Text(title) }
                }
            }
        }
        .navigationTitle(descriptor.title)
    }
}

/// One row: the input for its kind, then its error messages.
struct FormFieldRow: View {
    @Binding var field: FormField
    let messages: [String]

    var body: some View {
        VStack(alignment: .leading) {
            input
            ForEach(messages, id: \.self) { message in
                Text(field.label + " " + message).font(.footnote).foregroundStyle(.red)
            }
        }
    }

    @ViewBuilder private var input: some View {
        switch field.kind {
        case .toggle:
            Toggle(field.label, isOn: Binding(get: { field.text == "true" }, set: { field.text = $0 ? "true" : "false" }))
        case .picker:
            Picker(field.label, selection: $field.text) {
                if field.isOptional { Text("None").tag("") }
                ForEach(field.choices, id: \.text) { choice in Text(choice.label).tag(choice.text) }
            }
        case .secure:
            SecureField(field.label, text: $field.text, prompt: field.placeholder.map { Text($0) })
        case .multiline:
            TextField(field.label, text: $field.text, prompt: field.placeholder.map { Text($0) }, axis: .vertical)
        #if !os(tvOS)
        case .date, .dateTime:
            DatePicker(
                field.label,
                selection: Binding(
                    get: { field.kind == .date ? Self.localDay(field.text) : FormText.date(from: field.text) ?? Date() },
                    set: { field.text = field.kind == .date ? Self.dayText($0) : FormText.text(for: .date($0), kind: .dateTime) }),
                displayedComponents: field.kind == .date ? [.date] : [.date, .hourAndMinute])
        #endif
        default:
            TextField(field.label, text: $field.text, prompt: field.placeholder.map { Text($0) })
        }
    }

    /// A `.date` row's day (stored as UTC midnight) as that day in the user's calendar,
    /// so the picker shows the stored day in every time zone.
    static func localDay(_ text: String) -> Date {
        guard let stored = FormText.date(from: text), let utc = TimeZone(secondsFromGMT: 0) else { return Date() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let day = calendar.dateComponents([.year, .month, .day], from: stored)
        return Calendar.current.date(from: day) ?? stored
    }

    /// The day the user picked, in their calendar, as `yyyy-MM-dd`.
    static func dayText(_ picked: Date) -> String {
        let day = Calendar.current.dateComponents([.year, .month, .day], from: picked)
        return String(format: "%04d-%02d-%02d", day.year ?? 1970, day.month ?? 1, day.day ?? 1)
    }
}
#endif
