@_exported import ModelCore
@_exported import ModelQuery
