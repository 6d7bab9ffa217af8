/* cumapz_cases.c: built-in access descriptions: Kim & Shrivastava's examples, transpose,
 * stencil loaders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cumapz.h"
#include "error.h"

/* The texts are the JSON form of doc/memory-analysis.md with ' for " (the descriptions use no
 * apostrophes); cls_cumapz_case_json turns them into JSON.  Sizes are reduced from the
 * documents' (Kim & Shrivastava, Sect. 7: the ranking holds on a reduced input) and chosen so that
 * row pitches keep the documents' channel pattern where it matters. */

/* --------------------------------------------------- Kim & Shrivastava, Fig. 1 and 2, Sect. 3 */

/* Fig. 2: out[row*MAX+col] = in[row*MAX+col] * in[row*MAX+col+1] * in[row*MAX+col+2] with
 * s_in[S1][S2] = in[row*MAX+col+F] fetched by every work-item before the boundary check of
 * Fig. 1 line 4.  With that order the counts of Table I come out exactly (see
 * doc/memory-analysis.md).  The document's MAX x MAX grid is reduced to ROWS rows of MAX
 * elements: MAX 1024 keeps the rows a multiple of the 8 x 256-byte channel interleave and the
 * boundary work-groups outside the first n_blk_to_check (Eq. 4), as at MAX 16384. */
#define FIG2_KERNEL                                                                               \
    "'kernel': {"                                                                                 \
    " 'params': {'MAX': 1024, 'ROWS': 256, 'F': 0, 'PAD': 0},"                                    \
    " 'let': {'row': 'by*bdy+ty', 'col': 'bx*bdx+tx', 'S1': 'tx', 'S2': 'ty',"                    \
    "         'OUT': 'row*MAX+col'},"                                                             \
    " 'block': [16, 16],"                                                                         \
    " 'grid': ['MAX/16', 'ROWS/16'],"                                                             \
    " 'arrays': {'in': {'elem_size': 4, 'elements': 'ROWS*MAX+2',"                                \
    "                   'note': 'Fig. 2 fetches two elements past the last row'},"                \
    "            'out': {'elem_size': 4, 'elements': 'MAX*MAX'}},"                                \
    " 'buffers': {'s_in': {'elem_size': 4, 'dims': [16, '16+PAD']}},"                             \
    " 'body': ["                                                                                  \
    "  {'fetch': 's_in[S1][S2] = in[row*MAX+col+F]', 'note': 'Fig. 2 line 7'},"                   \
    "  {'if': 'col < MAX-2', 'note': 'Fig. 1 line 4', 'then': ["                                  \
    "   {'read': 'in[row*MAX+col]'},"                                                             \
    "   {'read': 'in[row*MAX+col+1]'},"                                                           \
    "   {'read': 'in[row*MAX+col+2]'},"                                                           \
    "   {'write': 'out[OUT]'}]}]}"

/* Fig. 1: the same kernel without shared memory. */
#define FIG1_BODY                                                                                 \
    "'buffers': {}, 'body': ["                                                                    \
    " {'if': 'col < MAX-2', 'then': ["                                                            \
    "  {'read': 'in[row*MAX+col]'}, {'read': 'in[row*MAX+col+1]'},"                               \
    "  {'read': 'in[row*MAX+col+2]'}, {'write': 'out[OUT]'}]}]"

#define FIG2_SOURCE                                                                               \
    "'source': 'Kim & Shrivastava, Fig. 1, Fig. 2, Sect. 3 (Tesla C1060, 16384 x 16384; "         \
    "here 256 rows of 1024: 4096-byte rows keep the pattern of 8 channels x 256 bytes)',"

static const char fig2_fetch[] =
    "{'name': 'fig2-fetch',"
    " 'description': 'Which reference of Fig. 1 to fetch into shared memory (Kim & Shrivastava, "
    "Sect. 3.1, Table I): s_in[tx][ty] = in[row*MAX+col+F] for F = 0, 1, 2, read column-wise as "
    "in Fig. 2; none is Fig. 1 without shared memory.',"
    FIG2_SOURCE FIG2_KERNEL ","
    " 'variants': ["
    "  {'name': 'none', 'description': 'Fig. 1: no shared memory', " FIG1_BODY "},"
    "  {'name': 'col', 'description': 'fetch row*MAX+col', 'params': {'F': 0}},"
    "  {'name': 'col+1', 'description': 'fetch row*MAX+col+1 (the most reuse)',"
    "   'params': {'F': 1}},"
    "  {'name': 'col+2', 'description': 'fetch row*MAX+col+2', 'params': {'F': 2}}]}";

