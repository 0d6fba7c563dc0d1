import Foundation

extension ModelEndpoint {
    /// `POST` to a collection: a new record from the body (within the call's constraints),
    /// saved through the model layer in a transaction; 201 with `Location` and `ETag`.
    /// A repeated `Idempotency-Key` replays the first response.
    func create(_ call: ResourceCall) async throws -> ResourceResponse {
        let object = try BodyReader.object(call.request.body, envelope: envelopeKey)
        var values = try reader.values(object).filter { !stamped.contains($0.key) }
        if let id = values[0], !id.isNull { try checkClientID(id) }
        try refuseReadOnly(values, stored: nil)
        try apply(call, to: &values)
        if let gate = call.gate { try await gate.check(values[gate.column] ?? .null, key: key(gate.column), in: call.store) }
        let written = values
        let idempotency = call.resources.idempotency
        let collection = ([schema.tableName] + call.fixed.sorted { $0.key < $1.key }.map { "\($0.key)=\(PathValues.text($0.value))" })
            .joined(separator: " ")
        let claim = try idempotency.claim(call.request, resource: collection)
        defer { if let claim { idempotency.release(claim) } }
        do {
            return try await call.store.transaction { _ in
                if let claim, let replay = try await idempotency.replay(claim, in: call.store) { return replay }
                let record = M()
                for (column, value) in written.sorted(by: { $0.key < $1.key }) where !(column == 0 && value.isNull) {
                    try record.set(self.schema.columns[column].name, to: value)
                }
                try await record.save(to: call.store)
                var headers: [(name: String, value: String)] = []
                if let path = self.location(record, nested: !call.fixed.isEmpty) {
                    headers.append(("Location", call.resources.configuration.pathPrefix + path))
                }
                let response = self.recordResponse(201, try self.object(record), headers: headers)
                if let claim { try await idempotency.remember(response, for: claim, in: call.store) }
                return response
            }
        } catch let error as StoreError where error.kind == .uniqueViolation && error.table == IdempotencyRecord.tableName {
            // Another process created under the same key meanwhile: its answer will be replayed.
            throw IdempotencyCache.inUse(claim?.given ?? "")
        }
    }

    /// `PATCH` (the keys sent) or `PUT` (every writable column; missing ones take their
    /// defaults) of one record, honouring `If-Match`; saved through the model layer.
    func update(_ call: ResourceCall) async throws -> ResourceResponse {
        let object = try BodyReader.object(call.request.body, envelope: envelopeKey)
        var values = try reader.values(object).filter { !stamped.contains($0.key) }
        let replacing = call.request.method == "PUT"
        if !replacing, options.patchNull == .ignored { values = values.filter { !$0.value.isNull } }
        let sent = values
        let ifMatch = call.request.header("If-Match")
        let saved = try await call.store.transaction { _ in
            let record = try await self.record(call, locking: ifMatch != nil)
            let current = try self.object(record)
            if let ifMatch, !ETag.matches(ifMatch, ETag.of(current), weakly: false) {
                var error = ResourceError(
                    status: 412, code: "precondition_failed",
                    message: "\(self.schema.modelName) \(call.id ?? "") changed since the version If-Match names")
                error.headers["ETag"] = ETag.of(current)
                throw error
            }
            var values = sent
            if let id = values.removeValue(forKey: 0), id != record._value(at: 0) {
                throw ResourceError.unprocessable("read_only", "an update cannot change the id", field: self.key(0))
            }
            if replacing {
                let defaults = self.schema.newRecordValues()
                for column in 1..<self.schema.columns.count where values[column] == nil && !self.readOnly.contains(column) && !self.stamped.contains(column) {
                    if self.codec.key(forColumn: column) != nil { values[column] = defaults[column] }
                }
            }
            try self.refuseReadOnly(values, stored: record._currentValues)
            try self.apply(call, to: &values, stored: record._currentValues)
            if let gate = call.gate, let moved = values[gate.column], moved != record._value(at: gate.column) {
                try await gate.check(moved, key: self.key(gate.column), in: call.store)
            }
            for (column, value) in values.sorted(by: { $0.key < $1.key }) {
                try record.set(self.schema.columns[column].name, to: value)
            }
            try await record.save(to: call.store)
            return try self.object(record)
        }
        return recordResponse(200, saved)
    }

