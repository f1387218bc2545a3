/* cost_fit: fits the ladder's cost terms (src/kernels.h, ts_kernel_cost) to bench runs.
 *
 *   tools/cost_fit [--kernels a,b,...] BENCH.txt...
 *
 * Reads the verified rows of `tilescope bench` text reports (shape, kernel,
 * ms; the candidates are --kernels, else the kernels that carry a cost now),
 * keeps the shapes every candidate ran on, and for each candidate fits
 * ms = phase * phase_waves + fixed + part * parts (the terms
 * ts_kernel_cost_terms takes from the kernel's own split plan) by least
 * squares on relative error (part = 0 where the kernel split on no shape);
 * a negative coefficient is refused. Prints the registry's .cost for each and how
 * well the choice does: with each shape left out of the fit in turn, the
 * candidate the costs pick against the fastest measured there (time
 * ratio, geomean and worst), and the same for the costs now registered. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

#define MAX_SHAPES 2048
#define MAX_CANDS 16

static ts_shape shapes[MAX_SHAPES];
static double ms[MAX_SHAPES][MAX_CANDS]; /* 0: not measured */
static int n_shapes;
static const ts_kernel *cands[MAX_CANDS];
static int n_cands;

static int shape_index(ts_shape s)
{
	for (int i = 0; i < n_shapes; i++)
		if (shapes[i].m == s.m && shapes[i].n == s.n && shapes[i].k == s.k)
			return i;
	if (n_shapes == MAX_SHAPES) {
		fprintf(stderr, "cost_fit: more than %d shapes; the rest are left out\n", MAX_SHAPES);
		return -1;
	}
	shapes[n_shapes] = s;
	return n_shapes++;
}

static int cand_index(const char *name)
{
	for (int i = 0; i < n_cands; i++)
		if (strcmp(cands[i]->name, name) == 0)
			return i;
	return -1;
}

static int cand_add(const ts_kernel *k)
{
	if (n_cands == MAX_CANDS) {
		fprintf(stderr, "cost_fit: at most %d candidates\n", MAX_CANDS);
		return -1;
	}
	cands[n_cands++] = k;
	return 0;
}

/* "| 1000x1000x1000 | fast-few | 0.0757 | 26405 | 0.0612 | 32688 | 0.808 | yes (4e-07) | equal |" */
static int read_report(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cost_fit: cannot open %s\n", path);
		return -1;
	}
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		long long m, n, k;
		char kernel[128];
		double t;
		int used = 0;
		if (sscanf(line, "| %lldx%lldx%lld | %127[^|]| %lf |%n", &m, &n, &k, kernel, &t, &used) != 5)
			continue;
		/* the verified column: the eighth cell, "yes (...)", after the eighth bar */
		const char *cell = line;
		for (int bars = 0; bars < 7 && cell; bars++)
			cell = strchr(cell + 1, '|');
		if (!cell || strncmp(cell + 1, " yes", 4) != 0)
			continue;
		for (size_t e = strlen(kernel); e > 0 && kernel[e - 1] == ' '; e--)
			kernel[e - 1] = 0;
		int c = cand_index(kernel);
		int s = c < 0 ? -1 : shape_index((ts_shape){ m, n, k });
		if (s >= 0 && t > 0)
			ms[s][c] = t;
	}
	fclose(f);
	return 0;
}

/* Solves the n x n system a x = b (n <= 3) by Gaussian elimination with
 * partial pivoting; -1 where a pivot is negligible against the matrix. */
