/*
 * Preloaded (LD_PRELOAD) into the sandboxed C++ compiler when Landlock, not bubblewrap, confines it: a file outside
 * what the compiler may read then fails with EACCES, where a file that does not exist fails with ENOENT, and g++
 * tells the two apart (`__has_include` of a refused file is a fatal error, of a missing one simply false). Every
 * open the toolchain makes that Landlock refuses is reported as "no such file", so a submission learns nothing
 * about which paths exist. Only the error number changes: the kernel still refuses the open.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>

static void as_missing(void) {
  if (errno == EACCES) errno = ENOENT;
}

int open(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  int fd = real(path, flags, mode);
  if (fd < 0) as_missing();
  return fd;
}

int open64(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  int fd = real(path, flags, mode);
  if (fd < 0) as_missing();
  return fd;
}

int openat(int dir, const char *path, int flags, ...) {
  static int (*real)(int, const char *, int, ...);
  if (!real) real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  int fd = real(dir, path, flags, mode);
  if (fd < 0) as_missing();
  return fd;
}

int openat64(int dir, const char *path, int flags, ...) {
  static int (*real)(int, const char *, int, ...);
  if (!real) real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat64");
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, mode_t);
    va_end(args);
  }
  int fd = real(dir, path, flags, mode);
  if (fd < 0) as_missing();
  return fd;
}

FILE *fopen(const char *path, const char *how) {
  static FILE *(*real)(const char *, const char *);
  if (!real) real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
  FILE *file = real(path, how);
  if (!file) as_missing();
  return file;
}

FILE *fopen64(const char *path, const char *how) {
  static FILE *(*real)(const char *, const char *);
  if (!real) real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen64");
  FILE *file = real(path, how);
  if (!file) as_missing();
  return file;
}
