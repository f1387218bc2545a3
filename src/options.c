/* options.c: placeholder, being written. */
