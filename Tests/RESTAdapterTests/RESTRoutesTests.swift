import Foundation
import RESTAdapter
import RESTTestServer
import Testing

/// Collection and instance paths, nested routes under an owner, shallow fallbacks.
@Suite struct RESTRoutesTests {
    @Test func crudUsesCollectionAndInstancePaths() throws {
        let f = try RESTFixture()
        try ModelStore.using(f.adapter) {
            let acme = try Company.create(["name": "Acme"])
            let id = try #require(acme.id)
            acme.name = "Acme Inc"
            try acme.save()
            #expect(try Company.find(id)?.name == "Acme Inc")
            #expect(try Company.find(999) == nil, "404 on find is nil")
            #expect(try acme.delete())
        }
        #expect(f.log == ["POST /companies", "PATCH /companies/1", "GET /companies/1", "GET /companies/999", "DELETE /companies/1"])
        #expect(f.server.objects(in: "companies").isEmpty)
    }

    @Test func childrenAreCreatedAndListedUnderTheirOwner() throws {
        let f = try RESTFixture()
        try ModelStore.using(f.adapter) {
            let acme = try Company.create(["name": "Acme"])
            let ann = Employee()
            ann.name = "Ann"
            ann.company = acme
            try ann.save()
            #expect(try acme.employees.all().map(\.name) == ["Ann"])
            #expect(try Employee.find(ann.id ?? 0)?.name == "Ann")
            ann.age = 40
            try ann.save()
        }
        #expect(
            f.log == [
                "POST /companies", "POST /companies/1/employees", "GET /companies/1/employees",
                "GET /companies/1/employees/1", "PATCH /companies/1/employees/1",
            ])
        #expect(f.server.objects(in: "employees").first?["company_id"] == .int(1))
    }

    @Test func anUnknownOwnerFallsBackToShallowRoutesOrFails() throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        f.server.seed("employees", [["name": "Bo", "age": 30, "company_id": 1]])
        #expect(try Employee.find(1, in: f.adapter)?.name == "Bo")  // owner unknown: /employees/1
        let listed = try ModelStore.using(f.adapter) { try Employee.where(\.age > 20).all() }  // no owner: /employees
        #expect(listed.count == 1)
        #expect(f.log == ["GET /employees/1", "GET /employees?age_gt=20"])

        let strict = RESTAdapter(baseURL: f.server.baseURL)
        strict.register(Employee.self, RESTResource(nestedUnder: "company", shallow: false))
        let error = #expect(throws: RESTError.self) { try Employee.find(1, in: strict) }
        #expect(error?.kind == .route)
        let listing = #expect(throws: RESTError.self) { try ModelStore.using(strict) { try Employee.where(\.age > 20).all() } }
        #expect(listing?.kind == .unsupportedQuery)
        #expect(f.server.requests.count == 2, "nothing sent for either")
    }

    @Test func aTemplateNamingNoColumnIsTheClientsRouteError() throws {
        let f = try RESTFixture()
        let bad = RESTAdapter(baseURL: f.server.baseURL)
        bad.register(Company.self, RESTResource(instancePath: "companies/:nope"))
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: bad) }
        #expect(error?.kind == .route)
        #expect(error?.model == "Company" && error?.message.contains(":nope") == true, "\(String(describing: error))")
        #expect(f.server.requests.isEmpty, "nothing sent")
    }

    @Test func customPathTemplatesAndPrefixes() throws {
        let f = try RESTFixture(options: .init(pathPrefix: "/api/v2"))
        f.adapter.register(Company.self, RESTResource(collectionPath: "orgs", instancePath: "orgs/:id"))
        try ModelStore.using(f.adapter) {
            let c = try Company.create(["name": "Acme"])
            #expect(try Company.find(c.id ?? 0)?.name == "Acme")
        }
        #expect(f.log == ["POST /api/v2/orgs", "GET /api/v2/orgs/1"])
        let bad = RESTAdapter(baseURL: f.server.baseURL)
        bad.register(Company.self, RESTResource(collectionPath: "orgs/:nope"))
        #expect(throws: RESTError.self) { try bad.prepare(Company.schema) }
    }

    @Test func destroyAppliesDeleteRulesThroughNestedLists() throws {
        let f = try RESTFixture()
        try ModelStore.using(f.adapter) {
            let acme = try Company.create(["name": "Acme"])
            for name in ["Ann", "Bo"] {
                let e = Employee()
                e.name = name
                e.company = acme
                try e.save()
            }
            #expect(try acme.destroy())
        }
        #expect(f.server.objects(in: "employees").isEmpty)
        #expect(f.server.objects(in: "companies").isEmpty)
        #expect(f.log.contains("DELETE /companies/1/employees/2"))
    }
}
