// The one-import convenience: `import ArrayAdapter` brings the adapter (the SwiftModelArray module,
// which depends only on the modules it uses) and the whole model API.
@_exported import ModelCore
@_exported import ModelForms
@_exported import ModelQuery
@_exported import ModelSerialization
@_exported import ModelValidation
@_exported import SwiftModelArray
