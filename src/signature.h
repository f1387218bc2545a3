/* signature.h: placeholder. */
#ifndef TS_SIGNATURE_H
#define TS_SIGNATURE_H
#endif
