/* A SQLite VFS that simulates power loss for tests; see include/PowerCutVFS.h. */
#include "PowerCutVFS.h"

#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SECTOR 512

/* One write (or truncation) not yet synced: what it replaced. */
typedef struct Pending {
    char *path;
    int64_t offset;      /* where it wrote (truncation: the new size) */
    int64_t length;      /* how many bytes it wrote (truncation: 0) */
    unsigned char *old;  /* the bytes it replaced (truncation: the bytes cut off) */
    int64_t oldLength;   /* how many of those existed before */
    int64_t sizeBefore;  /* the file's size before it */
    int truncation;
    struct Pending *next;  /* the previous one (newest first) */
} Pending;

struct PowerCutVFS {
    sqlite3_vfs base; /* registered; pAppData points back here */
    sqlite3_vfs *real;
    char *name;
    pthread_mutex_t mutex;
    uint64_t random;
    int64_t remaining; /* operations until the cut; negative: disarmed */
    int cut;
    Pending *pending; /* newest first */
    PowerCutStatistics statistics;
};

typedef struct PowerCutFile {
    sqlite3_file base;
    PowerCutVFS *vfs;
    char *path; /* NULL for temporary files, which are not tracked */
    sqlite3_file *real;
} PowerCutFile;

static uint64_t next_random(PowerCutVFS *vfs) {
    /* xorshift64* */
    uint64_t x = vfs->random;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    vfs->random = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static void free_pending(Pending *p) {
    free(p->path);
    free(p->old);
    free(p);
}

/* Forgets the pending writes of `path` (NULL: of every file): they are durable now. */
static void settle(PowerCutVFS *vfs, const char *path) {
    Pending **link = &vfs->pending;
    while (*link) {
        Pending *p = *link;
        if (path == NULL || strcmp(p->path, path) == 0) {
            *link = p->next;
            free_pending(p);
        } else {
            link = &p->next;
        }
    }
}

static void write_all(int fd, const unsigned char *bytes, int64_t length, int64_t offset) {
    while (length > 0) {
        ssize_t n = pwrite(fd, bytes, (size_t)length, (off_t)offset);
        if (n <= 0) return;
        bytes += n;
        length -= n;
        offset += n;
    }
}

/* Puts back `count` bytes at `at` of a pending write: the old bytes where they existed. */
static void undo_range(int fd, Pending *p, int64_t at, int64_t count) {
    int64_t from = at - p->offset;
    if (from < p->oldLength) {
        int64_t n = count < p->oldLength - from ? count : p->oldLength - from;
        write_all(fd, p->old + from, n, at);
    }
}

/* The cut: each pending write, newest first, is kept, undone or torn. Files end at
   their synced size or at the end of the last surviving write, whichever is larger. */
static void cut_power(PowerCutVFS *vfs) {
    vfs->cut = 1;
    /* Per path: the smallest size before any pending change, and the largest end kept. */
    for (Pending *p = vfs->pending; p; p = p->next) {
        int fd = open(p->path, O_RDWR);
        if (fd < 0) continue; /* deleted since: nothing to damage */
        if (p->truncation) {
            if (next_random(vfs) % 2 == 0) {
                vfs->statistics.undone++;
                write_all(fd, p->old, p->oldLength, p->offset);
            } else {
                vfs->statistics.kept++;
            }
            close(fd);
            continue;
        }
        uint64_t choice = next_random(vfs) % 10;
        if (choice < 4) {
            vfs->statistics.kept++;
        } else if (choice < 7) {
            vfs->statistics.undone++;
            undo_range(fd, p, p->offset, p->length);
        } else {
            vfs->statistics.torn++;
            for (int64_t at = p->offset; at < p->offset + p->length;) {
                int64_t end = (at / SECTOR + 1) * SECTOR;
                if (end > p->offset + p->length) end = p->offset + p->length;
                uint64_t sector = next_random(vfs) % 3;
                if (sector == 1) {
                    undo_range(fd, p, at, end - at);
                } else if (sector == 2) {
                    unsigned char garbage[SECTOR];
                    for (int64_t k = 0; k < end - at; k++) garbage[k] = (unsigned char)next_random(vfs);
                    write_all(fd, garbage, end - at, at);
                }
                at = end;
            }
        }
        close(fd);
    }
    /* Sizes: a file grown by writes that were all undone shrinks back. */
    for (Pending *p = vfs->pending; p; p = p->next) {
        int already = 0;
        for (Pending *q = vfs->pending; q != p; q = q->next) {
            if (strcmp(q->path, p->path) == 0) already = 1;
        }
        if (already) continue;
        int64_t synced = -1;
        for (Pending *q = p; q; q = q->next) {
            if (strcmp(q->path, p->path) == 0) synced = q->sizeBefore; /* the oldest wins */
        }
        struct stat info;
        if (synced >= 0 && stat(p->path, &info) == 0 && info.st_size > synced && next_random(vfs) % 2 == 0) {
            if (truncate(p->path, (off_t)synced) != 0) { /* keep the longer file */ }
        }
    }
    settle(vfs, NULL);
}

/* Counts one operation; returns nonzero when the power is (now) off. Mutex held. */
static int tick(PowerCutVFS *vfs) {
    if (vfs->cut) return 1;
    vfs->statistics.operations++;
    if (vfs->remaining < 0) return 0;
    if (vfs->remaining-- > 0) return 0;
    cut_power(vfs);
    vfs->statistics.cut = 1;
    return 1;
}

/* MARK: - File methods */

static int pcClose(sqlite3_file *file) {
    PowerCutFile *f = (PowerCutFile *)file;
    int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    free(f->path);
    f->path = NULL;
    return rc;
}

static int pcRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    PowerCutFile *f = (PowerCutFile *)file;
    pthread_mutex_lock(&f->vfs->mutex);
    int off = f->vfs->cut;
    pthread_mutex_unlock(&f->vfs->mutex);
    if (off) return SQLITE_IOERR_READ;
    return f->real->pMethods->xRead(f->real, buffer, amount, offset);
}

