import Foundation
import ModelCore
import ModelQuery

/// Records: CRUD, ids, every column type, hostile values.
enum RecordChecks {
    static func crud(_ c: ConformanceChecker) throws {
        let store = c.store
        let a = ConformanceIntItem(), b = ConformanceIntItem()
        a.label = "a"
        b.label = "b"
        try a.save()
        try b.save()
        c.equal(a.id, 1, "first auto-increment id")
        c.equal(b.id, 2, "second id")
        c.equal(try ConformanceIntItem.find(1)?.label, "a", "find by id")
        c.equal(try ConformanceIntItem.find(99)?.label, nil, "find of a missing id")
        a.label = "a2"
        try a.save()
        c.equal(try ConformanceIntItem.find(1)?.label, "a2", "update persisted")
        c.expect(!a.isDirty && !a.isNew, "saved record is clean and not new")
        c.equal(try ConformanceIntItem.count(), 2, "count")
        try b.delete()
        c.equal(try ConformanceIntItem.count(), 1, "count after delete")
        c.equal(try store.delete(id: .int(2), from: ConformanceIntItem.schema), false, "deleting a missing row reports false")
        let ghost = try store.find(id: .int(1), in: ConformanceIntItem.schema)
        var updated = ghost ?? []
        if !updated.isEmpty { updated[0] = .int(42) }
        let missing = c.expectThrows(StoreError.self, "update of a missing row") {
            try store.update(updated, changedColumns: [1], in: ConformanceIntItem.schema)
        }
        c.equal(missing?.kind, .notFound, "missing-row error kind")
        let wrongWidth = c.expectThrows(StoreError.self, "a row of the wrong width") {
            _ = try store.insert([.null], into: ConformanceIntItem.schema)
        }
        c.equal(wrongWidth?.kind, .invalidRequest, "wrong-width error kind")
        let c3 = ConformanceIntItem()
        c3.label = "c"
        try c3.save()
        c.equal(c3.id, 3, "ids are not reused after a delete")
        try ConformanceIntItem.deleteAll()
        c.equal(try ConformanceIntItem.count(), 0, "deleteAll")
    }

    static func ids(_ c: ConformanceChecker) throws {
        let explicit = ConformanceIntItem()
        explicit.id = 40
        try explicit.save()
        let next = ConformanceIntItem()
        try next.save()
        c.equal(next.id, 41, "ids continue above an explicit id")
        let duplicate = ConformanceIntItem()
        duplicate.id = 40
        let error = c.expectThrows(StoreError.self, "a duplicate id") { try duplicate.save() }
        c.equal(error?.kind, .duplicateID, "duplicate id kind")
        c.expect(duplicate.isNew, "a record whose insert failed stays new")
        c.equal(try ConformanceIntItem.count(), 2, "nothing stored by the failed insert")
        try settingIDs(c)

        let device = ConformanceUUIDItem()
        try device.save()
        let uuid = device.id
        c.expect(uuid != nil, "UUID generated on first save")
        if let uuid { c.equal(try ConformanceUUIDItem.find(uuid)?.id, uuid, "find by UUID") }
        let chosen = UUID()
        let explicitUUID = ConformanceUUIDItem()
        explicitUUID.id = chosen
        try explicitUUID.save()
        c.equal(try ConformanceUUIDItem.find(chosen)?.id, chosen, "explicit UUID kept")

        let country = ConformanceStringItem()
        let missing = c.expectThrows(ModelError.self, "a string id is required") { try country.save() }
        c.equal(missing?.kind, .missingID, "missing string id kind")
        country.id = "fr"
        country.label = "France"
        try country.save()
        let unicode = ConformanceStringItem()
        unicode.id = "ünï 'x' \"y\""
        try unicode.save()
        c.equal(try ConformanceStringItem.find("fr")?.label, "France", "find by string id")
        c.equal(try ConformanceStringItem.find("ünï 'x' \"y\"")?.id, "ünï 'x' \"y\"", "unicode string id")
        c.equal(try ConformanceStringItem.find("FR")?.label, nil, "string ids are case-sensitive")
        // Ids compare by bytes: canonically equivalent spellings are two records.
        for (id, label) in [("caf\u{E9}", "composed"), ("cafe\u{301}", "decomposed")] {
            let item = ConformanceStringItem()
            (item.id, item.label) = (id, label)
            try item.save()
        }
        c.equal(try ConformanceStringItem.find("caf\u{E9}")?.label, "composed", "a precomposed string id")
        c.equal(try ConformanceStringItem.find("cafe\u{301}")?.label, "decomposed", "its decomposed spelling is another id")
    }

