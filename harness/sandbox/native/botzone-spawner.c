/*
 * referee's Botzone spawner: lives inside one player's sandbox for its whole series and starts the bot afresh for
 * each turn (Botzone's restart-per-turn), so a turn costs a fork and an exec rather than a whole sandbox start.
 *
 *   botzone-spawner [--seccomp HEX] -- PROGRAM ARGS...
 *
 * It speaks with the grader on its own stdin (commands) and stdout (events), framed so that nothing the bot prints
 * can pass for an event:
 *   commands  "R <n> <limit_us>\n" + n bytes   start the bot, give it these bytes on its stdin, then close that
 *                                     stdin; stop it <limit_us> after this command arrived (0: no deadline)
 *             "S\n"                 start the bot to be kept running (Botzone's keep-running): its stdin stays open,
 *                                     and it is stopped (SIGSTOP) as soon as it has exec'd, so it gets no CPU before
 *                                     its first turn; any earlier kept bot is killed first
 *             "T <n> <limit_us>\n" + n bytes   a kept bot's turn: these bytes on its stdin (left open), then SIGCONT;
 *                                     the turn ends when its stdout carries the keep-running marker (the bot is
 *                                     stopped again at once) or when it ends; SIGKILL <limit_us> after this command
 *             "K\n"                 SIGKILL the bot (a running one, or a kept one between turns)
 *             "D\n"                 between turns (a game's end): SIGKILL a kept bot and reap it, then answer "D"
 *   events    "ready\n"             once, at start
 *             "O <n>\n" + n bytes   the bot's stdout, as it comes
 *             "X <status> <cpu_us> <wall_us> <over>\n"  the bot ended: the raw wait status, its user+system CPU, its
 *                                     wall time from the command's arrival to its end (not to this spawner's late
 *                                     look: see alive_wait_mark), and 1 when the deadline stopped it; its stdout is
 *                                     all sent
 *             "E <n>\n" + n bytes   the bot could not be started (fork or exec failed), or T found no kept bot; ends
 *                                     the run like X
 *             "B <cpu_us>\n"        S: the kept bot runs and is stopped (the stop has taken effect); the CPU it had
 *                                     before the stop
 *             "P <cpu_us> <wall_us>\n"  T: the marker came; the bot is stopped (taken effect); the turn's CPU and
 *                                     wall time (from the command's arrival to the marker's write, as for X)
 *             "D\n"                 D: no bot is left (a kept one's end is forgotten, not told to a next turn)
 * Every R gets exactly one X or E, every S one B or E, every T one P, X or E. A kept bot that ends between turns
 * (killed, or the memory limit) is told to its next T, as that turn's X. The bot's stderr is the spawner's own (the
 * grader captures it).
 *
 * The deadline is kept here, not by the grader, so that a ruling does not depend on when the grader's event loop
 * wakes on a loaded machine (a 300 ms timer in node was p90 65 ms late at load 8-13). The kernel stops the bot: the
 * child arms ITIMER_REAL for the time left before it execs (interval timers survive exec), and SIGALRM's default
 * action ends the whole process from the timer's interrupt at the deadline, whether or not this spawner (or the
 * grader) is given a CPU then; such an end is reported as the limit itself. A bot that catches, ignores or re-arms
 * SIGALRM (its own alarm() guard) is killed by a timerfd here at the deadline (SIGKILL; ruled at the limit as well:
 * it was there at the deadline), and the grader keeps its own timer behind both. A kept bot is not exec'd per
 * turn, so nothing can arm its own timer: the timerfd here is its deadline, and the marker's arrival here its answer.
 * For those to be prompt on a loaded machine the grader starts this spawner at real-time priority (SCHED_FIFO) where
 * it may (at load ~20 a timerfd in a plain process woke 25 ms late at the median, 104 ms at p90; in SCHED_FIFO 0.04 /
 * 0.06 ms). The spawner sleeps in poll() but for the microseconds it relays; the bot is put back to the normal policy
 * (and RLIMIT_RTPRIO 0) before it execs, so it never has that priority.
 *
 * What stands between the bot and the spawner (the bot runs as the same uid, in the same sandbox):
 *   - before exec the child installs the given seccomp program (no fork, signals only to itself; the caller passes
 *     it built with selfSignalsOnly): the bot can neither start processes nor signal the spawner;
 *   - the spawner is non-dumpable: the bot cannot ptrace it or open its /proc/<pid>/mem or /proc/<pid>/fd;
 *   - the bot holds only its own stdin/stdout pipes and stderr: every other descriptor is close-on-exec or closed;
 *   - the spawner reads nothing from the bot but bytes it relays, and keeps reading commands while the bot runs,
 *     so a bot that never reads its stdin or never exits is still killed on the grader's word.
 * The spawner itself runs under the sandbox's layers and a seccomp program that allows fork and exec only
 * (../seccomp.ts 'spawner'); the bot adds its own on top.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seccomp-install.h"

/* Most one turn's input may be (the whole history plus data and globaldata, 100 KB each, is far below). */
#define MAX_INPUT (16 << 20)