static int pcWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    PowerCutFile *f = (PowerCutFile *)file;
    PowerCutVFS *vfs = f->vfs;
    pthread_mutex_lock(&vfs->mutex);
    if (tick(vfs)) {
        pthread_mutex_unlock(&vfs->mutex);
        return SQLITE_IOERR_WRITE;
    }
    if (f->path) {
        Pending *p = calloc(1, sizeof(Pending));
        sqlite3_int64 size = 0;
        if (p == NULL || f->real->pMethods->xFileSize(f->real, &size) != SQLITE_OK) {
            free(p);
            pthread_mutex_unlock(&vfs->mutex);
            return SQLITE_IOERR_NOMEM;
        }
        p->path = strdup(f->path);
        p->offset = offset;
        p->length = amount;
        p->sizeBefore = size;
        p->oldLength = size > offset ? (size - offset < amount ? size - offset : amount) : 0;
        p->old = malloc(p->oldLength > 0 ? (size_t)p->oldLength : 1);
        if (p->path == NULL || p->old == NULL) {
            free_pending(p);
            pthread_mutex_unlock(&vfs->mutex);
            return SQLITE_IOERR_NOMEM;
        }
        if (p->oldLength > 0) f->real->pMethods->xRead(f->real, p->old, (int)p->oldLength, offset);
        p->next = vfs->pending;
        vfs->pending = p;
    }
    int rc = f->real->pMethods->xWrite(f->real, buffer, amount, offset);
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int pcTruncate(sqlite3_file *file, sqlite3_int64 size) {
    PowerCutFile *f = (PowerCutFile *)file;
    PowerCutVFS *vfs = f->vfs;
    pthread_mutex_lock(&vfs->mutex);
    if (tick(vfs)) {
        pthread_mutex_unlock(&vfs->mutex);
        return SQLITE_IOERR_TRUNCATE;
    }
    sqlite3_int64 before = 0;
    if (f->path && f->real->pMethods->xFileSize(f->real, &before) == SQLITE_OK && before > size) {
        Pending *p = calloc(1, sizeof(Pending));
        if (p) {
            p->path = strdup(f->path);
            p->truncation = 1;
            p->offset = size;
            p->sizeBefore = before;
            p->oldLength = before - size;
            p->old = malloc((size_t)p->oldLength);
            if (p->path == NULL || p->old == NULL) {
                free_pending(p);
                pthread_mutex_unlock(&vfs->mutex);
                return SQLITE_IOERR_NOMEM;
            }
            f->real->pMethods->xRead(f->real, p->old, (int)p->oldLength, size);
            p->next = vfs->pending;
            vfs->pending = p;
        }
    }
    int rc = f->real->pMethods->xTruncate(f->real, size);
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int pcSync(sqlite3_file *file, int flags) {
    PowerCutFile *f = (PowerCutFile *)file;
    PowerCutVFS *vfs = f->vfs;
    pthread_mutex_lock(&vfs->mutex);
    if (tick(vfs)) {
        pthread_mutex_unlock(&vfs->mutex);
        return SQLITE_IOERR_FSYNC;
    }
    if (f->path) settle(vfs, f->path);
    pthread_mutex_unlock(&vfs->mutex);
    (void)flags;
    return SQLITE_OK; /* the real disk's sync is not the subject of these tests */
}

static int pcFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xFileSize(f->real, size);
}

