#include <zlib.h>

/* deflateInit2 is a macro, which Swift cannot import: start a gzip stream (window bits 15, plus 16 for the
   gzip header and trailer). */
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/* inflateInit2 is a macro too: read a gzip stream (window bits 15, plus 16: gzip only). */
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}
