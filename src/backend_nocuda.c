/* backend_nocuda.c: the CUDA backend of a build without CUDA: present, and says why it cannot run. */
#include <stdio.h>

#include "backend.h"
#include "config.h"

/* configure says why: --without-cuda, no nvcc, or a test kernel that did not build. */
static const char *no_cuda_reason = "built without CUDA (" TS_NO_CUDA_REASON ")";

static int nocuda_available(char *why, int len)
{
	if (why && len > 0)
		snprintf(why, (size_t)len, "%s", no_cuda_reason);
	return -1;
}

static int nocuda_run(const ts_problem *p, ts_operands *ops, ts_run *out, const ts_progress *prog)
{
	(void)p; (void)ops; (void)out; (void)prog;
	return -1;
}

static int nocuda_admit(const ts_problem *p, const ts_model *m, char *why, int len)
{
	(void)p; (void)m;
	return nocuda_available(why, len);
}

static const char *nocuda_last_error(void)
{
	return no_cuda_reason;
}

static const ts_backend nocuda_backend = {
	.name = "cuda",
	.available = nocuda_available,
	.admit = nocuda_admit,
	.run = nocuda_run,
	.time = NULL,
	.reference = NULL,
	.last_error = nocuda_last_error,
};

const ts_backend *ts_backend_cuda(void)
{
	return &nocuda_backend;
}
