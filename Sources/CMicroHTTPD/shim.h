#ifndef SWITCHYARD_CMICROHTTPD_SHIM_H
#define SWITCHYARD_CMICROHTTPD_SHIM_H
// System headers microhttpd.h expects to be included first.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