static int pcLock(sqlite3_file *file, int lock) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xLock(f->real, lock);
}

static int pcUnlock(sqlite3_file *file, int lock) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xUnlock(f->real, lock);
}

static int pcCheckReservedLock(sqlite3_file *file, int *out) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int pcFileControl(sqlite3_file *file, int op, void *arg) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int pcSectorSize(sqlite3_file *file) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int pcDeviceCharacteristics(sqlite3_file *file) {
    PowerCutFile *f = (PowerCutFile *)file;
    /* No atomic-write or safe-append promises: every unsynced write may tear. */
    return f->real->pMethods->xDeviceCharacteristics(f->real) & SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static int pcShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xShmMap(f->real, page, size, extend, out);
}

static int pcShmLock(sqlite3_file *file, int offset, int n, int flags) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void pcShmBarrier(sqlite3_file *file) {
    PowerCutFile *f = (PowerCutFile *)file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int pcShmUnmap(sqlite3_file *file, int deleteFlag) {
    PowerCutFile *f = (PowerCutFile *)file;
    return f->real->pMethods->xShmUnmap(f->real, deleteFlag);
}

static const sqlite3_io_methods pcMethods = {
    2, pcClose, pcRead, pcWrite, pcTruncate, pcSync, pcFileSize, pcLock, pcUnlock, pcCheckReservedLock,
    pcFileControl, pcSectorSize, pcDeviceCharacteristics, pcShmMap, pcShmLock, pcShmBarrier, pcShmUnmap,
    NULL, NULL,
};

/* MARK: - VFS methods */

static int pcOpen(sqlite3_vfs *base, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    PowerCutFile *f = (PowerCutFile *)file;
    memset(f, 0, sizeof(PowerCutFile));
    pthread_mutex_lock(&vfs->mutex);
    int off = vfs->cut;
    pthread_mutex_unlock(&vfs->mutex);
    if (off) return SQLITE_CANTOPEN;
    f->vfs = vfs;
    f->real = (sqlite3_file *)(f + 1);
    int rc = vfs->real->xOpen(vfs->real, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK) return rc;
    if (name) f->path = strdup(name);
    f->base.pMethods = &pcMethods;
    return SQLITE_OK;
}

static int pcDelete(sqlite3_vfs *base, const char *name, int syncDirectory) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    pthread_mutex_lock(&vfs->mutex);
    if (vfs->cut) {
        pthread_mutex_unlock(&vfs->mutex);
        return SQLITE_IOERR_DELETE;
    }
    settle(vfs, name);
    pthread_mutex_unlock(&vfs->mutex);
    return vfs->real->xDelete(vfs->real, name, syncDirectory);
}

static int pcAccess(sqlite3_vfs *base, const char *name, int flags, int *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xAccess(vfs->real, name, flags, out);
}

static int pcFullPathname(sqlite3_vfs *base, const char *name, int size, char *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xFullPathname(vfs->real, name, size, out);
}