/* Table II: column-wise s_in[tx][ty], row-wise s_in[ty][tx], and column-wise into s_in[16][17]. */
#define LAYOUT_VARIANT(nm, f, what, s1, s2, pad)                                                  \
    "{'name': '" nm "', 'description': 'fetch row*MAX+col+" #f ", " what "',"                     \
    " 'params': {'F': " #f ", 'PAD': " #pad "}, 'let': {'S1': '" s1 "', 'S2': '" s2 "'}}"

static const char fig2_layout[] =
    "{'name': 'fig2-layout',"
    " 'description': 'How to access shared memory (Kim & Shrivastava, Sect. 3.2, Table II): each "
    "fetch choice of Sect. 3.1 with the buffer written and read column-wise (cw, s_in[tx][ty]), "
    "row-wise (rw, s_in[ty][tx]) or column-wise into a 16x17 array (pad).',"
    FIG2_SOURCE FIG2_KERNEL ","
    " 'variants': ["
    LAYOUT_VARIANT("col-cw", 0, "column-wise", "tx", "ty", 0) ","
    LAYOUT_VARIANT("col-rw", 0, "row-wise", "ty", "tx", 0) ","
    LAYOUT_VARIANT("col-pad", 0, "column-wise into 16x17", "tx", "ty", 1) ","
    LAYOUT_VARIANT("col+1-cw", 1, "column-wise", "tx", "ty", 0) ","
    LAYOUT_VARIANT("col+1-rw", 1, "row-wise", "ty", "tx", 0) ","
    LAYOUT_VARIANT("col+1-pad", 1, "column-wise into 16x17", "tx", "ty", 1) ","
    LAYOUT_VARIANT("col+2-cw", 2, "column-wise", "tx", "ty", 0) ","
    LAYOUT_VARIANT("col+2-rw", 2, "row-wise", "ty", "tx", 0) ","
    LAYOUT_VARIANT("col+2-pad", 2, "column-wise into 16x17", "tx", "ty", 1) "]}";

/* Table III: the write of Fig. 2 row-wise (out[row*MAX+col]) or column-wise (out[col*MAX+row]),
 * shared memory read row-wise throughout. */
#define WRITE_VARIANT(nm, f, out, what)                                                           \
    "{'name': '" nm "', 'description': 'fetch row*MAX+col+" #f ", " what "',"                     \
    " 'params': {'F': " #f "}, 'let': {'S1': 'ty', 'S2': 'tx', 'OUT': '" out "'}}"

static const char fig2_write[] =
    "{'name': 'fig2-write',"
    " 'description': 'How to access global memory (Kim & Shrivastava, Sect. 3.3, Table III): the "
    "write of Fig. 2 row-wise (rw, out[row*MAX+col]) or column-wise (cw, out[col*MAX+row]); "
    "shared memory is read row-wise.',"
    FIG2_SOURCE FIG2_KERNEL ","
    " 'variants': ["
    "  {'name': 'none-rw', 'description': 'Fig. 1, row-wise write', 'let': {'OUT': 'row*MAX+col'}, "
    FIG1_BODY "},"
    "  {'name': 'none-cw', 'description': 'Fig. 1, column-wise write', 'let': {'OUT': "
    "'col*MAX+row'}, " FIG1_BODY "},"
    WRITE_VARIANT("col-rw", 0, "row*MAX+col", "row-wise write") ","
    WRITE_VARIANT("col-cw", 0, "col*MAX+row", "column-wise write") ","
    WRITE_VARIANT("col+1-rw", 1, "row*MAX+col", "row-wise write") ","
    WRITE_VARIANT("col+1-cw", 1, "col*MAX+row", "column-wise write") ","
    WRITE_VARIANT("col+2-rw", 2, "row*MAX+col", "row-wise write") ","
    WRITE_VARIANT("col+2-cw", 2, "col*MAX+row", "column-wise write") "]}";

