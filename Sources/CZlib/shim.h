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

/* A zlib stream (window bits 15: a header with the preset dictionary's checksum, and the data's checksum at the
   end), for deltas against a preset dictionary. */
static inline int czlib_deflate_init_zlib(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
}

/* Reads a zlib stream (window bits 15). */
static inline int czlib_inflate_init_zlib(z_streamp stream) {
    return inflateInit2(stream, 15);
}