static void *pcDlOpen(sqlite3_vfs *base, const char *name) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xDlOpen(vfs->real, name);
}

static void pcDlError(sqlite3_vfs *base, int size, char *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    vfs->real->xDlError(vfs->real, size, out);
}

static void (*pcDlSym(sqlite3_vfs *base, void *handle, const char *symbol))(void) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xDlSym(vfs->real, handle, symbol);
}

static void pcDlClose(sqlite3_vfs *base, void *handle) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    vfs->real->xDlClose(vfs->real, handle);
}

static int pcRandomness(sqlite3_vfs *base, int size, char *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xRandomness(vfs->real, size, out);
}

static int pcSleep(sqlite3_vfs *base, int microseconds) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xSleep(vfs->real, microseconds);
}

static int pcCurrentTime(sqlite3_vfs *base, double *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xCurrentTime(vfs->real, out);
}

static int pcGetLastError(sqlite3_vfs *base, int size, char *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xGetLastError(vfs->real, size, out);
}

static int pcCurrentTimeInt64(sqlite3_vfs *base, sqlite3_int64 *out) {
    PowerCutVFS *vfs = (PowerCutVFS *)base->pAppData;
    return vfs->real->xCurrentTimeInt64(vfs->real, out);
}

/* MARK: - Public functions */

PowerCutVFS *powercut_vfs_register(const char *name, uint64_t seed) {
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL || real->iVersion < 2) return NULL;
    PowerCutVFS *vfs = calloc(1, sizeof(PowerCutVFS));
    if (vfs == NULL) return NULL;
    vfs->name = strdup(name);
    if (vfs->name == NULL) {
        free(vfs);
        return NULL;
    }
    pthread_mutex_init(&vfs->mutex, NULL);
    vfs->real = real;
    vfs->random = seed ? seed : 0x9E3779B97F4A7C15ULL;
    vfs->remaining = -1;
    sqlite3_vfs *b = &vfs->base;
    b->iVersion = 2;
    b->szOsFile = (int)sizeof(PowerCutFile) + real->szOsFile;
    b->mxPathname = real->mxPathname;
    b->zName = vfs->name;
    b->pAppData = vfs;
    b->xOpen = pcOpen;
    b->xDelete = pcDelete;
    b->xAccess = pcAccess;
    b->xFullPathname = pcFullPathname;
    b->xDlOpen = pcDlOpen;
    b->xDlError = pcDlError;
    b->xDlSym = pcDlSym;
    b->xDlClose = pcDlClose;
    b->xRandomness = pcRandomness;
    b->xSleep = pcSleep;
    b->xCurrentTime = pcCurrentTime;
    b->xGetLastError = pcGetLastError;
    b->xCurrentTimeInt64 = pcCurrentTimeInt64;
    if (sqlite3_vfs_register(b, 0) != SQLITE_OK) {
        pthread_mutex_destroy(&vfs->mutex);
        free(vfs->name);
        free(vfs);
        return NULL;
    }
    return vfs;
}

void powercut_vfs_arm(PowerCutVFS *vfs, int64_t operations) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->remaining = operations;
    pthread_mutex_unlock(&vfs->mutex);
}

void powercut_vfs_reset(PowerCutVFS *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    settle(vfs, NULL);
    vfs->cut = 0;
    vfs->remaining = -1;
    memset(&vfs->statistics, 0, sizeof(vfs->statistics));
    pthread_mutex_unlock(&vfs->mutex);
}

PowerCutStatistics powercut_vfs_statistics(PowerCutVFS *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    PowerCutStatistics statistics = vfs->statistics;
    pthread_mutex_unlock(&vfs->mutex);
    return statistics;
}

void powercut_vfs_unregister(PowerCutVFS *vfs) {
    sqlite3_vfs_unregister(&vfs->base);
    pthread_mutex_lock(&vfs->mutex);
    settle(vfs, NULL);
    pthread_mutex_unlock(&vfs->mutex);
    pthread_mutex_destroy(&vfs->mutex);
    free(vfs->name);
    free(vfs);
}
