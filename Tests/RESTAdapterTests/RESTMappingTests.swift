import Foundation
import RESTAdapter
import RESTTestServer
import Testing

/// Bodies shaped by the model's JSONMapping, envelopes and body hooks.
@Suite struct RESTMappingTests {
    @Test func bodiesFollowTheJSONMapping() throws {
        let f = try RESTFixture(nested: false)
        let gadget = Gadget()
        gadget.displayName = "Widget"
        gadget.secret = "never sent"
        gadget.releasedAt = Date(timeIntervalSince1970: 1_700_000_000.5)
        try gadget.save(to: f.adapter)
        let stored = try #require(f.server.objects(in: "gadgets").first)
        #expect(stored == ["id": 1, "displayName": "Widget", "releasedAt": 1_700_000_000.5])
        let back = try #require(try Gadget.find(1, in: f.adapter))
        #expect(back.displayName == "Widget")
        #expect(back.releasedAt == gadget.releasedAt)
        #expect(back.secret == "")
    }

    @Test func envelopesWrapBodiesBothWays() throws {
        let f = try RESTFixture(options: .init(envelope: "data"), configure: { $0.envelope = "data" }, nested: false)
        let acme = try Company.create(["name": "Acme"], in: f.adapter)
        #expect(f.server.objects(in: "companies") == [["id": 1, "name": "Acme"]])
        #expect(try Company.find(acme.id ?? 0, in: f.adapter)?.name == "Acme")
        let bare = RESTAdapter(baseURL: f.server.baseURL)
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: bare) }
        #expect(error?.kind == .invalidResponse, "an enveloped body read as bare does not fit the model")
    }

    @Test func hooksAugmentBodiesAndAdjustParsedObjects() throws {
        let f = try RESTFixture(nested: false)
        var resource = RESTResource()
        resource.beforeCreate = { $0["source"] = "app" }
        resource.beforeUpdate = { $0["revision"] = 2 }
        resource.adjustParsed = { object in
            if let legacy = object.removeValue(forKey: "title") { object["name"] = legacy }
        }
        f.adapter.register(Company.self, resource)
        let acme = try Company.create(["name": "Acme"], in: f.adapter)
        acme.name = "Acme 2"
        try acme.save()
        #expect(f.server.objects(in: "companies") == [["id": 1, "name": "Acme 2", "source": "app", "revision": 2]])
        f.server.seed("companies", [["id": 9, "title": "Legacy"]])
        #expect(try Company.find(9, in: f.adapter)?.name == "Legacy")
    }

    @Test func putSendsEveryColumnAndADecodeHookReadsCustomFormats() throws {
        let f = try RESTFixture(
            configure: { configuration in
                configuration.updateMethod = .put
            }, nested: false)
        let acme = try Company.create(["name": "Acme"], in: f.adapter)
        acme.name = "Acme 2"
        try acme.save()
        #expect(f.server.requests.last?.method == "PUT")

        let custom = try RESTFixture(
            configure: { configuration in
                configuration.decodeResponse = { response in
                    if response.status == 418 { throw RESTError(.status, status: 418, message: "teapot") }
                    return .dictionary(["id": 1, "name": "from hook"])
                }
            }, nested: false)
        custom.server.seed("companies", [["name": "stored"]])
        #expect(try Company.find(1, in: custom.adapter)?.name == "from hook")
    }
}