    /// `insertSettingID` (how a save hands over a new record's row): the id lands in the
    /// caller's row, and a failed insert leaves the row as it was. Leaves one more row.
    private static func settingIDs(_ c: ConformanceChecker) throws {
        let schema = ConformanceIntItem.schema
        let probe = ConformanceIntItem()
        probe.label = "handed"
        var row = probe.__values
        let stored = try c.store.insertSettingID(&row, into: schema)
        c.expect(!row[0].isNull, "insertSettingID sets the id in the row")
        c.equal(try c.store.find(id: row[0], in: schema)?[1], (stored ?? row)[1], "insertSettingID stores the row")
        let inserted = row
        let duplicate = c.expectThrows(StoreError.self, "insertSettingID of a duplicate id") {
            _ = try c.store.insertSettingID(&row, into: schema)
        }
        c.equal(duplicate?.kind, .duplicateID, "insertSettingID duplicate id kind")
        c.equal(row, inserted, "a failed insertSettingID leaves the row as it was")
        c.equal(try ConformanceIntItem.count(), 3, "nothing stored by the failed insertSettingID")
    }

    /// Awkward values of every type.
    static func samples() -> [ConformanceSample] {
        let values: [(String, Int64, Double, Date)] = [
            ("plain", .max, 0.1, Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)),
            ("Ünïcødé 🐶 — ‹›", .min, -0.0, Date(timeIntervalSince1970: -1e9 + 0.25)),
            ("", 0, .greatestFiniteMagnitude, Date(timeIntervalSinceReferenceDate: 0.000_001)),
            (String(repeating: "long ", count: 2_000), 255, .leastNonzeroMagnitude, Date(timeIntervalSince1970: 1.5e9 + 0.123_456)),
        ]
        return values.enumerated().map { k, value in
            let sample = ConformanceSample()
            sample.name = value.0
            sample.notes = "line 1\nline 2\t\"quoted\" \\ 'single'"
            sample.count = k * 65_536 - 3
            sample.big = value.1
            sample.ratio = value.2
            sample.flag = k % 2 == 0
            sample.seen = value.3
            sample.blob = Data((0..<(k * 300)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            sample.tags = k == 0 ? [] : ["a", "ß", "", String(k)]
            sample.extra = [
                "n": .int(Int64(k)), "nested": .array([.string("x"), .array([.double(2.5), .null]), .dictionary(["deep": .bool(true)])]),
                "none": .null, "empty": .dictionary([:]),
            ]
            sample.maybe = k % 2 == 0 ? nil : "some"
            sample.when = k == 1 ? nil : value.3
            sample.level = k == 2 ? nil : k
            return sample
        }
    }

    static func roundTrip(_ c: ConformanceChecker) throws {
        let samples = samples()
        for sample in samples { try sample.save() }
        let loaded = try ConformanceSample.all()
        c.equal(loaded.count, samples.count, "every sample stored")
        for (original, read) in zip(samples, loaded) {
            let name = "sample \(original.id ?? 0)"
            c.equal(read.name, original.name, "\(name) string")
            c.equal(read.notes, original.notes, "\(name) text")
            c.equal(read.count, original.count, "\(name) int")
            c.equal(read.big, original.big, "\(name) Int64")
            c.equal(read.ratio.bitPattern, original.ratio.bitPattern, "\(name) double, bit for bit")
            c.equal(read.flag, original.flag, "\(name) bool")
            if c.limitations.contains(.jsonValues) || c.limitations.contains(.microsecondDates) {
                c.expect(abs(read.seen.timeIntervalSince(original.seen)) < 1e-6, "\(name) date, to the microsecond")
            } else {
                c.equal(
                    read.seen.timeIntervalSinceReferenceDate.bitPattern, original.seen.timeIntervalSinceReferenceDate.bitPattern,
                    "\(name) date, bit for bit")
            }
            c.equal(read.serial, original.serial, "\(name) uuid")
            c.equal(read.blob, original.blob, "\(name) data")
            c.equal(read.tags, original.tags, "\(name) array")
            c.equal(read.extra, original.extra, "\(name) nested dictionary")
            c.equal(read.maybe, original.maybe, "\(name) optional string")
            if c.limitations.contains(.jsonValues) || c.limitations.contains(.microsecondDates), let a = read.when, let b = original.when {
                c.expect(abs(a.timeIntervalSince(b)) < 1e-6, "\(name) optional date, to the microsecond")
            } else {
                c.equal(read.when, original.when, "\(name) optional date")
            }
            c.equal(read.level, original.level, "\(name) optional int with a default")
        }
        let fresh = ConformanceSample()
        try fresh.save()
        c.equal(try ConformanceSample.find(fresh.id ?? 0)?.level, 7, "declared default stored")
    }

    static let hostileStrings = [
        "'; DROP TABLE conformance_keywords; --", "\" OR 1=1 --", "a'b\"c`d", "nul\u{0}inside", "\u{0}",
        "%_*?[]\\", "SELECT * FROM sqlite_master", String(repeating: "🐶", count: 10_000), "  padded  ", "\r\n\t",
    ]

    static func hostileValues(_ c: ConformanceChecker) throws {
        // Stores whose text cannot hold NUL (PostgreSQL) refuse such strings with a typed
        // error and store nothing; every other string must round-trip exactly.
        let refusesNUL = c.limitations.contains(.textWithoutNUL)
        var stored: [(order: Int, text: String)] = []
        for (k, text) in hostileStrings.enumerated() {
            let record = ConformanceKeywords()
            record.select = text
            record.order = k
            record.group = k % 2 == 0 ? text : nil
            record.where = Double(k) / 3
            if refusesNUL, text.utf8.contains(0) {
                do {
                    try record.save()
                    c.expect(false, "a string holding NUL is refused (.textWithoutNUL)")
                } catch {
                    c.expect(record.isNew, "a record refused for NUL stays new (\(error))")
                }
                continue
            }
            try record.save()
            stored.append((k, text))
        }
        let all = try ConformanceKeywords.query().order(by: "order").all()
        c.equal(all.map(\.select), stored.map(\.text), "hostile strings stored exactly")
        for (k, text) in stored {
            // A query by a 40 KB value may be beyond what an HTTP adapter can send.
            try c.expressible("equality on hostile string \(k)") {
                c.equal(try ConformanceKeywords.where(\.select == text).count(), 1, "equality finds hostile string \(k)")
                c.equal(try ConformanceKeywords.where("group").eq(.string(text)).count(), k % 2 == 0 ? 1 : 0, "keyword column `group` \(k)")
            }
        }
        c.equal(try ConformanceKeywords.where("select").contains("'").count(), 2, "contains a quote")
        c.equal(try ConformanceKeywords.where("select").contains("%_").count(), 1, "wildcards are literal")
        if refusesNUL {
            do {
                _ = try ConformanceKeywords.where("select").contains("\u{0}").count()
                c.expect(false, "a query for NUL is refused with an error (.textWithoutNUL)")
            } catch {
                c.expect(true, "a query for NUL is refused")
            }
        } else {
            c.equal(try ConformanceKeywords.where("select").contains("\u{0}").count(), 2, "contains NUL")
        }
        c.equal(try ConformanceKeywords.where(\.order > 7).order(by: "where", .descending).pluck(\.order), [9, 8], "keyword columns sort")
        c.equal(try ConformanceKeywords.where(\.order >= 0).updateAll(["where": 1.5]), stored.count, "updateAll on keyword column")
        c.equal(
            try ConformanceKeywords.query().sum("order"), .int(Int64(stored.map(\.order).reduce(0, +))), "aggregate on keyword column")
        c.equal(
            try ConformanceKeywords.where(\.order == 2).updateAll(["type": "t", "description": "d"]), 1,
            "columns named type and description")
        c.equal(try ConformanceKeywords.where("type").eq("t").first()?.summary, "d", "reading columns named type and description")
    }
}
