// FormDemo: a model describes its own input form; values typed on standard input are
// applied to a new record, field errors are shown, and a valid record is saved in
// `members.sqlite` in the working directory.
//
//   swift run FormDemo                          # print the form, read key=value lines, apply
//   printf 'name=Ada\nemail=ada@example.com\n' | swift run FormDemo
//   swift run FormDemo --schema                 # the model's JSON Schema
//   swift run FormDemo --json                   # the form descriptor as JSON
import Foundation
import SQLiteAdapter

final class Member: Model, Validatable, FormDescribing {
    @Column var name: String = ""
    @Column var email: String = ""
    @Column var website: String?
    @Column(options: .text) var bio: String = ""
    @Column var age: Int?
    @Column var plan: String = "free"
    @Column var newsletter: Bool = false
    @Column var birthDate: Date?
    @Column var password: String = ""
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}

    static func validations(_ v: inout Validations<Member>) {
        v.add(\.name, .presence, .length(2...40))
        v.add(\.email, .presence, .email)
        v.add(\.website, .url())
        v.add(\.age, .numericality(onlyInteger: true, greaterThanOrEqualTo: 13, lessThan: 130))
        v.add(\.plan, .inclusion(in: ["free", "pro", "team"]))
        v.add(\.password, .presence, .length(8...))
    }

    static func form(_ form: inout FormLayout<Member>) {
        form.title = "Join the club"
        form.section("About you")
        form.field(\.name, placeholder: "Ada Lovelace")
        form.field(\.email)
        form.field(\.birthDate, help: "We send a card.")
        form.field(\.age)
        form.field(\.bio)
        form.section("Account")
        form.field(\.plan, pickerStyle: .segmented)
        form.field(\.password, .secure)
        form.field(\.newsletter, label: "Send me the newsletter")
    }
}

@main
struct FormDemo {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("--schema") {
            print(try Member.jsonSchema().jsonText)
            return
        }
        let form = try Member.formDescriptor()
        if arguments.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(form), as: UTF8.self))
            return
        }
        printForm(form)

        print("\nType key=value lines (end with an empty line or end of input):")
        var submitted: [String: String] = [:]
        while let line = readLine(), !line.isEmpty {
            guard let equals = line.firstIndex(of: "=") else {
                print("  (ignored \"\(line)\": expected key=value)")
                continue
            }
            submitted[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }

        let member = Member()
        let errors = try member.apply(formValues: submitted)
        guard errors.isEmpty else {
            print("\n\(errors.count) problem(s):")
            for field in errors.columns { print("  \(form.field(field)?.label ?? field): \(errors.messages(for: field).joined(separator: ", "))") }
            for error in errors.recordErrors { print("  \(error.message)") }
            exit(1)
        }
        let store = try SQLiteAdapter(path: FileManager.default.currentDirectoryPath + "/members.sqlite")
        try member.save(to: store)
        print("\nSaved member \(member.id ?? 0): \(member.name) <\(member.email)>, plan \(member.plan)")
        print("Members stored: \(try Member.count(in: store))")
    }

    static func printForm(_ form: FormDescriptor) {
        print("== \(form.title) ==")
        for section in form.sections {
            if let title = section.title { print("\n-- \(title) --") }
            for field in section.fields {
                var line = "  \(field.key)  \(field.label)\(field.isRequired ? " *" : "")  [\(field.kind.rawValue)]"
                if !field.choices.isEmpty { line += "  choices: " + field.choices.map(\.label).joined(separator: "|") }
                if !field.text.isEmpty, field.kind != .secure { line += "  now: \(field.text)" }
                if let hint = hint(field) { line += "  (\(hint))" }
                if let placeholder = field.placeholder { line += "  e.g. \(placeholder)" }
                print(line)
                if let help = field.help { print("      \(help)") }
            }
        }
    }

    static func number(_ value: Double) -> String {
        Int64(exactly: value).map(String.init) ?? String(value)
    }

    static func hint(_ field: FormField) -> String? {
        var parts: [String] = []
        if let low = field.minLength, let high = field.maxLength { parts.append("\(low)–\(high) characters") }
        else if let low = field.minLength { parts.append("at least \(low) characters") }
        else if let high = field.maxLength { parts.append("at most \(high) characters") }
        if let low = field.minimum { parts.append("≥ " + number(low)) }
        if let high = field.maximum { parts.append("≤ " + number(high)) }
        if let high = field.exclusiveMaximum { parts.append("< " + number(high)) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
