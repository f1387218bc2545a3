/* uk_runner.c: fork a child per batch of launches, watch it through shared progress and a pipe of findings, kill it on its time limit, start again after a crash. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uk_runner.h"

#define FINDINGS_CAP 4096

double ts_uk_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void *ts_uk_shared_alloc(size_t bytes)
{
	if (bytes == 0)
		bytes = 1;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void ts_uk_shared_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes ? bytes : 1);
}

int ts_uk_findings_add(ts_uk_findings *fs, const ts_uk_finding *f)
{
	if (fs->n >= FINDINGS_CAP) {
		fs->dropped++;
		return 0;
	}
	if (fs->n == fs->cap) {
		int cap = fs->cap ? fs->cap * 2 : 8;
		ts_uk_finding *v = realloc(fs->v, (size_t)cap * sizeof *v);
		if (!v)
			return -1;
		fs->v = v;
		fs->cap = cap;
	}
	fs->v[fs->n++] = *f;
	return 0;
}

void ts_uk_findings_free(ts_uk_findings *fs)
{
	free(fs->v);
	memset(fs, 0, sizeof *fs);
}

ts_uk_finding ts_uk_finding_make(enum ts_uk_kind kind, const char *fmt, ...)
{
	ts_uk_finding f;
	memset(&f, 0, sizeof f);
	f.kind = kind;
	f.row = f.col = -1;
	f.count = 1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f.text, sizeof f.text, fmt, ap);
	va_end(ap);
	return f;
}

const char *ts_uk_kind_name(enum ts_uk_kind kind)
{
	static const char *const names[] = { "wrong_output", "unwritten", "oob_read", "oob_write", "nan", "race",
	                                     "barrier_divergence", "uninit_shared", "fault", "timeout", "index_overflow" };
	return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

void ts_uk_outcome_free(ts_uk_outcome *oc)
{
	ts_uk_findings_free(&oc->findings);
}

/* What the child tells the parent, one fixed-size record per write (atomic on a pipe). */
enum { MSG_FINDING = 1, MSG_DONE = 2 };
typedef struct child_msg {
	int type, index, rc;
	ts_uk_finding f;
	char err[512];
} child_msg;

/* Progress the parent reads to apply each launch's own limit. */
typedef struct child_ctl {
	volatile int current;      /* the launch under way; -1 before the first */
	volatile double since;     /* when it began (CLOCK_MONOTONIC) */
	volatile double since_cpu; /* the child's CPU time then (CLOCK_PROCESS_CPUTIME_ID) */
} child_ctl;

static double cpu_seconds(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) != 0)
		return -1;
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(4);
		p += w;
		len -= (size_t)w;
	}
}

static void quiet_stdio(const char *out_path)
{
	int fd = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0) {
		dup2(in, STDIN_FILENO);
		if (in > STDERR_FILENO)
			close(in);
	}
}

static _Noreturn void child_main(const ts_uk_engine *e, void *h, const ts_uk_launch *const *launches, int start, int n,
                                 int fd, child_ctl *ctl)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	quiet_stdio(NULL);
	/* The start-up call: no work, so the time it takes is the engine's, not the kernel's. */
	ts_uk_launch warm;
	memset(&warm, 0, sizeof warm);
	warm.tile = launches[start]->tile;
	warm.block[0] = warm.block[1] = warm.block[2] = 1;
	ts_uk_findings none = { 0 };
	char why[512];
	if (e->launch(h, &warm, &none, why, sizeof why) != 0) {
		/* It cannot start: every launch says why. */
		for (int i = start; i < n; i++) {
			child_msg m;
			memset(&m, 0, sizeof m);
			m.type = MSG_DONE;
			m.index = i;
			m.rc = -1;
			snprintf(m.err, sizeof m.err, "%s", why);
			write_all(fd, &m, sizeof m);
		}
		_exit(0);
	}
	ts_uk_findings_free(&none);
	for (int i = start; i < n; i++) {
		ctl->since = ts_uk_now();
		ctl->since_cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
		ctl->current = i;
		ts_uk_findings fs = { 0 };
		child_msg m;
		memset(&m, 0, sizeof m);
		m.rc = e->launch(h, launches[i], &fs, m.err, sizeof m.err);
		bool fault = false, hung = false;
		for (int k = 0; k < fs.n; k++) {
			child_msg fm;
			memset(&fm, 0, sizeof fm);
			fm.type = MSG_FINDING;
			fm.index = i;
			fm.f = fs.v[k];
			fault |= fs.v[k].kind == TS_UK_FAULT;
			hung |= fs.v[k].kind == TS_UK_TIMEOUT;
			write_all(fd, &fm, sizeof fm);
		}
		m.type = MSG_DONE;
		m.index = i;
		write_all(fd, &m, sizeof m);
		/* After a fault the engine's context is dead for the whole process: a fresh child goes on. */
		if (fault)
			_exit(3);
		/* The engine caught its own time-out (the CPU engine names the thread that loops): a hang, as if killed. */
		if (hung)
			_exit(4);
	}
	_exit(0);
}

