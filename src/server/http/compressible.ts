/**
 * The kinds of built file worth compressing: the build writes `.br` and `.gz`
 * beside each (scripts/precompress.ts) and the server answers them varying on
 * Accept-Encoding (spa.ts). One list, so the two never disagree.
 */
export const COMPRESSIBLE_FILE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
