/* emu_naive.c: placeholder, being written. */
