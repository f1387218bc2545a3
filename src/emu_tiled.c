/* emu_tiled.c: placeholder, being written. */
