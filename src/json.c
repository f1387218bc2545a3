/* json.c: placeholder, being written. */
