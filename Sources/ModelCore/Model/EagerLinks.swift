/// Linking the records of an eager load (`Query.including(_:)`) to each other: the
/// distinct keys to read, each child's share for its owner, each child's parent.
///
/// Here rather than in ModelQuery beside the relation types: record fields are read
/// without exclusivity checks only in this module, and these loops read one or two fields
/// of every record loaded. They are generic over the record types so an array of models
/// is passed as it is (no element-by-element cast to `[ModelObject]`).
extension ModelObject {
    /// The ids of the saved records among `records`, in order.
    package static func _savedIDs<M: ModelObject>(of records: [M]) -> [ModelValue] {
        _withObjects(records) { records in
            var ids: [ModelValue] = []
            ids.reserveCapacity(records.count)
            for record in records where record.__isPersisted { ids.append(record.__baselineID) }
            return ids
        }
    }

    /// The distinct non-null values at `slot` of `records`, in first-seen order.
    package static func _distinctKeys<M: ModelObject>(of records: [M], slot: Int) -> [ModelValue] {
        _withObjects(records) { records in
            var seen = KeyPositions(minimumCapacity: records.count)
            var keys: [ModelValue] = []
            for record in records {
                let key = record.__values[slot]
                if !key.isNull, seen.insert(key, at: keys.count) { keys.append(key) }
            }
            return keys
        }
    }

    /// Gives each saved owner its share of `children` as the loaded children of the
    /// relation at `location` (children whose key at `foreignKey` holds its id, in their
    /// order), and links each child back to its owner. Children whose key names no owner
    /// are left out. (Owners listed twice share one group.)
    package static func _distribute<Child: ModelObject, Owner: ModelObject>(
        _ children: [Child], to owners: [Owner], foreignKey: Int, location: Int
    ) {
        _withObjects(children) { children in
            _withObjects(owners) { owners in distribute(children, to: owners, foreignKey: foreignKey, location: location) }
        }
    }

    private static func distribute(
        _ children: UnsafeBufferPointer<ModelObject>, to owners: UnsafeBufferPointer<ModelObject>, foreignKey: Int, location: Int
    ) {
        var position = KeyPositions(minimumCapacity: owners.count)
        for index in owners.indices where owners[index].__isPersisted {
            position.insert(owners[index].__baselineID, at: index)
        }
        // Each child's owner, found once; the counts size each group before it is filled.
        var ownerOf = [Int](repeating: -1, count: children.count)
        var counts = [Int](repeating: 0, count: owners.count)
        for k in children.indices {
            guard let index = position[children[k].__values[foreignKey]] else { continue }
            ownerOf[k] = index
            counts[index] += 1
        }
        var groups = [[ModelObject]](repeating: [], count: owners.count)
        // Whether an owner's current id is the key its children were grouped by (its
        // stored id, unless changed in memory since) and not null: the children's keys then
        // need no reading or rewriting.
        var idIsKey = [Bool](repeating: false, count: owners.count)
        for index in owners.indices where counts[index] > 0 {
            groups[index].reserveCapacity(counts[index])
            let key = owners[index].__baselineID
            idIsKey[index] = !key.isNull && ModelValue.row(owners[index].__values, at: 0, equals: key)
        }
        for k in children.indices where ownerOf[k] >= 0 {
            let index = ownerOf[k]
            groups[index].append(children[k])
            if idIsKey[index] {
                children[k]._linkInverse(toOwnerWhoseIDIsTheKey: owners[index], slot: foreignKey)
            } else {
                children[k]._linkInverse(owners[index], slot: foreignKey)
            }
        }
        for owner in owners where owner.__isPersisted {
            owner.extras.related.children[location] = position[owner.__baselineID].map { groups[$0] } ?? []
        }
    }

    /// Links each of `children` to its parent among `parents` by the foreign key at
    /// `foreignKey` (remembering "no such parent" for a key no parent has).
    package static func _linkParents<Parent: ModelObject, Child: ModelObject>(
        _ parents: [Parent], toChildren children: [Child], foreignKey: Int
    ) {
        _withObjects(parents) { parents in
            _withObjects(children) { children in
                var position = KeyPositions(minimumCapacity: parents.count)
                for index in parents.indices { position.insert(parents[index].__values[0], at: index) }
                for child in children {
                    let key = child.__values[foreignKey]
                    guard !key.isNull else { continue }
                    child._rememberLoadedParent(position[key].map { parents[$0] }, key: key, slot: foreignKey)
                }
            }
        }
    }
}

/// Positions of key values (ids, foreign keys) while linking loaded records. Integer keys,
/// the usual case, are hashed as `Int64`, which costs a fraction of hashing a
/// ``ModelValue``; any other value is kept as a ``ModelValue``. Two keys are the same
/// exactly when they are equal ``ModelValue``s (an `.int` never equals a value of another
/// case), so the split changes no answer.
package struct KeyPositions {
    private var integers: [Int64: Int]
    private var others: [ModelValue: Int] = [:]

    package init(minimumCapacity: Int) {
        integers = Dictionary(minimumCapacity: minimumCapacity)
    }

    /// The position `key` was inserted at.
    package subscript(key: ModelValue) -> Int? {
        if case .int(let value) = key { return integers[value] }
        return others.isEmpty ? nil : others[key]
    }

    /// Inserts `key` at `position` unless it is already there; whether it was inserted
    /// (the first position is kept).
    @discardableResult
    package mutating func insert(_ key: ModelValue, at position: Int) -> Bool {
        if case .int(let value) = key {
            guard integers[value] == nil else { return false }
            integers[value] = position
        } else {
            guard others[key] == nil else { return false }
            others[key] = position
        }
        return true
    }
}
