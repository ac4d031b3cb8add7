/*
 * slow_fs: auditbench's slow log filesystem. A FUSE passthrough of one folder that sleeps a fixed number of
 * microseconds before each write, so an audit plugin's log can be put on a filesystem whose writes are as slow as
 * a synchronous or network one's. A local disk does not delay a buffered write(): this models NFS with `sync`,
 * a replicated block device, or a log folder on a SAN whose round trip each write() waits for.
 *
 * SPDX-License-Identifier: MIT
 * Copyright (C) 2026 the auditbench authors. Written for auditbench; it links Debian's libfuse3 (libfuse3-dev).
 *
 * Usage: slow_fs <backing folder> <delay µs> <mount point> [libfuse options, e.g. -f -o allow_other]
 * Every request is served from the backing folder as root, as the caller's uid/gid for files and folders it creates.
 * Each WRITE request (one per write() without the writeback cache) waits <delay µs> first, in its own thread: two
 * writers wait side by side, as they would for two round trips.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int backing = -1; /* the backing folder, opened once: every path is resolved relative to it */
static long delay_us;

/* "/a/b" -> "a/b", "/" -> "." : paths relative to the backing folder's descriptor. */
static const char *rel(const char *path) {
  while (*path == '/') path++;
  return *path ? path : ".";
}

static int fail(int result) { return result == -1 ? -errno : result; }

/* New files and folders belong to whoever asked (the server's OS user), not to this root daemon. */
static void own(const char *path) {
  struct fuse_context *who = fuse_get_context();
  (void)fchownat(backing, rel(path), who->uid, who->gid, AT_SYMLINK_NOFOLLOW);
}

static void *sf_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  (void)conn;
  /* No attribute or entry caching: the size an O_APPEND write starts from is always the backing file's. */
  cfg->attr_timeout = 0;
  cfg->entry_timeout = 0;
  cfg->negative_timeout = 0;
  cfg->use_ino = 1;
  return NULL;
}

static int sf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  if (fi) return fail(fstat((int)fi->fh, st));
  return fail(fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int sf_access(const char *path, int mask) { return fail(faccessat(backing, rel(path), mask, 0)); }

static int sf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
  (void)off, (void)fi, (void)flags;
  int fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY);
  if (fd == -1) return -errno;
  DIR *dir = fdopendir(fd);
  if (!dir) {
    int err = errno;
    close(fd);
    return -err;
  }
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    struct stat st = {.st_ino = entry->d_ino, .st_mode = (mode_t)(DTTOIF(entry->d_type))};
    if (fill(buf, entry->d_name, &st, 0, 0)) break;
  }
  closedir(dir);
  return 0;
}

static int sf_mkdir(const char *path, mode_t mode) {
  if (mkdirat(backing, rel(path), mode) == -1) return -errno;
  own(path);
  return 0;
}

static int sf_unlink(const char *path) { return fail(unlinkat(backing, rel(path), 0)); }
static int sf_rmdir(const char *path) { return fail(unlinkat(backing, rel(path), AT_REMOVEDIR)); }

static int sf_rename(const char *from, const char *to, unsigned int flags) {
  if (flags) return -EINVAL;
  return fail(renameat(backing, rel(from), backing, rel(to)));
}

static int sf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
  if (fi) return fail(fchmod((int)fi->fh, mode));
  return fail(fchmodat(backing, rel(path), mode, 0));
}

static int sf_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
  if (fi) return fail(fchown((int)fi->fh, uid, gid));
  return fail(fchownat(backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int sf_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
  if (fi) return fail(ftruncate((int)fi->fh, size));
  int fd = openat(backing, rel(path), O_WRONLY);
  if (fd == -1) return -errno;
  int result = fail(ftruncate(fd, size));
  close(fd);
  return result;
}

static int sf_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
  if (fi) return fail(futimens((int)fi->fh, tv));
  return fail(utimensat(backing, rel(path), tv, AT_SYMLINK_NOFOLLOW));
}

static int sf_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  int fd = openat(backing, rel(path), fi->flags, mode);
  if (fd == -1) return -errno;
  own(path);
  fi->fh = (uint64_t)fd;
  return 0;
}

static int sf_open(const char *path, struct fuse_file_info *fi) {
  int fd = openat(backing, rel(path), fi->flags);
  if (fd == -1) return -errno;
  fi->fh = (uint64_t)fd;
  return 0;
}

static int sf_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)path;
  return fail((int)pread((int)fi->fh, buf, size, off));
}

/* The point of the filesystem: each write waits delay_us, then goes to the backing file. */
static int sf_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)path;
  if (delay_us > 0) {
    struct timespec wait = {.tv_sec = delay_us / 1000000L, .tv_nsec = (delay_us % 1000000L) * 1000L};
    while (nanosleep(&wait, &wait) == -1 && errno == EINTR) {
    }
  }
  /* A file opened O_APPEND appends whatever the offset (pwrite(2), BUGS): the backing file's end, as on a disk. */
  return fail((int)pwrite((int)fi->fh, buf, size, off));
}

static int sf_statfs(const char *path, struct statvfs *st) {
  (void)path;
  return fail(fstatvfs(backing, st));
}

static int sf_flush(const char *path, struct fuse_file_info *fi) {
  (void)path;
  /* close() of a dup reports a delayed write error without closing the file the kernel still refers to. */
  return fail(close(dup((int)fi->fh)));
}

static int sf_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  close((int)fi->fh);
  return 0;
}

static int sf_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)path;
  return fail(datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh));
}

static const struct fuse_operations ops = {
    .init = sf_init,
    .getattr = sf_getattr,
    .access = sf_access,
    .readdir = sf_readdir,
    .mkdir = sf_mkdir,
    .unlink = sf_unlink,
    .rmdir = sf_rmdir,
    .rename = sf_rename,
    .chmod = sf_chmod,
    .chown = sf_chown,
    .truncate = sf_truncate,
    .utimens = sf_utimens,
    .create = sf_create,
    .open = sf_open,
    .read = sf_read,
    .write = sf_write,
    .statfs = sf_statfs,
    .flush = sf_flush,
    .release = sf_release,
    .fsync = sf_fsync,
};

int main(int argc, char *argv[]) {
  if (argc < 4) {
    fprintf(stderr, "usage: slow_fs <backing folder> <delay µs> <mount point> [libfuse options]\n");
    return 2;
  }
  char *end = NULL;
  errno = 0;
  long us = strtol(argv[2], &end, 10);
  if (errno != 0 || end == argv[2] || *end != '\0' || us < 0 || us > 60000000L) {
    fprintf(stderr, "slow_fs: the delay must be a whole number of microseconds from 0 to 60000000, got '%s'\n", argv[2]);
    return 2;
  }
  delay_us = us;
  backing = open(argv[1], O_RDONLY | O_DIRECTORY);
  if (backing == -1) {
    fprintf(stderr, "slow_fs: cannot open the backing folder '%s': %s\n", argv[1], strerror(errno));
    return 2;
  }
  /* New files get exactly the mode the caller asked for. */
  umask(0);
  /* libfuse sees: slow_fs <mount point> [options]. */
  argv[2] = argv[0];
  return fuse_main(argc - 2, argv + 2, &ops, NULL);
}