/* ---------------------------------------------------------------- matrix transpose */

#define TRANSPOSE_NAIVE                                                                           \
    "'buffers': {}, 'body': [{'loop': 'i', 'count': 4, 'body': ["                                 \
    " {'read': 'idata[by*32+ty+8*i][bx*32+tx]'},"                                                 \
    " {'write': 'odata[bx*32+tx][by*32+ty+8*i]'}]}]"

static const char transpose[] =
    "{'name': 'transpose',"
    " 'description': 'Transpose of an N x N float matrix in 32x32 tiles by 32x8 work-groups, "
    "four elements per work-item (Kim & Shrivastava, Sect. 6.1, Fig. 8(b),(d)): naive (coalesced "
    "reads, strided writes), tiled through shared memory (bank conflicts on the column read), "
    "tiles padded to 32x33, and the diagonal block order against channel skew.',"
    " 'source': 'Kim & Shrivastava, Sect. 6.1, Table IV (2048x2048 there, 1024 here); "
    "Ruetsch and Micikevicius, Optimizing matrix transpose in CUDA (2009)',"
    " 'kernel': {"
    "  'params': {'N': 1024, 'PAD': 0},"
    "  'block': [32, 8],"
    "  'grid': ['N/32', 'N/32'],"
    "  'arrays': {'idata': {'elem_size': 4, 'dims': ['N', 'N']},"
    "             'odata': {'elem_size': 4, 'dims': ['N', 'N']}},"
    "  'buffers': {'tile': {'elem_size': 4, 'dims': [32, '32+PAD']}},"
    "  'body': ["
    "   {'loop': 'i', 'count': 4, 'body': ["
    "    {'fetch': 'tile[ty+8*i][tx] = idata[by*32+ty+8*i][bx*32+tx]'}]},"
    "   {'loop': 'i', 'count': 4, 'body': ["
    "    {'read': 'idata[by*32+tx][bx*32+ty+8*i]', 'note': 'served by tile[tx][ty+8*i]'},"
    "    {'write': 'odata[bx*32+ty+8*i][by*32+tx]'}]}]},"
    " 'variants': ["
    "  {'name': 'naive', 'description': 'odata[x][y] = idata[y][x], no shared memory', "
    TRANSPOSE_NAIVE "},"
    "  {'name': 'naive-diag', 'description': 'naive in diagonal block order', "
    "'block_order': 'diagonal', " TRANSPOSE_NAIVE "},"
    "  {'name': 'tiled', 'description': 'coalesced through a 32x32 tile'},"
    "  {'name': 'padded', 'description': 'tile padded to 32x33', 'params': {'PAD': 1}},"
    "  {'name': 'diag', 'description': 'padded tile, diagonal block order', 'params': {'PAD': 1},"
    " 'block_order': 'diagonal'},"
    "  {'name': 'diag-conflicts', 'description': '32x32 tile, diagonal block order',"
    " 'block_order': 'diagonal'}]}";

/* ---------------------------------------------------------------- stencils with local memory */

/* Grids with a one-point halo and rows padded by 32 elements on each side, so that the interior
 * of every row starts 128-byte aligned (Mo & Li, Sect. 4.3) and the aligned loader's 8-element
 * ghost columns stay inside the array.  The local tile of the classic loader is (BX+2) x (BY+2)
 * with strides SX (along x) and SY (along y): row-major (CM 0) or column-major (CM 1), PAD extra
 * elements in the fast dimension. */
#define STENCIL_TILE_PARAMS                                                                       \
    "'PAD': 0, 'CM': 0,"                                                                          \
    " 'TW': '(BX+2)+PAD*(1-CM)', 'TH': '(BY+2)+PAD*CM',"                                          \
    " 'SX': 'CM*TH+(1-CM)', 'SY': '(1-CM)*TW+CM'"

/* Mo & Li, Listing 3: a 32x6 work-group seen as 48x4 loads a 48x8 tile in two rows of fetches. */
#define ALIGNED_TILE_PARAMS                                                                       \
    "'TW': '48+PAD*(1-CM)', 'TH': '8+PAD*CM', 'SX': 'CM*TH+(1-CM)', 'SY': '(1-CM)*TW+CM'"