static const char *filter_hex = NULL;
static char **program = NULL;

static void die(const char *what) {
  fprintf(stderr, "botzone-spawner: %s: %s\n", what, strerror(errno));
  exit(125);
}

static void write_all(int fd, const void *data, size_t size) {
  const char *at = data;
  while (size > 0) {
    ssize_t done = write(fd, at, size);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) exit(0); /* the grader is gone: nothing left to do */
    at += done;
    size -= (size_t)done;
  }
}

static void event(char kind, const void *data, size_t size) {
  char head[32];
  int n = snprintf(head, sizeof head, "%c %zu\n", kind, size);
  write_all(1, head, (size_t)n);
  write_all(1, data, size);
}

/* Control input, read as it comes (a command may arrive in pieces). */
static char *control = NULL;
static size_t control_length = 0, control_size = 0;

static int read_control(void) {
  if (control_size - control_length < 65536) {
    control_size = control_size * 2 + 65536;
    control = realloc(control, control_size);
    if (!control) die("out of memory");
  }
  ssize_t got = read(0, control + control_length, control_size - control_length);
  if (got < 0 && errno == EINTR) return 1;
  if (got <= 0) return 0;
  control_length += (size_t)got;
  return 1;
}

static void consume(size_t count) {
  memmove(control, control + count, control_length - count);
  control_length -= count;
}

/* The running bot: `kept` when it is a kept-running one (S), `turn` while an R or T awaits its reply; a kept bot's
   end between turns is held for its next T (`held`, its wait status; -1: none). */
static pid_t child = 0;
static int kept = 0, turn = 0, held = -1;
/* The end of a kept turn's stdout as far as the marker may straddle two reads. */
#define MARKER ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
static char seen_tail[sizeof MARKER];
static size_t seen_tail_length = 0;
static int bot_in = -1, bot_out = -1;
static char *input = NULL;
static size_t input_size = 0, input_sent = 0;
/* This run's clock (CLOCK_MONOTONIC, ns): when its command arrived, its deadline (0: none), the timerfd behind the
   kernel's timer, and when that timerfd killed the bot (0: it did not). */
static long long run_started = 0, run_deadline = 0, backstop_killed = 0;
static int backstop = -1;

static long long now_ns(void) {
  struct timespec at;
  clock_gettime(CLOCK_MONOTONIC, &at);
  return (long long)at.tv_sec * 1000000000LL + at.tv_nsec;
}

/* This spawner's own time waiting, runnable, for a CPU (ns; the second field of its schedstat), 0 where unknown. */
static int own_schedstat = -1;
static long long own_wait_ns(void) {
  char text[128];
  if (own_schedstat < 0) return 0;
  ssize_t got = pread(own_schedstat, text, sizeof text - 1, 0);
  if (got <= 0) return 0;
  text[got] = 0;
  char *space = strchr(text, ' ');
  return space ? strtoll(space + 1, NULL, 10) : 0;
}

