#ifndef SWIFTMODEL_BENCH_CSQLITERAW_H
#define SWIFTMODEL_BENCH_CSQLITERAW_H
#include <sqlite3.h>

static inline int bench_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
#endif
