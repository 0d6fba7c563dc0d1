#ifndef SWIFTMODEL_POWERCUT_VFS_H
#define SWIFTMODEL_POWERCUT_VFS_H

/*
 * A SQLite VFS for power-loss tests (test-only).
 *
 * It wraps the default VFS. Every write reaches the real file at once, as in a page
 * cache, but the VFS remembers what each write replaced until the file is synced. When
 * the armed number of writes, truncations and syncs has passed, the power is "cut":
 * every write not yet synced is kept, undone, or torn (each 512-byte sector kept, undone
 * or filled with garbage), at random, and every later call fails with SQLITE_IOERR, as
 * if the process had died with the machine. This is the technique of SQLite's own crash
 * tests (src/test6.c). Directory entries (creating and deleting files) are durable at
 * once; only file contents are at risk.
 */

#include <stdint.h>

typedef struct PowerCutVFS PowerCutVFS;

/* What the last cut did to the writes that were not yet synced. */
typedef struct PowerCutStatistics {
    int64_t operations;      /* writes, truncations and syncs counted since the last reset */
    int64_t kept;            /* unsynced writes that reached the disk whole */
    int64_t undone;          /* unsynced writes lost */
    int64_t torn;            /* unsynced writes torn sector by sector */
    int cut;                 /* whether the power was cut */
} PowerCutStatistics;

/* Registers a VFS named `name` (not the default) over SQLite's default VFS, with a
   random generator seeded by `seed`. NULL when SQLite refuses or memory runs out. */
PowerCutVFS *powercut_vfs_register(const char *name, uint64_t seed);

/* Cuts the power after `operations` more writes, truncations or syncs (the one that
   reaches zero fails); a negative value disarms. */
void powercut_vfs_arm(PowerCutVFS *vfs, int64_t operations);

/* Restores power: forgets pending writes (what is on disk now counts as synced),
   disarms, and clears the statistics. Call after every connection of the last run closed. */
void powercut_vfs_reset(PowerCutVFS *vfs);

/* The statistics since the last reset. */
PowerCutStatistics powercut_vfs_statistics(PowerCutVFS *vfs);

/* Unregisters and frees the VFS; no connection may still use it. */
void powercut_vfs_unregister(PowerCutVFS *vfs);

#endif
