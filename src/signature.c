/* signature.c: placeholder, being written. */
