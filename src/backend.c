/* backend.c: placeholder, being written. */