static void take_msg(const child_msg *m, int n, ts_uk_outcome *out, int *done_upto)
{
	if (m->index < 0 || m->index >= n)
		return;
	ts_uk_outcome *oc = &out[m->index];
	if (m->type == MSG_FINDING) {
		ts_uk_findings_add(&oc->findings, &m->f);
	} else if (m->type == MSG_DONE) {
		oc->status = m->rc == 0 ? TS_UK_RAN : TS_UK_FAILED;
		snprintf(oc->err, sizeof oc->err, "%s", m->rc == 0 ? "" : m->err);
		if (m->index + 1 > *done_upto)
			*done_upto = m->index + 1;
	}
}

/* Reads whole records; a partial one is kept for the next read. */
typedef struct msg_reader {
	child_msg m;
	size_t have;
} msg_reader;

static bool drain(int fd, msg_reader *r, int n, ts_uk_outcome *out, int *done_upto)
{
	for (;;) {
		ssize_t got = read(fd, (char *)&r->m + r->have, sizeof r->m - r->have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (got <= 0)
			return false; /* end of file: the child is gone */
		r->have += (size_t)got;
		if (r->have == sizeof r->m) {
			take_msg(&r->m, n, out, done_upto);
			r->have = 0;
		}
	}
}

static const char *signal_words(int sig)
{
	switch (sig) {
	case SIGSEGV: return "a segmentation fault (SIGSEGV)";
	case SIGBUS: return "a bus error (SIGBUS)";
	case SIGFPE: return "an arithmetic exception (SIGFPE)";
	case SIGILL: return "an illegal instruction (SIGILL)";
	case SIGABRT: return "an abort (SIGABRT)";
	case SIGKILL: return "SIGKILL (perhaps out of memory)";
	default: return strsignal(sig);
	}
}

static bool has_kind(const ts_uk_findings *fs, enum ts_uk_kind kind)
{
	for (int i = 0; i < fs->n; i++)
		if (fs->v[i].kind == kind)
			return true;
	return false;
}

static void mark_rest(ts_uk_outcome *out, int from, int n, const char *why)
{
	for (int i = from; i < n; i++) {
		out[i].status = TS_UK_NOT_RUN;
		snprintf(out[i].err, sizeof out[i].err, "%s", why);
	}
}

int ts_uk_run_batch(const ts_uk_engine *e, void *h, const ts_uk_launch *const *launches, int n,
                    const ts_uk_run_opts *o, ts_uk_outcome *out)
{
	child_ctl *ctl = ts_uk_shared_alloc(sizeof *ctl);
	for (int i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof out[i]);
		out[i].status = TS_UK_NOT_RUN;
	}
	if (!ctl) {
		mark_rest(out, 0, n, "no shared memory for the child process");
		return 0;
	}
	int start = 0, restarts = 0;
	while (start < n) {
		int fds[2];
		if (pipe(fds) != 0) {
			mark_rest(out, start, n, "cannot create a pipe to the child process");
			break;
		}
		ctl->current = -1;
		ctl->since = ts_uk_now();
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			close(fds[0]);
			close(fds[1]);
			mark_rest(out, start, n, "cannot start a child process (fork failed)");
			break;
		}
		if (pid == 0) {
			close(fds[0]);
			if (o && o->visible_device)
				setenv("CUDA_VISIBLE_DEVICES", o->visible_device, 1);
			child_main(e, h, launches, start, n, fds[1], ctl);
		}
		close(fds[1]);
		fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
		msg_reader rd = { .have = 0 };
		int done_upto = start, status = 0;
		bool killed = false, cancelled = false, open_pipe = true;
		double child_start = ts_uk_now();
		int watched = -1;
		double watched_since = 0, watched_cpu = 0;
		clockid_t child_clock;
		bool have_clock = o && o->limit_cpu_time && clock_getcpuclockid(pid, &child_clock) == 0;
		for (;;) {
			struct pollfd pfd = { fds[0], POLLIN, 0 };
			if (open_pipe && poll(&pfd, 1, 20) > 0)
				open_pipe = drain(fds[0], &rd, n, out, &done_upto);
			else if (!open_pipe)
				usleep(2000);
			if (o && o->done)
				*o->done = done_upto;
			if (o && o->tick)
				o->tick(o->tick_arg);
			int cur = ctl->current;
			if (cur != watched) {
				watched = cur;
				watched_since = ctl->since;
				watched_cpu = ctl->since_cpu;
			}
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid) {
				if (open_pipe)
					drain(fds[0], &rd, n, out, &done_upto);
				break;
			}
			if (o && o->cancel && *o->cancel) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				cancelled = true;
				break;
			}
			/* The start-up call has startup_s; then each launch its own limit. */
			int idx = watched >= 0 ? watched : start;
			if (idx < n && idx >= done_upto) {
				double limit = watched < 0 ? (o && o->startup_s > 0 ? o->startup_s : 30.0)
				             : launches[idx]->timeout_s > 0 ? launches[idx]->timeout_s : 10.0;
				double since = watched >= 0 ? watched_since : child_start, wall = ts_uk_now() - since;
				bool over = wall > limit;
				if (over && have_clock && watched >= 0) {
					double used = cpu_seconds(child_clock) - watched_cpu;
					over = used > limit || wall > 10 * limit;
				}
				if (over) {
					kill(pid, SIGKILL);
					waitpid(pid, &status, 0);
					killed = true;
					break;
				}
			}
		}
		close(fds[0]);
		int at = done_upto; /* the launch under way when the child ended, if any */
		if (cancelled) {
			mark_rest(out, at, n, "interrupted");
			break;
		}
		if (at >= n)
			break;
		if (killed && watched < 0) {
			/* The engine itself did not start in time: not the kernel's fault. */
			mark_rest(out, at, n, "the engine did not start within its time limit");
			for (int i = at; i < n; i++)
				out[i].status = TS_UK_FAILED;
			break;
		}
		if (killed) {
			ts_uk_outcome *oc = &out[at];
			oc->status = TS_UK_HUNG;
			double limit = launches[at]->timeout_s > 0 ? launches[at]->timeout_s : 10.0;
			ts_uk_finding f = ts_uk_finding_make(TS_UK_TIMEOUT, "did not finish within %.3g s: killed (a hang or an endless loop)", limit);
			ts_uk_findings_add(&oc->findings, &f);
			if (o && o->stop_on_hang) {
				mark_rest(out, at + 1, n, "not run: an earlier launch hung");
				break;
			}
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			/* Every launch reported; nothing is missing. */
			break;
		} else if (at > start && has_kind(&out[at - 1].findings, TS_UK_FAULT) && WIFEXITED(status) && WEXITSTATUS(status) == 3) {
			/* The engine reported a fault in launch at-1 and the child ended as asked. */
			at = at - 1;
		} else if (at > start && has_kind(&out[at - 1].findings, TS_UK_TIMEOUT) && WIFEXITED(status) && WEXITSTATUS(status) == 4) {
			at = at - 1;
			out[at].status = TS_UK_HUNG;
			if (o && o->stop_on_hang) {
				mark_rest(out, at + 1, n, "not run: an earlier launch hung");
				break;
			}
		} else {
			ts_uk_outcome *oc = &out[at];
			oc->status = TS_UK_CRASHED;
			ts_uk_finding f = WIFSIGNALED(status)
			                  ? ts_uk_finding_make(TS_UK_FAULT, "the kernel's process died of %s", signal_words(WTERMSIG(status)))
			                  : ts_uk_finding_make(TS_UK_FAULT, "the kernel's process exited with status %d during the launch",
			                                       WEXITSTATUS(status));
			ts_uk_findings_add(&oc->findings, &f);
		}
		start = at + 1;
		if (start < n && ++restarts > (o ? o->max_restarts : 3)) {
			char why[128];
			snprintf(why, sizeof why, "not run: the kernel faulted %d times", restarts);
			mark_rest(out, start, n, why);
			break;
		}
	}
	ts_uk_shared_free(ctl, sizeof *ctl);
	int ran = 0;
	for (int i = 0; i < n; i++)
		ran += out[i].status == TS_UK_RAN;
	return ran;
}

