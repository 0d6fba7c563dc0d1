@_exported import ModelCore
@_exported import ModelQuery
@_exported import ModelSerialization
@_exported import ModelValidation
@_exported import RESTContract
