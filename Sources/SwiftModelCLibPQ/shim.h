#ifndef SWIFTMODEL_CLIBPQ_SHIM_H
#define SWIFTMODEL_CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* The async I/O thread waits with epoll on Linux (not in Glibc's Swift module). */
#if defined(__linux__)
#include <sys/epoll.h>
#endif

/* PG_DIAG_* are character macros from postgres_ext.h; named here for Swift. */
static const int swiftmodel_pg_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int swiftmodel_pg_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int swiftmodel_pg_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
static const int swiftmodel_pg_diag_message_hint = PG_DIAG_MESSAGE_HINT;
static const int swiftmodel_pg_diag_table_name = PG_DIAG_TABLE_NAME;
static const int swiftmodel_pg_diag_column_name = PG_DIAG_COLUMN_NAME;
static const int swiftmodel_pg_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;

/* Notices (for example "relation already exists, skipping") are not errors: dropped. */
static void swiftmodel_pg_ignore_notice(void *arg, const PGresult *result) { (void)arg; (void)result; }
static inline void swiftmodel_pg_silence_notices(PGconn *conn) {
    PQsetNoticeReceiver(conn, swiftmodel_pg_ignore_notice, 0);
}

#endif
