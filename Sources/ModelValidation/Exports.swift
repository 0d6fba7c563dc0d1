@_exported import ModelCore
