import Foundation
import ModelCore

/// Parse Server's REST conventions (``RESTTestServer/Options/parseStyle``), laid over the
/// server's plain routes: a Parse request is turned into a plain one, and the plain answer
/// into the one Parse gives.
///
/// - Objects carry `objectId` (not `id`) and the server's `createdAt` and `updatedAt`.
/// - `POST` answers 201 with only `{objectId, createdAt}` and a `Location` header; `PUT`
///   sets the keys it is given and answers `{updatedAt}`; `DELETE` answers 200 `{}`.
/// - Lists are `{"results": […]}`, queried with `where`, `order`, `limit` and `skip`.
/// - A missing object is 404 `{"code": 101, "error": "Object not found."}`.
enum ParseStyle {
    /// The plain request for a Parse one: `objectId` in `where` and `order` is `id`, the
    /// server-owned keys are dropped from a body, and `PUT` merges as `PATCH` does.
    static func request(_ request: HTTPRequest) -> HTTPRequest {
        var plain = request
        plain.query = request.query.map { item in
            switch item.name {
            case "where": return (item.name, item.value.replacingOccurrences(of: "\"objectId\"", with: "\"id\""))
            case "order":
                let keys = item.value.split(separator: ",").map { key in
                    key == "objectId" ? "id" : key == "-objectId" ? "-id" : String(key)
                }
                return (item.name, keys.joined(separator: ","))
            default: return item
            }
        }
        if request.method == "PUT" { plain.method = "PATCH" }
        if let text = String(data: request.body, encoding: .utf8), !text.isEmpty, case .dictionary(var object) = try? ModelJSON.parse(text) {
            for key in ["objectId", "createdAt", "updatedAt"] { object[key] = nil }
            plain.body = Data(ModelJSON.serialize(.dictionary(object)).utf8)
        }
        return plain
    }

    /// The Parse answer for the plain answer to `request`.
    static func answer(_ response: HTTPResponse, to request: HTTPRequest) -> HTTPResponse {
        if response.status == 404 { return .json(404, #"{"code":101,"error":"Object not found."}"#) }
        let value = try? ModelJSON.parse(String(decoding: response.body, as: UTF8.self))
        switch (request.method, response.status, value) {
        case ("POST", 201, .dictionary(let object)?):
            let id = object["id"] ?? .null
            let location = request.path + "/" + (id.stringValue ?? id.description)
            let created: ModelValue = .dictionary(["objectId": id, "createdAt": object["createdAt"] ?? .null])
            return .json(201, ModelJSON.serialize(created), headers: [("Location", location)])
        case ("GET", 200, .array(let objects)?):
            return .json(200, ModelJSON.serialize(.dictionary(["results": .array(objects.map(renamed))])))
        case ("GET", 200, let object?):
            return .json(200, ModelJSON.serialize(renamed(object)))
        case ("PUT", 200, .dictionary(let object)?), ("PATCH", 200, .dictionary(let object)?):
            return .json(200, ModelJSON.serialize(.dictionary(["updatedAt": object["updatedAt"] ?? .null])))
        case ("DELETE", 204, _):
            return .json(200, "{}")
        default:
            return response
        }
    }

    /// An object with its `id` as `objectId`.
    private static func renamed(_ value: ModelValue) -> ModelValue {
        guard case .dictionary(var object) = value else { return value }
        object["objectId"] = object.removeValue(forKey: "id")
        return .dictionary(object)
    }
}