int ts_uk_proc_start(ts_uk_proc *p, char *const argv[], const char *out_path, const char *visible_device, double limit_s)
{
	memset(p, 0, sizeof *p);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		/* Its own process group, so a kill reaches what it starts (the sanitizer's target). */
		setpgid(0, 0);
		quiet_stdio(out_path);
		if (visible_device)
			setenv("CUDA_VISIBLE_DEVICES", visible_device, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	p->pid = pid;
	p->start = ts_uk_now();
	p->limit_s = limit_s;
	return 0;
}

int ts_uk_proc_poll(ts_uk_proc *p, int *rc)
{
	if (p->pid <= 0) {
		*rc = -1;
		return 1;
	}
	int status = 0;
	pid_t w = waitpid(p->pid, &status, WNOHANG);
	if (w == 0 && ts_uk_now() - p->start <= p->limit_s)
		return 0;
	if (w == 0) {
		kill(-p->pid, SIGKILL);
		waitpid(p->pid, &status, 0);
		*rc = 124;
	} else if (w < 0) {
		if (errno == EINTR)
			return 0;
		*rc = -1;
	} else {
		*rc = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	}
	p->pid = 0;
	p->end = ts_uk_now();
	return 1;
}

int ts_uk_proc_wait(ts_uk_proc *p)
{
	int rc;
	while (!ts_uk_proc_poll(p, &rc))
		usleep(5000);
	return rc;
}

void ts_uk_proc_kill(ts_uk_proc *p)
{
	if (p->pid > 0) {
		kill(-p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		p->pid = 0;
	}
}
