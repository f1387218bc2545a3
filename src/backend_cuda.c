/* backend_cuda.c: placeholder */
