// The one-import convenience: `import PostgresAdapter` brings the adapter (the SwiftModelPostgres module,
// which depends only on the modules it uses) and the whole model API.
@_exported import ModelCore
@_exported import ModelForms
@_exported import ModelQuery
@_exported import ModelSQL
@_exported import ModelSerialization
@_exported import ModelValidation
@_exported import SwiftModelPostgres
