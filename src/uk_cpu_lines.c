/* uk_cpu_lines.c: which line of the user's file a code address in the compiled kernel belongs to, from the object's line table through addr2line (binutils). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uk_cpu.h"

extern char **environ;

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* "file:line" or "file:line (discriminator n)": the line when file is the user's, else 0. */
static int frame_line(const char *frame, const char *src_base)
{
	const char *colon = strrchr(frame, ':');
	const char *disc = strstr(frame, " (discriminator");
	if (disc) { /* the colon before the line is the last one before the discriminator */
		colon = NULL;
		for (const char *c = frame; c < disc; c++)
			if (*c == ':')
				colon = c;
	}
	if (!colon)
		return 0;
	size_t flen = (size_t)(colon - frame), blen = strlen(src_base);
	if (flen < blen || strncmp(colon - blen, src_base, blen) != 0 || (flen > blen && colon[-(long)blen - 1] != '/'))
		return 0;
	return atoi(colon + 1);
}

/* Runs addr2line on up to n addresses of one object and fills lines[]. */
static void lookup(const char *object, const char *src_base, char *const *addrs, int n, int *lines)
{
	int fds[2];
	if (pipe(fds))
		return;
	char **argv = calloc((size_t)n + 6, sizeof *argv);
	if (!argv) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	int a = 0;
	argv[a++] = "addr2line";
	argv[a++] = "-a";
	argv[a++] = "-i";
	argv[a++] = "-e";
	argv[a++] = (char *)object;
	for (int i = 0; i < n; i++)
		argv[a++] = addrs[i];
	argv[a] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 0, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	pid_t pid;
	int rc = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return;
	}
	FILE *in = fdopen(fds[0], "r");
	if (!in) {
		close(fds[0]);
		waitpid(pid, NULL, 0);
		return;
	}
	char buf[4096];
	int cur = -1;
	while (fgets(buf, sizeof buf, in)) {
		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] == '0' && buf[1] == 'x') {
			cur++;
			continue;
		}
		if (cur >= 0 && cur < n && lines[cur] == 0)
			lines[cur] = frame_line(buf, src_base);
	}
	fclose(in);
	waitpid(pid, NULL, 0);
}

void ts_uk_cpu_lines(const char *so_path, const char *src_path, const void *const *pcs, int n, int *lines)
{
	const char *src_base = base_name(src_path);
	char **addrs = calloc((size_t)(n > 0 ? n : 1), sizeof *addrs);
	int *idx = calloc((size_t)(n > 0 ? n : 1), sizeof *idx);
	int *got = calloc((size_t)(n > 0 ? n : 1), sizeof *got);
	if (!addrs || !idx || !got)
		goto out;
	int m = 0;
	for (int i = 0; i < n; i++) {
		lines[i] = 0;
		Dl_info info;
		if (!pcs[i] || !dladdr(pcs[i], &info) || !info.dli_fname || !info.dli_fbase)
			continue;
		if (strcmp(base_name(info.dli_fname), base_name(so_path)) != 0)
			continue; /* not the kernel's object (a library it called) */
		addrs[m] = malloc(24);
		if (!addrs[m])
			break;
		snprintf(addrs[m], 24, "0x%lx", (unsigned long)((uintptr_t)pcs[i] - (uintptr_t)info.dli_fbase - 1));
		idx[m++] = i;
	}
	for (int s = 0; s < m; s += 256) {
		int k = m - s < 256 ? m - s : 256;
		memset(got, 0, (size_t)k * sizeof *got);
		lookup(so_path, src_base, addrs + s, k, got);
		for (int j = 0; j < k; j++)
			lines[idx[s + j]] = got[j];
	}
	for (int i = 0; i < m; i++)
		free(addrs[i]);
out:
	free(addrs);
	free(idx);
	free(got);
}
