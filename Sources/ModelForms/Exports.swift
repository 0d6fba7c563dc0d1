@_exported import ModelCore
@_exported import ModelValidation
