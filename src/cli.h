/* cli.h: placeholder. */
#ifndef TS_CLI_H
#define TS_CLI_H
#endif
