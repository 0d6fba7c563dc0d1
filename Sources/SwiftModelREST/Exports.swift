// What every file of the module uses (re-exported to the adapter product, which adds the
// rest of the model API): JSON rows are ModelSerialization's codec.
@_exported import ModelCore
@_exported import ModelSerialization
@_exported import RESTContract
