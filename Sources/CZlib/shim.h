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

/* A zlib stream (a header with the preset dictionary's checksum, and the data's checksum at the end), for deltas
   against a preset dictionary, with a window of 2^window_bits bytes (9 to 15) and 2^(mem_level + 9) bytes of
   hash tables (1 to 9). */
static inline int czlib_deflate_init_zlib(z_streamp stream, int level, int window_bits, int mem_level) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, mem_level, Z_DEFAULT_STRATEGY);
}

/* Reads a zlib stream of any window up to 2^15 bytes (its header says which). */
static inline int czlib_inflate_init_zlib(z_streamp stream) {
    return inflateInit2(stream, 15);
}
