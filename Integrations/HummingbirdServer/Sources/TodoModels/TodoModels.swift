import Foundation
import ModelServer
import RESTAdapter

/// A to-do list: the model the server stores and a client syncs.
public final class Todo: Model, Validatable {
    @Column public var title: String = ""
    @Column public var done: Bool = false
    @Column public var due: Date?
    @Column public var createdAt: Date?
    @Column public var updatedAt: Date?
    @HasMany(dependent: .destroy) public var items: Children<TodoItem>
    public init() {}

    public static func validations(_ v: inout Validations<Todo>) {
        v.add(\.title, .presence, .length(...200))
    }
}

/// One entry of a to-do list, served under its list (`/todos/:todo_id/todo_items`).
public final class TodoItem: Model, Validatable {
    @Column public var text: String = ""
    @Column public var done: Bool = false
    @Column public var updatedAt: Date?
    @BelongsTo public var todo: Todo?
    public init() {}

    public static func validations(_ v: inout Validations<TodoItem>) {
        v.add(\.text, .presence)
    }
}

/// The resource declarations server and clients share.
public enum TodoAPI {
    /// How todos are served.
    public static var todos: RESTResource { RESTResource() }
    /// Items live under their todo (and at `/todo_items/:id` too).
    public static var items: RESTResource { RESTResource(nestedUnder: "todo") }

    /// The server half: both models served from `store`.
    public static func resources(store: any PersistenceAdapter, configuration: ModelResources.Configuration = .init()) throws
        -> ModelResources
    {
        var resources = ModelResources(store: store, configuration: configuration)
        try resources.register(Todo.self, todos)
        try resources.register(TodoItem.self, items)
        return resources
    }

    /// The client half: the same declarations registered on a RESTAdapter.
    public static func register(on client: RESTAdapter) {
        client.register(Todo.self, todos)
        client.register(TodoItem.self, items)
    }
}
