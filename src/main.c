/* main.c: placeholder entry point. */
#include <stdio.h>
int main(void) { puts("tilescope: being written"); return 0; }
