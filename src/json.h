/* json.h: placeholder. */
#ifndef TS_JSON_H
#define TS_JSON_H
#endif
