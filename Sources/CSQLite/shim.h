#ifndef SWIFTMODEL_CSQLITE_SHIM_H
#define SWIFTMODEL_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
