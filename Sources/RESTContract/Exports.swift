// What every file of the module uses: rows travel as ModelSerialization's JSON codec.
@_exported import ModelCore
@_exported import ModelSerialization
