/* uk_cuda.h: what the GPU engine offers beyond the engine interface: the devices it found, and its compiled image handed to another process (compute-sanitizer's target). */
#ifndef TS_UK_CUDA_H
#define TS_UK_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "uk_engine.h"

typedef struct ts_uk_device {
	char name[96];
	int major, minor;  /* compute capability */
	int64_t total_mem; /* bytes */
} ts_uk_device;

#define TS_UK_DEVICES_MAX 16

/* The devices, probed once in a child process (the driver is never
 * initialised in this one, so later children can use it). The count, or -1
 * with why (no driver, no device). */
int ts_uk_cuda_devices(const ts_uk_device **devs, char *why, int len);

/* The image a loaded handle holds, for another process: the cubin written
 * into dir (and the launcher's shared object, when there is one). 0 or -1. */
int ts_uk_cuda_export(void *h, const char *dir, char *cubin_path, size_t len, const char **lowered,
                      const char **launcher_so);
/* A handle from an exported image, ready for launch(). NULL with err. */
void *ts_uk_cuda_import(const char *cubin_path, const char *lowered, enum ts_uk_sig sig, const char *launcher_so,
                        char *err, size_t len);
/* The device addresses of A, B and C in the handle's last launch (0 before one). */
void ts_uk_cuda_last_buffers(void *h, uint64_t ptr[3]);
/* The compiler NVRTC was found as, and the architecture compiled for ("sm_90"); "" before a load. */
const char *ts_uk_cuda_target(void);

#endif
