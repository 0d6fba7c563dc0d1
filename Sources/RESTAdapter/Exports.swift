// The one-import convenience: `import RESTAdapter` brings the adapter (the SwiftModelREST module,
// which depends only on the modules it uses) and the whole model API.
@_exported import ModelCore
@_exported import ModelForms
@_exported import ModelQuery
@_exported import ModelSerialization
@_exported import ModelValidation
@_exported import SwiftModelREST
