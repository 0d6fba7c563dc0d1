import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Building requests and reading payloads.
extension RESTAdapter {
    /// The URL of `path` (already escaped) with query items, escaped strictly (`+` as `%2B`).
    func url(_ path: String, _ items: [URLQueryItem] = [], model: String) throws -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !items.isEmpty {
            text += "?" + items.map { PercentEncoding.escape($0.name) + "=" + PercentEncoding.escape($0.value ?? "") }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw RESTError(.route, model: model, message: "\(text) is not a valid URL")
        }
        // Anything else would wait out the deadline in the URL loading system.
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw RESTError(.route, url: url, model: model, message: "\(baseURL) is not an http or https URL; RESTAdapter speaks HTTP only")
        }
        return url
    }

    /// The request for `resource`: its headers (the adapter's, the model's, the ones
    /// ``withHeaders(_:_:)-(_,()throws->R)`` set) and JSON body.
    func request(_ method: String, _ url: URL, body: [String: ModelValue]? = nil, _ resource: ResolvedResource) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        // The transport strips all but Accept and Content-Type from a request for another origin.
        for (name, value) in resource.headers { request.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in Self.currentHeaders ?? [:] { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            let wrapped: ModelValue = resource.envelope.map { .dictionary([$0: .dictionary(body)]) } ?? .dictionary(body)
            request.httpBody = Data(ModelJSON.serializedBytes(wrapped))
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends a request for `resource` and returns the response, whatever its status.
    ///
    /// - Parameter deadline: the call's deadline, when it spans several requests (pages).
    func send(_ request: URLRequest, _ resource: ResolvedResource, deadline: ContinuousClock.Instant? = nil) throws -> RESTResponse {
        try transport.send(request, model: resource.schema.modelName, deadline: deadline)
    }

    /// ``send(_:_:deadline:)``, suspending instead of blocking.
    func send(_ request: URLRequest, _ resource: ResolvedResource, deadline: ContinuousClock.Instant? = nil) async throws
        -> RESTResponse
    {
        try await transport.send(request, model: resource.schema.modelName, deadline: deadline)
    }

    /// The JSON payload of a response: the configured ``RESTConfiguration/decodeResponse``
    /// hook, or the default (a 2xx status, a JSON content type, the envelope unwrapped).
    func payload(_ response: RESTResponse, _ resource: ResolvedResource, list: Bool = false) throws -> ModelValue {
        try document(response, resource, list: list).payload
    }

    /// A response's payload and, for a list in an envelope object, that object (where body
    /// paging puts `next` and `count`).
    func document(_ response: RESTResponse, _ resource: ResolvedResource, list: Bool = false) throws
        -> (payload: ModelValue, envelope: [String: ModelValue]?)
    {
        if let decode = configuration.decodeResponse { return (try decode(response), nil) }
        let model = resource.schema.modelName
        guard (200..<300).contains(response.status) else { throw statusError(response, model: model) }
        if response.body.isEmpty { return (.null, nil) }
        let type = response.header("Content-Type") ?? ""
        guard type.contains("json") else {
            throw invalid(response, model: model, "the content type is \"\(type)\", not JSON", text: Self.text(response.body))
        }
        guard let text = String(data: response.body, encoding: .utf8) else {
            throw invalid(response, model: model, "the body is not UTF-8 text")
        }
        let value: ModelValue
        do {
            value = try ModelJSON.parse(text)
        } catch {
            throw invalid(response, model: model, "the body is not JSON: \(error)", text: Self.text(response.body))
        }
        guard let envelope = list ? configuration.listEnvelope ?? resource.envelope : resource.envelope else { return (value, nil) }
        guard case .dictionary(let object) = value, let inner = object[envelope] else {
            throw invalid(response, model: model, "the body has no \"\(envelope)\" envelope", body: value)
        }
        return (inner, object)
    }

    /// A row read from one JSON object of a response. With `base` (the row sent in a create
    /// or update), columns whose keys the object leaves out keep their values from `base`,
    /// and a missing id is `base`'s when `keepsID` (an update, or a create that sent its id).
    func row(
        _ value: ModelValue, _ response: RESTResponse, _ resource: ResolvedResource, over base: [ModelValue]? = nil,
        keepsID: Bool = true
    ) throws
        -> [ModelValue]
    {
        let model = resource.schema.modelName
        guard case .dictionary(var object) = value else {
            throw invalid(response, model: model, "expected a \(model) object, found \(value.kindName)", body: value)
        }
        if let adjust = resource.settings.adjustParsed { try adjust(&object) }
        let row: [ModelValue]
        do {
            row = try resource.codec.row(from: object)
        } catch {
            throw invalid(response, model: model, "a \(model) object does not fit the model: \(error)", body: .dictionary(object))
        }
        var merged = row
        if let base {
            // A write's answer: keys it leaves out keep the values sent.
            for k in merged.indices where k < base.count && (k > 0 || keepsID) {
                if let key = resource.codec.key(forColumn: k), object[key] != nil { continue }
                merged[k] = base[k]
            }
        } else {
            // A stored record: an optional column whose key is absent is nil (APIs leave
            // nulls out), not the column's default; a non-optional one takes its default
            // (APIs leave defaults out too, and the two cannot be told apart).
            for k in 1..<merged.count where resource.schema.columns[k].isOptional {
                if let key = resource.codec.key(forColumn: k), object[key] == nil { merged[k] = .null }
            }
        }
        guard !merged[0].isNull else { throw invalid(response, model: model, "a \(model) object has no id", body: .dictionary(object)) }
        rememberOwner(of: merged, resource)
        return merged
    }

    /// The rows of a list payload (an array of objects).
    func rows(_ value: ModelValue, _ response: RESTResponse, _ resource: ResolvedResource) throws -> [[ModelValue]] {
        guard case .array(let elements) = value else {
            throw invalid(
                response, model: resource.schema.modelName, "expected a list of \(resource.schema.modelName), found \(value.kindName)",
                body: value)
        }
        var rows: [[ModelValue]] = []
        rows.reserveCapacity(elements.count)
        for element in elements { rows.append(try row(element, response, resource)) }
        return rows
    }

    /// A ``RESTError`` for an error status, with the body decoded when it is JSON.
    ///
    /// Only an error body of at most 16 KiB is decoded and kept whole; a longer one is kept
    /// as its first 1,000 characters of text.
    func statusError(_ response: RESTResponse, model: String) -> RESTError {
        let small = response.body.count <= 16 << 10
        let text = small ? String(data: response.body, encoding: .utf8) ?? "" : ""
        let body = small && (response.header("Content-Type") ?? "").contains("json") ? try? ModelJSON.parse(text) : nil
        return RESTError(
            .status, method: response.method, url: response.url, status: response.status, body: body,
            text: body == nil ? Self.text(response.body) : nil, model: model,
            message: "the server answered \(response.status)")
    }

    func invalid(
        _ response: RESTResponse, model: String, _ message: String, body: ModelValue? = nil, text: String? = nil
    ) -> RESTError {
        RESTError(
            .invalidResponse, method: response.method, url: response.url, status: response.status, body: body, text: text,
            model: model, message: message)
    }

    static func text(_ data: Data) -> String {
        let text = String(decoding: data.prefix(1000), as: UTF8.self)
        return data.count > 1000 ? text + "…" : text
    }

    // MARK: Owners of nested records

    func rememberOwner(of row: [ModelValue], _ resource: ResolvedResource) {
        guard let nested = resource.routes.nested, nested.foreignKey < row.count else { return }
        let owner = row[nested.foreignKey]
        owners.withLock { owners in
            let key = ObjectIdentifier(resource.schema)
            if owners[key, default: [:]].count >= 100_000 { owners[key] = [:] }
            owners[key, default: [:]][row[0]] = owner
        }
    }

    func knownOwner(of id: ModelValue, _ resource: ResolvedResource) -> ModelValue? {
        owners.withLock { $0[ObjectIdentifier(resource.schema)]?[id] }
    }
}