#define STENCIL2D_READS                                                                           \
    "{'read': 'in[C]'}, {'read': 'in[C-1]'}, {'read': 'in[C+1]'},"                                \
    " {'read': 'in[C-P]'}, {'read': 'in[C+P]'}, {'write': 'out[C]'}"

#define ALIGNED2D(nm, what, cm, pad)                                                              \
    "{'name': '" nm "', 'description': 'aligned loader (Mo & Li, Listing 3), 32x6, " what "',"    \
    " 'params': {'BX': 32, 'BY': 6, 'CM': " #cm ", 'PAD': " #pad ", " ALIGNED_TILE_PARAMS "},"    \
    " 'buffers': {'sh': {'elem_size': 4, 'elements': 'TW*TH'}},"                                  \
    " 'body': ["                                                                                  \
    "  {'fetch': 'sh[tx*SX+ty*SY] = in[O+(by*bdy+ty-1)*P+bx*bdx+tx-8]', 'view': [48, 4]},"        \
    "  {'fetch': 'sh[tx*SX+(ty+4)*SY] = in[O+(by*bdy+ty+3)*P+bx*bdx+tx-8]', 'view': [48, 4]},"    \
    "  " STENCIL2D_READS "]}"

#define CLASSIC2D(nm, what, bx, by, cm, pad)                                                      \
    "{'name': '" nm "', 'description': 'classic loader (Mo & Li, Listing 2), " what "',"          \
    " 'params': {'BX': " #bx ", 'BY': " #by ", 'CM': " #cm ", 'PAD': " #pad "}}"

static const char stencil2d[] =
    "{'name': 'stencil2d',"
    " 'description': '2D 5-point stencil through a local tile: the classic ghost-zone loader with "
    "conditional edge loads (Mo & Li, Listing 2) against the aligned loader without branches "
    "(Mo & Li, Listing 3), row- and column-major tiles, padding, work-group shapes.',"
    " 'source': 'Mo & Li, Sect. 4.1-4.3, Listings 2 and 3 (in one plane)',"
    " 'kernel': {"
    "  'params': {'NX': 512, 'NY': 480, 'P': 'NX+64', 'O': 'P+32', 'BX': 16, 'BY': 16, "
    STENCIL_TILE_PARAMS "},"
    "  'let': {'gx': 'bx*bdx+tx', 'gy': 'by*bdy+ty', 'C': 'O+gy*P+gx'},"
    "  'block': ['BX', 'BY'],"
    "  'grid': ['NX/BX', 'NY/BY'],"
    "  'arrays': {'in': {'elem_size': 4, 'dims': ['NY+2', 'P']},"
    "             'out': {'elem_size': 4, 'dims': ['NY+2', 'P']}},"
    "  'buffers': {'sh': {'elem_size': 4, 'elements': 'TW*TH'}},"
    "  'body': ["
    "   {'fetch': 'sh[(tx+1)*SX+(ty+1)*SY] = in[C]', 'note': 'Listing 2 line 6'},"
    "   {'if': 'ty == 0', 'then': [{'fetch': 'sh[(tx+1)*SX] = in[C-P]'}]},"
    "   {'if': 'ty == bdy-1', 'then': [{'fetch': 'sh[(tx+1)*SX+(BY+1)*SY] = in[C+P]'}]},"
    "   {'if': 'tx == 0', 'then': [{'fetch': 'sh[(ty+1)*SY] = in[C-1]'}]},"
    "   {'if': 'tx == bdx-1', 'then': [{'fetch': 'sh[(BX+1)*SX+(ty+1)*SY] = in[C+1]'}]},"
    "   " STENCIL2D_READS "]},"
    " 'variants': ["
    CLASSIC2D("classic-16x16", "16x16", 16, 16, 0, 0) ","
    CLASSIC2D("classic-32x6", "32x6", 32, 6, 0, 0) ","
    CLASSIC2D("classic-32x8", "32x8", 32, 8, 0, 0) ","
    CLASSIC2D("classic-64x4", "64x4", 64, 4, 0, 0) ","
    CLASSIC2D("classic-16x16-cm", "16x16, column-major tile", 16, 16, 1, 0) ","
    CLASSIC2D("classic-16x16-cmp", "16x16, column-major tile padded", 16, 16, 1, 1) ","
    ALIGNED2D("aligned-32x6", "row-major tile", 0, 0) ","
    ALIGNED2D("aligned-32x6-cm", "column-major tile", 1, 0) ","
    ALIGNED2D("aligned-32x6-cmp", "column-major tile padded", 1, 1) "]}";

