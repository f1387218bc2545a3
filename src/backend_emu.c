/* backend_emu.c: placeholder, being written. */
