// ModelEngine: the in-memory evaluation of the closed `StoreQuery` value (filtering,
// ordering, windows, aggregates, SQL-semantics text matching) that adapters share. It sits
// on ModelCore only, so an adapter can evaluate queries without the user-facing builder.
@_exported import ModelCore