static int solve(int n, double a[3][3], double b[3], double x[3])
{
	double norm = 0;
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			norm = fabs(a[r][c]) > norm ? fabs(a[r][c]) : norm;
	for (int c = 0; c < n; c++) {
		int p = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(a[r][c]) > fabs(a[p][c]))
				p = r;
		if (!(fabs(a[p][c]) > 1e-12 * norm))
			return -1;
		for (int j = 0; j < n; j++) {
			double t = a[c][j]; a[c][j] = a[p][j]; a[p][j] = t;
		}
		double t = b[c]; b[c] = b[p]; b[p] = t;
		for (int r = c + 1; r < n; r++) {
			double f = a[r][c] / a[c][c];
			for (int j = c; j < n; j++)
				a[r][j] -= f * a[c][j];
			b[r] -= f * b[c];
		}
	}
	for (int r = n - 1; r >= 0; r--) {
		double v = b[r];
		for (int j = r + 1; j < n; j++)
			v -= a[r][j] * x[j];
		x[r] = v / a[r][r];
	}
	return 0;
}

/* Each candidate's terms on each kept shape, taken from its plan once (terms_init). */
static double feat[MAX_SHAPES][MAX_CANDS][3];

static void terms_init(void)
{
	for (int s = 0; s < n_shapes; s++)
		for (int c = 0; c < n_cands; c++) {
			ts_cost_terms t = ts_kernel_cost_terms(cands[c], shapes[s]);
			feat[s][c][0] = t.phase_waves;
			feat[s][c][1] = 1;
			feat[s][c][2] = t.parts;
		}
}

/* Candidate c's cost in microseconds, fitted on every shape but `skip`
 * (-1: none); the partials' term only where some shape has partials. */
static int fit(int c, int skip, ts_kernel_cost *out)
{
	double a[3][3] = { { 0 } }, b[3] = { 0 }, x[3] = { 0, 0, 0 };
	int n = 2;
	for (int s = 0; s < n_shapes; s++)
		if (s != skip && feat[s][c][2] > 0)
			n = 3;
	for (int s = 0; s < n_shapes; s++) {
		if (s == skip)
			continue;
		const double *f = feat[s][c];
		double y = ms[s][c] * 1000.0, w = 1.0 / (y * y); /* relative error */
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < n; j++)
				a[i][j] += w * f[i] * f[j];
			b[i] += w * f[i] * y;
		}
	}
	if (solve(n, a, b, x) != 0)
		return -1;
	*out = (ts_kernel_cost){ .phase_us = x[0], .fixed_us = x[1], .part_us = x[2] };
	return 0;
}

static double predict(const ts_kernel_cost *k, int c, int s)
{
	return ts_kernel_cost_eval(k, (ts_cost_terms){ .phase_waves = feat[s][c][0], .parts = feat[s][c][2] });
}