/* The spawner's own waits (own_wait_ns) when it last saw the running bot still alive with nothing unread on its
   stdout. An end (or the marker) comes after that; from then until the spawner looks, it sleeps in poll() — woken
   by the end itself — or waits for a CPU, runs (microseconds) or relays. So the end happened no later than the
   moment the spawner noticed it less the waits since this mark: a bot that ends before its deadline on a loaded
   machine is not ruled late because the spawner (at normal priority: no real-time where the grader may not grant it)
   woke after the deadline. */
static long long alive_wait_mark = 0;

/* The ended bot left SIGALRM alone (its mask, ignore and catch sets, read from the zombie's /proc status before it is
   reaped): then the kernel's timer armed before exec would have ended it at its deadline, so an exit of its own
   began before it. 0 where unreadable (Landlock refuses /proc) or touched. */
static int alarm_untouched = 0;

static void read_alarm_state(void) {
  char path[64], text[4096];
  alarm_untouched = 0;
  snprintf(path, sizeof path, "/proc/%d/status", (int)child);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t got = read(fd, text, sizeof text - 1);
  close(fd);
  if (got <= 0) return;
  text[got] = 0;
  const char *names[] = {"\nSigBlk:", "\nSigIgn:", "\nSigCgt:"};
  for (int i = 0; i < 3; i++) {
    const char *at = strstr(text, names[i]);
    if (!at) return;
    unsigned long long mask = strtoull(at + strlen(names[i]), NULL, 16);
    if (mask & (1ULL << (SIGALRM - 1))) return;
  }
  alarm_untouched = 1;
}

/* When the bot's end or marker, noticed at `seen`, happened at the latest (see alive_wait_mark). */
static long long ended_by(long long seen) {
  long long waited = own_wait_ns() - alive_wait_mark;
  return waited > 0 && waited < seen - run_started ? seen - waited : seen;
}

/* Arm the timerfd for this absolute time (0 disarms it). */
static void arm_backstop(long long at_ns) {
  struct itimerspec when = {0};
  when.it_value.tv_sec = at_ns / 1000000000LL;
  when.it_value.tv_nsec = at_ns % 1000000000LL;
  if (timerfd_settime(backstop, TFD_TIMER_ABSTIME, &when, NULL) != 0) die("timerfd_settime");
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* In the child, between fork and exec: its pipes as 0 and 1, its own filter, then the bot. */
static void become_bot(int in_read, int out_write, int report) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGALRM, SIG_DFL);
  /* The spawner's real-time priority is not the bot's: the normal policy, and no way back to real time. */
  struct sched_param normal = {0};
  if (sched_setscheduler(0, SCHED_OTHER, &normal) != 0 && errno != EPERM) goto failed;
  struct rlimit no_rt = {0, 0};
  setrlimit(RLIMIT_RTPRIO, &no_rt);
  if (dup2(in_read, 0) < 0 || dup2(out_write, 1) < 0) goto failed;
  /* The first to go when the sandbox's memory runs out is the bot, not the spawner (best effort: may be refused). */
  int adjust = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (adjust >= 0) {
    if (write(adjust, "1000", 4) < 0) { /* refused: the bot is still far the larger */ }
    close(adjust);
  }
  if (filter_hex) {
    char why[200];
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) goto failed;
    const char *said = install_seccomp(filter_hex, why, sizeof why);
    if (strcmp(said, "on") != 0) {
      errno = EPERM;
      goto failed;
    }
  }
  if (run_deadline > 0) {
    /* Last before exec, so the filter's installation is not the bot's time to lose; at least 1 us (0 disarms). */
    long long left = run_deadline - now_ns();
    if (left < 1000) left = 1000;
    struct itimerval deadline = {.it_value = {.tv_sec = left / 1000000000LL, .tv_usec = (left % 1000000000LL) / 1000}};
    if (setitimer(ITIMER_REAL, &deadline, NULL) != 0) goto failed;
  }
  execv(program[0], program);