/* 3D: a 2D work-group marches along z and loads one XY-tile per plane (Mo & Li, Sect. 4); the
 * plane behind comes from a register (Listing 1: the previous centre), the plane in front is one
 * global read per point; the kernel is cl/mapping_bench.cl's cls_mb_stencil3d. */
#define STENCIL3D_READS                                                                           \
    "{'read': 'in[C+PL]', 'note': 'the plane in front (the one behind is in a register)'},"     \
    " {'read': 'in[C]'}, {'read': 'in[C-1]'}, {'read': 'in[C+1]'},"                               \
    " {'read': 'in[C-P]'}, {'read': 'in[C+P]'}, {'write': 'out[C]'}"

#define ALIGNED3D(nm, what, cm, pad)                                                              \
    "{'name': '" nm "', 'description': 'aligned loader (Mo & Li, Listing 3), 32x6, " what "',"    \
    " 'params': {'BX': 32, 'BY': 6, 'CM': " #cm ", 'PAD': " #pad ", " ALIGNED_TILE_PARAMS "},"    \
    " 'buffers': {'sh': {'elem_size': 4, 'elements': 'TW*TH'}},"                                  \
    " 'body': [{'read': 'in[O-PL+(by*bdy+ty)*P+bx*bdx+tx]', 'note': 'first plane behind'},"     \
    "  {'loop': 'k', 'count': 'NZ', 'body': ["                                                    \
    "  {'fetch': 'sh[tx*SX+ty*SY] = in[O+k*PL+(by*bdy+ty-1)*P+bx*bdx+tx-8]', 'view': [48, 4]},"   \
    "  {'fetch': 'sh[tx*SX+(ty+4)*SY] = in[O+k*PL+(by*bdy+ty+3)*P+bx*bdx+tx-8]',"                \
    "   'view': [48, 4]},"                                                                        \
    "  " STENCIL3D_READS "]}]}"

#define CLASSIC3D(nm, what, bx, by, cm, pad)                                                      \
    "{'name': '" nm "', 'description': 'classic loader (Mo & Li, Listing 2), " what "',"          \
    " 'params': {'BX': " #bx ", 'BY': " #by ", 'CM': " #cm ", 'PAD': " #pad "}}"

static const char stencil3d[] =
    "{'name': 'stencil3d',"
    " 'description': '3D 7-point stencil marching a 2D work-group along z with one XY-tile in "
    "local memory per plane (Mo & Li, Sect. 4): the classic loader with edge loads in "
    "branches (Listing 2; a 7-point stencil needs no corners) against the aligned 48x8 loader "
    "(Listing 3), tile layouts, padding and "
    "work-group shapes.  The plane behind lives in a register, the plane in front is read per "
    "point (cl/mapping_bench.cl cls_mb_stencil3d).',"
    " 'source': 'Mo & Li, Sect. 4.1-4.3, Listings 1-3 (Tesla C2050; NZ reduced "
    "to 4 planes, each plane repeats the pattern)',"
    " 'kernel': {"
    "  'params': {'NX': 256, 'NY': 240, 'NZ': 4, 'P': 'NX+64', 'PL': '(NY+2)*P', 'O': 'PL+P+32',"
    "             'BX': 32, 'BY': 6, " STENCIL_TILE_PARAMS "},"
    "  'let': {'gx': 'bx*bdx+tx', 'gy': 'by*bdy+ty', 'C': 'O+k*PL+gy*P+gx'},"
    "  'block': ['BX', 'BY'],"
    "  'grid': ['NX/BX', 'NY/BY'],"
    "  'arrays': {'in': {'elem_size': 4, 'dims': ['NZ+2', 'NY+2', 'P']},"
    "             'out': {'elem_size': 4, 'dims': ['NZ+2', 'NY+2', 'P']}},"
    "  'buffers': {'sh': {'elem_size': 4, 'elements': 'TW*TH'}},"
    "  'body': [{'read': 'in[O-PL+(by*bdy+ty)*P+bx*bdx+tx]', 'note': 'first plane behind'},"
    "   {'loop': 'k', 'count': 'NZ', 'body': ["
    "   {'fetch': 'sh[(tx+1)*SX+(ty+1)*SY] = in[C]', 'note': 'Listing 2 line 6'},"
    "   {'if': 'ty == 0', 'then': [{'fetch': 'sh[(tx+1)*SX] = in[C-P]'}]},"
    "   {'if': 'ty == bdy-1', 'then': [{'fetch': 'sh[(tx+1)*SX+(BY+1)*SY] = in[C+P]'}]},"
    "   {'if': 'tx == 0', 'then': [{'fetch': 'sh[(ty+1)*SY] = in[C-1]'}]},"
    "   {'if': 'tx == bdx-1', 'then': [{'fetch': 'sh[(BX+1)*SX+(ty+1)*SY] = in[C+1]'}]},"
    "   " STENCIL3D_READS "]}]},"
    " 'variants': ["
    CLASSIC3D("classic-32x6", "32x6", 32, 6, 0, 0) ","
    CLASSIC3D("classic-16x16", "16x16", 16, 16, 0, 0) ","
    CLASSIC3D("classic-32x8", "32x8", 32, 8, 0, 0) ","
    CLASSIC3D("classic-32x6-cm", "32x6, column-major tile", 32, 6, 1, 0) ","
    ALIGNED3D("aligned-32x6", "row-major tile", 0, 0) ","
    ALIGNED3D("aligned-32x6-cm", "column-major tile", 1, 0) ","
    ALIGNED3D("aligned-32x6-cmp", "column-major tile padded", 1, 1) "]}";

