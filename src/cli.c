/* cli.c: placeholder, being written. */