failed:;
  int error = errno;
  if (write(report, &error, sizeof error) < 0) { /* the spawner then sees a bare exit */ }
  _exit(127);
}

/* Fork and exec the bot; 1 when it runs (else its E is sent). */
static int start_bot(void) {
  int in[2], out[2], report[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
    const char *said = strerror(errno);
    event('E', said, strlen(said));
    return 0;
  }
  pid_t pid = fork();
  if (pid == 0) become_bot(in[0], out[1], report[1]);
  close(in[0]);
  close(out[1]);
  close(report[1]);
  if (pid < 0) {
    const char *said = strerror(errno);
    close(in[1]), close(out[0]), close(report[0]);
    event('E', said, strlen(said));
    return 0;
  }
  /* exec closes the report pipe (close-on-exec): EOF means the bot is running; an errno means it never started. */
  int error = 0;
  ssize_t got;
  do got = read(report[0], &error, sizeof error);
  while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got == (ssize_t)sizeof error) {
    waitpid(pid, NULL, 0);
    close(in[1]), close(out[0]);
    char said[300];
    snprintf(said, sizeof said, "cannot run %s: %s", program[0], strerror(error));
    event('E', said, strlen(said));
    return 0;
  }
  child = pid;
  bot_in = in[1];
  bot_out = out[0];
  fcntl(bot_in, F_SETFL, O_NONBLOCK);
  input_sent = 0;
  return 1;
}

/* The bot's CPU time so far (ns on a CPU, /proc/<pid>/schedstat), 0 where that is not readable. */
static long long bot_cpu_ns(void) {
  char path[64], text[128];
  snprintf(path, sizeof path, "/proc/%d/schedstat", (int)child);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t got = read(fd, text, sizeof text - 1);
  close(fd);
  if (got <= 0) return 0;
  text[got] = 0;
  return strtoll(text, NULL, 10);
}

/* Wait for a SIGSTOP sent to the bot to take effect (or for its end), so that B and P mean "stopped": a stop is
   delivered when the bot next runs. WNOWAIT: the SIGCHLD loop never reaps stops, and an end stays for it to reap. */
