// Generated from the `///` comments of Sources/ModelForms by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelForms
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

// Sources/ModelForms/Declaring/FormLayout.swift, snippet 1
extension SourceDoc_Todo: FormDescribing {
    static func form(_ form: inout FormLayout<SourceDoc_Todo>) {
        form.title = "New task"
        form.section("Task")
        form.field(\.name, placeholder: "What to do")
        form.field(\.notes, .multiline)
        form.section("Schedule")
        form.field(\.dueDate, .date)
        form.field(\.priority, .picker, choices: [1, 2, 3], pickerStyle: .segmented)
    }
}

extension SourceModelFormsDoc {
    /// Sources/ModelForms/Applying/Model+ApplyForm.swift, snippet 1.
    static func ModelApplyForm1(_ given: Context) throws {
        let todo = given.todo
        let errors = try todo.apply(formValues: ["name": "walk", "due_date": "2012-09-15"])
        if errors.isEmpty { try todo.save() } else { show(errors.messages(for: "due_date")) }
        show(errors)
    }

    /// Sources/ModelForms/Declaring/FormLayout.swift, snippet 1.
    static func FormLayout1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelForms/Descriptor/FormDescriptor.swift, snippet 1.
    static func FormDescriptor1(_ given: Context) throws {
        let todo = given.todo
        let form = try todo.formDescriptor()
        for section in form.sections {
            for field in section.fields { print(field.label, field.kind, field.text) }
        }
        show(form)
    }

    /// Sources/ModelForms/Descriptor/Model+FormDescriptor.swift, snippet 1.
    static func ModelFormDescriptor1(_ given: Context) throws {
        let todo = given.todo
        let form = try todo.formDescriptor()
        show(form.field("due_date")?.kind)      // .date
        show(form.field("due_date")?.label)     // "Due date"
        show(form)
    }

    /// Sources/ModelForms/JSONSchema/Model+JSONSchema.swift, snippet 1.
    static func ModelJSONSchema1(_ given: Context) throws {
        let url = given.url
        let schema = try SourceDoc_Todo.jsonSchema()
        try show(schema.jsonData.write(to: url))      // for a web front end or an OpenAPI document
        show(schema)
    }
}
