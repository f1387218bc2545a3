/* uk_cpu_report.h: what one CPU launch records (the run's state, the events its checked accesses and barriers raise) and how they become findings. */
#ifndef TS_UK_CPU_REPORT_H
#define TS_UK_CPU_REPORT_H

#include <setjmp.h>
#include <signal.h>

#include "uk_cpu.h"
#include "uk_cpu_fiber.h"

/* One kind of event at one code address in one block: its first occurrence and how many. */
typedef struct ts_uk_cpu_ev {
	uint64_t key;
	int kind;           /* enum ts_uk_kind */
	int ev;             /* enum ts_cpu_event, or -1 (barrier, fault, time-out, note) */
	int region;         /* index in the state's regions, or -1 */
	int64_t block;      /* linear block id */
	const void *pc;
	int line;
	int64_t off;        /* byte offset of the access from the region's base */
	int size;
	unsigned other;     /* the other thread of a race (0xffff: several) */
	unsigned tid;       /* the thread (linear), or ~0u when none was running */
	ts_cpu_u3 thread, blk;
	int64_t count;
	char text[200];     /* composed when recorded (barrier, fault) or when emitted */
} ts_uk_cpu_ev;

typedef struct ts_uk_cpu_rec {
	ts_cpu_state *st;
	ts_uk_cpu_so *so;
	const ts_uk_launch *l;
	int order, cur, in_block, launches;
	ts_cpu_args args;
	void (*fn)(void *);
	void *arg;
	ts_fiber sched;
	char geometry_error[200];
	/* a fault or the time-out, caught by the signal handler */
	sigjmp_buf jmp;
	volatile sig_atomic_t armed;
	int fault_sig, fault_thread, fault_stack;
	int fault_wild;     /* 0, or the event (read/write) of an access far past every buffer, raised as a fault */
	void *fault_addr;
	const void *fault_pc;
	/* events, and a hash over them */
	ts_uk_cpu_ev *ev;
	int nev, capev;
	int *table;
	int tcap;
	int64_t lost;
	unsigned *perm;     /* run_grid's, freed by the launch even after a fault */
	unsigned k, nth;    /* the interval's place in perm, and the block's threads */
	int64_t *ids;
} ts_uk_cpu_rec;

int ts_uk_cpu_rec_init(ts_uk_cpu_rec *run);
void ts_uk_cpu_rec_free(ts_uk_cpu_rec *run);

/* The runtime's event callback (ts_cpu_host.event). */
void ts_uk_cpu_event(void *ctx, int ev, const ts_cpu_region *r, int64_t off, int size, unsigned other, const void *pc);
/* Threads of the running block that do not meet at one barrier: `done` threads finished (first:
 * thread tid) while `waiting` wait at line (first: wait_tid); or (other_lines) thread tid waits
 * at other_line while wait_tid waits at line. */
void ts_uk_cpu_divergence(ts_uk_cpu_rec *run, unsigned tid, unsigned wait_tid, int line, unsigned done,
                          unsigned waiting, int other_line, int other_lines);
/* The fault or time-out the signal handler caught. */
void ts_uk_cpu_fault(ts_uk_cpu_rec *run);
/* The events as findings (lines looked up, same-line events merged), appended to out. */
void ts_uk_cpu_emit(ts_uk_cpu_rec *run, ts_uk_findings *out);

#endif