static void wait_stopped(void) {
  siginfo_t info;
  while (waitid(P_PID, (id_t)child, &info, WSTOPPED | WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
}

/* A kept bot whose ended status nobody has been told yet is gone: forget it. */
static void forget_kept(void) {
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    child = 0;
  }
  close_fd(&bot_in);
  close_fd(&bot_out);
  kept = 0;
  held = -1;
}

/* S: a kept bot, started and stopped before it gets its first request. */
static void start_kept(void) {
  forget_kept();
  input_size = 0;
  run_deadline = 0;
  if (!start_bot()) return;
  kept = 1;
  kill(child, SIGSTOP);
  wait_stopped();
  char line[48];
  int n = snprintf(line, sizeof line, "B %lld\n", bot_cpu_ns() / 1000);
  write_all(1, line, (size_t)n);
}

static long long turn_cpu_started = 0;

/* T: a kept bot's turn (its input is in `input`). */
static void kept_turn(void) {
  turn = 1;
  if (held >= 0) {
    /* It ended between turns: that end is this turn's. */
    char line[64];
    int n = snprintf(line, sizeof line, "X %d 0 0 0\n", held);
    write_all(1, line, (size_t)n);
    held = -1;
    kept = 0;
    turn = 0;
    return;
  }
  if (!kept || child <= 0) {
    const char *said = "no kept-running bot is there (start it with S)";
    event('E', said, strlen(said));
    turn = 0;
    return;
  }
  input_sent = 0;
  seen_tail_length = 0;
  turn_cpu_started = bot_cpu_ns();
  if (run_deadline > 0) arm_backstop(run_deadline);
  kill(child, SIGCONT);
}

/* A kept turn's stdout chunk: the marker ends the turn (the bot stopped at once, its time told). */
static void watch_marker(const char *chunk, size_t size) {
  size_t marker = sizeof MARKER - 1;
  char window[sizeof MARKER + 65536];
  memcpy(window, seen_tail, seen_tail_length);
  memcpy(window + seen_tail_length, chunk, size);
  size_t length = seen_tail_length + size;
  if (memmem(window, length, MARKER, marker)) {
    long long at = ended_by(now_ns());
    kill(child, SIGSTOP);
    wait_stopped();
    arm_backstop(0);
    run_deadline = 0;
    turn = 0;
    long long cpu = bot_cpu_ns() - turn_cpu_started;
    char line[64];
    int n = snprintf(line, sizeof line, "P %lld %lld\n", cpu > 0 ? cpu / 1000 : 0, (at - run_started) / 1000);
    write_all(1, line, (size_t)n);
    seen_tail_length = 0;
    return;
  }
  seen_tail_length = length < marker - 1 ? length : marker - 1;
  memcpy(seen_tail, window + length - seen_tail_length, seen_tail_length);
}

/* The bot's stdout to the grader; 0 at its end. */
static int relay(void) {
  static char buffer[65536];
  ssize_t got = read(bot_out, buffer, sizeof buffer);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
  if (got <= 0) return 0;
  event('O', buffer, (size_t)got);
  if (kept && turn) watch_marker(buffer, (size_t)got);
  return 1;
}

static void feed(void) {
  ssize_t done = write(bot_in, input + input_sent, input_size - input_sent);
  if (done < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (done < 0) {
    close_fd(&bot_in); /* EPIPE: it stopped reading; its exit is what counts */
    return;
  }
  input_sent += (size_t)done;
  if (input_sent == input_size && !kept) close_fd(&bot_in);
}

/* The bot has ended: what is left of its stdout (every writer is gone, so reads end), then its status. */
static void reaped(int status, const struct rusage *usage) {
  if (bot_out >= 0) {
    fcntl(bot_out, F_SETFL, 0);
    while (relay()) {
    }
  }
  close_fd(&bot_out);
  close_fd(&bot_in);
  child = 0;
  long long seen = now_ns();
  arm_backstop(0);
  long long cpu_us = (long long)usage->ru_utime.tv_sec * 1000000 + usage->ru_utime.tv_usec + (long long)usage->ru_stime.tv_sec * 1000000 + usage->ru_stime.tv_usec;
  /* Its end as this spawner saw it, unless a deadline ended it: SIGALRM after the deadline is the kernel's timer
     (the bot ended at the deadline, however late this spawner woke); SIGKILL after the backstop fired: the bot was
     still there at the deadline, so it is ruled there too, not at the kill (which comes a wake-up later; and the
     timerfd, armed for the deadline itself, may fire a few microseconds before the bot's own timer, which the child
     armed a moment after the deadline was set, so an untouched bot can meet either). A SIGALRM before the deadline
     is the bot's own doing: a crash like any other. */
  long long wall = ended_by(seen) - run_started;
  int over = 0;
  if (run_deadline > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM && seen >= run_deadline) {
    over = 1;
    wall = run_deadline - run_started;
  } else if (backstop_killed > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    over = 1;
    wall = run_deadline - run_started;
  } else if (run_deadline > 0 && WIFEXITED(status) && alarm_untouched && wall > run_deadline - run_started) {
    /* It exited, and SIGALRM would have ended it at the deadline: its exit began before the deadline, and what came
       after (its exit's own work, held by a busy machine) is not its time. */
    wall = run_deadline - run_started;
  }
  alarm_untouched = 0;
  run_deadline = 0;
  backstop_killed = 0;
  if (!turn) {
    /* A kept bot between turns (killed, or the memory limit): told to its next turn. */
    if (kept) held = status;
    return;
  }
  turn = 0;
  kept = 0;
  char line[96];
  int n = snprintf(line, sizeof line, "X %d %lld %lld %d\n", status, cpu_us, wall / 1000, over);
  write_all(1, line, (size_t)n);
}

/* Before the spawner sleeps during a turn: the mark (alive_wait_mark), if the bot has not ended and its stdout holds
   nothing unread (the waits are read first, so an end or a write seen after them came after them). */
static void still_alive(void) {
  long long waits = own_wait_ns();
  siginfo_t info;
  info.si_pid = 0;
  if (waitid(P_PID, (id_t)child, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != 0) return;
  int unread = 0;
  if (bot_out >= 0 && (ioctl(bot_out, FIONREAD, &unread) != 0 || unread > 0)) return;
  alive_wait_mark = waits;
}

/* One complete command from the control buffer, if there is one; 0 when it needs more bytes. */
static int command(void) {
  char *newline = memchr(control, '\n', control_length);
  if (!newline) {
    if (control_length > 64) die("malformed command");
    return 0;
  }
  size_t head = (size_t)(newline - control) + 1;
  if (control[0] == 'K' && head == 2) {
    if (child > 0) kill(child, SIGKILL);
    consume(head);
    return 1;
  }
  if (control[0] == 'D' && head == 2) {
    consume(head);
    /* The grader waits for "D" before the next game's bot starts, so the two never share the group (its memory
       above all) while this one dies. In a turn (never sent so; harmless): as K, the run's end still told. */
    if (turn) {
      if (child > 0) kill(child, SIGKILL);
    } else if (child > 0) {
      kill(child, SIGKILL);
      int status;
      struct rusage usage;
      if (wait4(child, &status, 0, &usage) == child) reaped(status, &usage);
    }
    if (!turn) {
      held = -1;
      kept = 0;
    }
    write_all(1, "D\n", 2);
    return 1;
  }
  if (control[0] == 'S' && head == 2) {
    if (turn) {
      errno = EBUSY;
      die("a start while the bot runs");
    }
    consume(head);
    start_kept();
    return 1;
  }
  if ((control[0] == 'R' || control[0] == 'T') && control[1] == ' ') {
    char kind = control[0];
    char *end = NULL;
    unsigned long size = strtoul(control + 2, &end, 10);
    if (*end != ' ' || size > MAX_INPUT) die("malformed run command");
    unsigned long long limit_us = strtoull(end + 1, &end, 10);
    if (end != newline || limit_us > 24ULL * 3600 * 1000000) die("malformed run command");
    if (turn || (kind == 'R' && child > 0 && !kept)) {
      errno = EBUSY;
      die("a run while the bot runs");
    }
    if (control_length < head + size) return 0;
    free(input);
    input = malloc(size ? size : 1);
    if (!input) die("out of memory");
    memcpy(input, control + head, size);
    input_size = size;
    consume(head + size);
    /* The turn's clock starts now that the whole command is here (the grader's own delays are not the bot's). */
    run_started = now_ns();
    alive_wait_mark = own_wait_ns();
    run_deadline = limit_us > 0 ? run_started + (long long)limit_us * 1000 : 0;
    backstop_killed = 0;
    if (kind == 'T') {
      kept_turn();
      return 1;
    }
    forget_kept();
    turn = 1;
    if (!start_bot()) {
      turn = 0;
      return 1;
    }
    if (input_size == 0) close_fd(&bot_in);
    if (run_deadline > 0) arm_backstop(run_deadline);
    return 1;
  }
  errno = EINVAL;
  die("unknown command");
  return 0;
}

int main(int argc, char **argv) {
  int at = 1;
  for (; at < argc && strcmp(argv[at], "--") != 0; at++) {
    if (at + 1 < argc && strcmp(argv[at], "--seccomp") == 0) filter_hex = argv[++at];
    else {
      fputs("usage: botzone-spawner [--seccomp HEX] -- PROGRAM ARGS...\n", stderr);
      return 125;
    }
  }
  if (at + 1 >= argc) {
    fputs("usage: botzone-spawner [--seccomp HEX] -- PROGRAM ARGS...\n", stderr);
    return 125;
  }
  program = argv + at + 1;
  /* Without bubblewrap, Landlock shuts /proc: the launcher opened this thread's schedstat first (landlock-launch.c
     --schedstat). Kept for this process only (close-on-exec), and its number not passed on. */
  const char *handed = getenv("REFEREE_SCHEDSTAT_FD");
  int inherited = handed ? atoi(handed) : -1;
  if (inherited < 3 || inherited >= 1024) inherited = -1;
  unsetenv("REFEREE_SCHEDSTAT_FD");
  /* Nothing inherited beyond the three standard descriptors reaches a bot (bubblewrap's filter fd, for one). */
  for (int fd = 3; fd < 1024; fd++)
    if (fd != inherited) close(fd);
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) die("prctl(PR_SET_DUMPABLE)");
  own_schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (own_schedstat < 0 && inherited >= 0 && fcntl(inherited, F_SETFD, FD_CLOEXEC) == 0) own_schedstat = inherited;
  else if (inherited >= 0) close(inherited);
  signal(SIGPIPE, SIG_IGN);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &chld, NULL) != 0) die("sigprocmask");
  int children = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
  if (children < 0) die("signalfd");
  backstop = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (backstop < 0) die("timerfd_create");
  /* Whether a turn's end is timed less this spawner's own CPU waits (ended_by), or when it was noticed. */
  if (own_schedstat >= 0) write_all(1, "ready waits\n", 12);
  else write_all(1, "ready\n", 6);
  int open_control = 1;
  for (;;) {
    while (open_control && control_length > 0 && command()) {
    }
    if (!open_control && child == 0) return 0;
    struct pollfd fds[5];
    int n = 0;
    int control_at = -1, out_at = -1, in_at = -1, children_at, backstop_at;
    if (open_control) fds[control_at = n++] = (struct pollfd){.fd = 0, .events = POLLIN};
    fds[children_at = n++] = (struct pollfd){.fd = children, .events = POLLIN};
    fds[backstop_at = n++] = (struct pollfd){.fd = backstop, .events = POLLIN};
    if (bot_out >= 0) fds[out_at = n++] = (struct pollfd){.fd = bot_out, .events = POLLIN};
    if (bot_in >= 0 && input_sent < input_size) fds[in_at = n++] = (struct pollfd){.fd = bot_in, .events = POLLOUT};
    if (turn && child > 0) still_alive();
    if (poll(fds, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    if (control_at >= 0 && fds[control_at].revents && !read_control()) {
      /* The grader closed its end: the series is over. */
      open_control = 0;
      if (child > 0) kill(child, SIGKILL);
    }
    if (out_at >= 0 && fds[out_at].revents && !relay()) close_fd(&bot_out);
    if (in_at >= 0 && fds[in_at].revents) feed();
    if (fds[backstop_at].revents) {
      unsigned long long expired;
      if (read(backstop, &expired, sizeof expired) > 0 && child > 0 && run_deadline > 0 && backstop_killed == 0) {
        /* Still there at its deadline: it kept the kernel's timer from ending it. Ended now, and the time noted. */
        backstop_killed = now_ns();
        kill(child, SIGKILL);
      }
    }
    if (fds[children_at].revents) {
      struct signalfd_siginfo info;
      while (read(children, &info, sizeof info) > 0) {
      }
      int status;
      struct rusage usage;
      pid_t done;
      siginfo_t ended;
      ended.si_pid = 0;
      if (child > 0 && turn && run_deadline > 0 && waitid(P_PID, (id_t)child, &ended, WEXITED | WNOHANG | WNOWAIT) == 0 && ended.si_pid == child) read_alarm_state();
      while ((done = wait4(-1, &status, WNOHANG, &usage)) > 0)
        if (done == child) reaped(status, &usage);
    }
  }
}
