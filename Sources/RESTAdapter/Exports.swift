import ModelCore
