import ArrayAdapter
import ModelServer
import Testing

/// A resource declaration the server cannot route is refused when it is registered, with
/// the contract's error (a server links no HTTP client, so it cannot throw the client's).
@Suite struct ResourceDeclarationTests {
    @Test func aTemplateNamingNoColumnIsARouteErrorNamingTheModel() throws {
        var resources = ModelResources(store: ArrayAdapter())
        let error = #expect(throws: RESTRouteError.self) {
            try resources.register(SrvItem.self, RESTResource(instancePath: "items/:nope"))
        }
        #expect(error?.model == "SrvItem")
        #expect(error?.message.contains(":nope") == true, "\(String(describing: error))")
        #expect(error?.modelName == "SrvItem")
    }

    @Test func nestingUnderARelationThatIsNotBelongsToIsARouteError() throws {
        var resources = ModelResources(store: ArrayAdapter())
        let error = #expect(throws: RESTRouteError.self) {
            try resources.register(SrvTodo.self, RESTResource(nestedUnder: "items"))
        }
        #expect(error?.message.contains("not a @BelongsTo") == true, "\(String(describing: error))")
    }

    @Test func aWellFormedDeclarationRegisters() throws {
        var resources = ModelResources(store: ArrayAdapter())
        try resources.register(SrvTodo.self)
        try resources.register(SrvItem.self, RESTResource(nestedUnder: "srvTodo"))
    }
}
