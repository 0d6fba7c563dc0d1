// What every file of the module uses (re-exported to the adapter product, which adds the
// rest of the model API).
@_exported import ModelCore
@_exported import ModelSQL