    /// `DELETE` of one record through `destroy()` (delete rules apply), honouring
    /// `If-Match`; 204.
    func delete(_ call: ResourceCall) async throws -> ResourceResponse {
        let ifMatch = call.request.header("If-Match")
        try await call.store.transaction { _ in
            let record = try await self.record(call, locking: ifMatch != nil)
            if let ifMatch {
                let current = ETag.of(try self.object(record))
                guard ETag.matches(ifMatch, current, weakly: false) else {
                    var error = ResourceError(
                        status: 412, code: "precondition_failed",
                        message: "\(self.schema.modelName) \(call.id ?? "") changed since the version If-Match names")
                    error.headers["ETag"] = current
                    throw error
                }
            }
            guard try await record.destroy() else {
                throw ResourceError(status: 409, code: "declined", message: "\(self.schema.modelName) \(call.id ?? "") declined to be deleted")
            }
        }
        return ResourceResponse(status: 204)
    }

    // MARK: Body rules

    /// The largest id a client may choose for an auto-increment model that takes client
    /// ids: 2^53 − 1, the largest integer every JSON reader holds exactly, so the store's
    /// sequence keeps room to grow past any chosen id.
    static var largestClientID: Int64 { (1 << 53) - 1 }

    /// Refuses an id sent in a create unless the resource takes client ids: auto-increment
    /// ids are the server's (``RESTIDAssignment/automatic`` or `.server`), since a chosen
    /// id can exhaust the sequence for every client and probe for records outside a scope.
    /// A resource declared `.client` gets its ids checked: from 1 to ``largestClientID``.
    func checkClientID(_ id: ModelValue) throws(ResourceError) {
        let serverAssigns =
            switch resource.idAssignment {
            case .server: true
            case .automatic: schema.idGeneration == .autoIncrement
            case .client: false
            }
        if serverAssigns {
            throw ResourceError.unprocessable("read_only", "the server assigns \(schema.modelName) ids", field: key(0))
        }
        if case .int(let n) = id, !(1...Self.largestClientID).contains(n) {
            throw ResourceError.unprocessable(
                "invalid_id", "\(key(0)) must be from 1 to \(Self.largestClientID), not \(n)", field: key(0))
        }
    }

    var envelopeKey: String? {
        if case .some(.some(let key)) = resource.envelope { return key }
        return nil
    }

    var reader: BodyReader { BodyReader(codec: codec, ignoresUnknownKeys: options.ignoresUnknownKeys) }

    /// The JSON key of a column, for messages.
    func key(_ column: Int) -> String { codec.key(forColumn: column) ?? schema.columns[column].name }

    /// Refuses values for read-only columns (unless unchanged from `stored`).
    func refuseReadOnly(_ values: [Int: ModelValue], stored: [ModelValue]?) throws(ResourceError) {
        for (column, value) in values where readOnly.contains(column) {
            // Unchanged as the client saw it (its JSON form: dates to the millisecond).
            if let stored, (try? codec.jsonValue(stored[column], forColumn: column)) == (try? codec.jsonValue(value, forColumn: column)) {
                continue
            }
            if stored == nil, value.isNull { continue }
            throw ResourceError.unprocessable("read_only", "\(key(column)) is set by the server", field: key(column))
        }
    }

    /// Applies the call's constraints: a body may repeat them but not contradict them —
    /// a path value (owner key) is a 422, a scope value a 403 — and a create gets them
    /// (a create's `null` for a scoped column takes the scope's value).
    func apply(_ call: ResourceCall, to values: inout [Int: ModelValue], stored: [ModelValue]? = nil) throws(ResourceError) {
        for (column, required) in call.fixed.sorted(by: { $0.key < $1.key }) {
            if let sent = values[column], sent != required {
                throw ResourceError.unprocessable(
                    "conflict", "\(key(column)) is \(ModelJSON.serialize(required)) by the path", field: key(column))
            }
            if stored == nil { values[column] = required }
        }
        for (column, required) in call.scope.sorted(by: { $0.key < $1.key }) {
            // A create's `null` for a scoped column is "not sent" (clients that send every
            // column, RESTAdapter's among them, know no owner yet); the scope fills it.
            if let sent = values[column], sent != required, !(stored == nil && sent.isNull) {
                throw ResourceError(status: 403, code: "forbidden", message: "\(key(column)) may not be set to \(ModelJSON.serialize(sent))")
            }
            if stored == nil { values[column] = required }
        }
    }
}
