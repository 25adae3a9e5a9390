// An LD_PRELOAD library that moves a process's wall clock (CLOCK_REALTIME, gettimeofday, time) by
// the milliseconds written in the file SHIFTCLOCK_FILE names, read on every call; the monotonic
// clock stays true. For redis-server, which libfaketime cannot start on this machine (see
// ServerClock.ts): it makes no libc call that could allocate (raw syscalls, no dlsym), so it
// cannot re-enter jemalloc while jemalloc's start-up holds its lock and reads the clock.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long offset_ms(void) {
  const char *file = getenv("SHIFTCLOCK_FILE");
  if (file == NULL) return 0;
  int fd = (int)syscall(SYS_open, file, O_RDONLY);
  if (fd < 0) return 0;
  char text[32] = {0};
  long n = (long)syscall(SYS_read, fd, text, sizeof text - 1);
  syscall(SYS_close, fd);
  if (n <= 0) return 0;
  return strtoll(text, NULL, 10);
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
  int result = (int)syscall(SYS_clock_gettime, clock, ts);
  if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
    long long ns = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ms() * 1000000LL;
    ts->tv_sec = ns / 1000000000LL;
    ts->tv_nsec = ns % 1000000000LL;
  }
  return result;
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  struct timespec ts;
  int result = clock_gettime(CLOCK_REALTIME, &ts);
  if (result == 0) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  return result;
}

time_t time(time_t *out) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}