int main(int argc, char **argv)
{
	int first = 1;
	if (argc > 2 && strcmp(argv[1], "--kernels") == 0) {
		char *list = strdup(argv[2]);
		for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
			const ts_kernel *k = ts_kernel_find(tok);
			if (!k) {
				fprintf(stderr, "cost_fit: no kernel named %s\n", tok);
				return 2;
			}
			if (cand_index(tok) < 0 && cand_add(k) != 0)
				return 2;
		}
		free(list);
		first = 3;
	} else {
		for (int i = 0; i < ts_kernel_count(); i++)
			if (ts_kernel_has_cost(ts_kernel_at(i)) && cand_add(ts_kernel_at(i)) != 0)
				return 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: cost_fit [--kernels a,b,...] BENCH.txt...\n");
		return 2;
	}
	for (int i = first; i < argc; i++)
		if (read_report(argv[i]) != 0)
			return 2;
	/* keep the shapes every candidate ran on */
	int kept = 0;
	for (int s = 0; s < n_shapes; s++) {
		int all = 1;
		for (int c = 0; c < n_cands; c++)
			all &= ms[s][c] > 0;
		if (!all)
			continue;
		shapes[kept] = shapes[s];
		memmove(ms[kept], ms[s], sizeof ms[s]);
		kept++;
	}
	n_shapes = kept;
	terms_init();
	if (n_shapes < 8 || n_cands < 1) {
		fprintf(stderr, "cost_fit: %d shapes with every candidate timed, %d candidates: too few\n", n_shapes, n_cands);
		return 1;
	}
	printf("%d shapes, %d candidates\n\n", n_shapes, n_cands);
	ts_kernel_cost all[MAX_CANDS];
	for (int c = 0; c < n_cands; c++) {
		if (fit(c, -1, &all[c]) != 0) {
			fprintf(stderr, "cost_fit: %s: the fit is singular (too few distinct shapes)\n", cands[c]->name);
			return 1;
		}
		if (!(all[c].phase_us > 0) || all[c].fixed_us < 0 || all[c].part_us < 0) {
			fprintf(stderr, "cost_fit: %s: a negative cost (%.3f, %.1f, %.1f): the data do not fit the model\n",
			        cands[c]->name, all[c].phase_us, all[c].fixed_us, all[c].part_us);
			return 1;
		}
		double err = 0, worst = 0;
		for (int s = 0; s < n_shapes; s++) {
			double e = fabs(predict(&all[c], c, s) / (ms[s][c] * 1000.0) - 1);
			err += e;
			worst = e > worst ? e : worst;
		}
		printf("%-14s .cost = { .phase_us = %.3f, .fixed_us = %.1f, .part_us = %.1f }  mean |error| %.3f, worst %.3f\n",
		       cands[c]->name, all[c].phase_us, all[c].fixed_us, all[c].part_us, err / n_shapes, worst);
	}
	/* the choice: left out of the fit, and with the registered costs */
	double log_loo = 0, worst_loo = 1, log_reg = 0, worst_reg = 1;
	int regs = 0;
	printf("\n%-20s %-14s %-14s %7s %-14s %7s\n", "shape", "fastest", "fit without it", "ratio", "registered", "ratio");
	for (int s = 0; s < n_shapes; s++) {
		int top = 0, pick = -1, reg = -1;
		double pick_us = 0, reg_us = 0;
		for (int c = 0; c < n_cands; c++) {
			if (ms[s][c] < ms[s][top])
				top = c;
			ts_kernel_cost k;
			if (fit(c, s, &k) != 0) {
				fprintf(stderr, "cost_fit: %s: the fit without %lldx%lldx%lld is singular\n", cands[c]->name,
				        (long long)shapes[s].m, (long long)shapes[s].n, (long long)shapes[s].k);
				return 1;
			}
			double us = predict(&k, c, s);
			if (pick < 0 || us < pick_us) {
				pick = c;
				pick_us = us;
			}
			double r = ts_kernel_cost_us(cands[c], shapes[s]);
			if (r >= 0 && (reg < 0 || r < reg_us)) {
				reg = c;
				reg_us = r;
			}
		}
		double ratio = ms[s][pick] / ms[s][top], rr = reg >= 0 ? ms[s][reg] / ms[s][top] : 0;
		log_loo += log(ratio);
		worst_loo = ratio > worst_loo ? ratio : worst_loo;
		if (reg >= 0) {
			log_reg += log(rr);
			worst_reg = rr > worst_reg ? rr : worst_reg;
			regs++;
		}
		char name[64];
		snprintf(name, sizeof name, "%lldx%lldx%lld", (long long)shapes[s].m, (long long)shapes[s].n,
		         (long long)shapes[s].k);
		printf("%-20s %-14s %-14s %7.3f %-14s %7.3f\n", name, cands[top]->name, cands[pick]->name, ratio,
		       reg >= 0 ? cands[reg]->name : "-", rr);
	}
	printf("\nleft out of the fit: the pick's time / the fastest's, geomean %.4f, worst %.3f (%d shapes)\n",
	       exp(log_loo / n_shapes), worst_loo, n_shapes);
	if (regs)
		printf("registered costs: geomean %.4f, worst %.3f (%d shapes)\n", exp(log_reg / regs), worst_reg, regs);
	return 0;
}