/* ---------------------------------------------------------------- the table */

typedef struct cumapz_case {
    const char *name;
    const char *summary;
    const char *text;
} cumapz_case;

static const cumapz_case cases[] = {
    {"fig2-fetch", "Kim & Shrivastava, Sect. 3.1: which reference to fetch (Table I)", fig2_fetch},
    {"fig2-layout",
     "Kim & Shrivastava, Sect. 3.2: column-wise, row-wise, padded shared access (Table II)",
     fig2_layout},
    {"fig2-write", "Kim & Shrivastava, Sect. 3.3: row- vs column-wise global writes (Table III)",
     fig2_write},
    {"transpose", "matrix transpose: naive, tiled, padded, diagonal (Kim & Shrivastava, Sect. 6.1)",
     transpose},
    {"stencil2d", "2D 5-point: classic vs aligned loaders, layouts, shapes (Mo & Li, Sect. 4)",
     stencil2d},
    {"stencil3d",
     "3D 7-point march: classic vs aligned loaders, layouts, shapes (Mo & Li, Sect. 4)",
     stencil3d},
};
#define N_CASES (sizeof cases / sizeof cases[0])

size_t cls_cumapz_case_count(void) { return N_CASES; }

const char *cls_cumapz_case_name(size_t i) { return i < N_CASES ? cases[i].name : NULL; }

const char *cls_cumapz_case_summary(size_t i) { return i < N_CASES ? cases[i].summary : NULL; }

cls_status cls_cumapz_case_json(const char *name, char **json)
{
    char names[512];
    size_t len = 0;
    if (json) *json = NULL;
    if (!name || !json)
        return cls__error(CLS_ERR_INVALID_ARGUMENT, "cls_cumapz_case_json: NULL argument");
    for (size_t i = 0; i < N_CASES; i++) {
        size_t n;
        char *out;
        if (strcmp(cases[i].name, name) != 0) continue;
        n = strlen(cases[i].text);
        out = malloc(n + 1);
        if (!out) return cls__error(CLS_ERR_OUT_OF_HOST_MEMORY, "out of memory");
        for (size_t k = 0; k <= n; k++) out[k] = cases[i].text[k] == '\'' ? '"' : cases[i].text[k];
        *json = out;
        return CLS_SUCCESS;
    }
    names[0] = '\0';
    for (size_t i = 0; i < N_CASES && len < sizeof names; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, " %s", cases[i].name);
    return cls__error(CLS_ERR_INVALID_ARGUMENT, "unknown case '%.60s' (built-in:%s)", name, names);
}
