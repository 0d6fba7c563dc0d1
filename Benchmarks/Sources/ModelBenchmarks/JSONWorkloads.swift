import ArrayAdapter
import Foundation

/// Model serialization against `JSONEncoder`/`JSONDecoder` of equivalent structs. Both
/// sides write dates as ISO 8601 text and decode their own output.
let jsonWorkloads: [Workload] = [
    Workload(
        name: "encode",
        model: { n in
            let (_, people) = try seededStore(n)
            return try time { blackHole(try people.jsonData()) }
        },
        baseline: { n in
            let rows = codablePeople(n)
            return try time { blackHole(try isoEncoder().encode(rows)) }
        }),
    Workload(
        name: "decode",
        model: { n in
            let (_, people) = try seededStore(n)
            let data = try people.jsonData()
            return try time { blackHole(try Person.records(fromJSON: data)) }
        },
        baseline: { n in
            let data = try isoEncoder().encode(codablePeople(n))
            return try time { blackHole(try isoDecoder().decode([PersonRow].self, from: data)) }
        }),
    Workload(
        name: "Codable encode",
        model: { n in
            let (_, people) = try seededStore(n)
            return try time { blackHole(try JSONEncoder().encode(people)) }
        },
        baseline: { n in
            let rows = codablePeople(n)
            return try time { blackHole(try isoEncoder().encode(rows)) }
        }),
    Workload(
        name: "Codable decode",
        model: { n in
            let (_, people) = try seededStore(n)
            let data = try JSONEncoder().encode(people)
            return try time { blackHole(try JSONDecoder().decode([Person].self, from: data)) }
        },
        baseline: { n in
            let data = try isoEncoder().encode(codablePeople(n))
            return try time { blackHole(try isoDecoder().decode([PersonRow].self, from: data)) }
        }),
]

private func isoEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
}

private func isoDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}
