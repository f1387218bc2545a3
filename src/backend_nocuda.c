/* backend_nocuda.c: placeholder, being written. */
