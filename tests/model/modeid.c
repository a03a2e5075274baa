/* modeid.c -- the mode ids of model.h (ref/model/modeid.c): the id of a
 * model mode, a sliding pair and a sliding cube, their names and the
 * names' inverse, against the arithmetic n + a n + b and n + n^2 + mask
 * written out here, and the limit of HDO_MODE_ID_MAXMODES = 62 modes on
 * both sides of it */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "../model_util.h"

/* A model of n modes m0 .. m(n-1), each der(x) = 0. */
static void
modes_model(hdo_model_t model, int n)
{
    size_t size = 64 + 40 * (size_t)n, len = 0;
    char *text = malloc(size);
    cr_assert(text != NULL);
    len += (size_t)snprintf(text + len, size - len, "model ids\nvar x = 0\n");
    for (int q = 0; q < n; q++)
        len += (size_t)snprintf(text + len, size - len,
                                "mode m%d\n  der(x) = 0\nend\n", q);
    snprintf(text + len, size - len, "start m0 at 0\nuntil 1\n");
    tm_parse(model, text);
    free(text);
}

Test(modeid, three_modes)
{
    hdo_model_t model;
    char name[128];
    slong n = 3, a, b;
    modes_model(model, 3);
    for (slong m = 0; m < n; m++) {
        cr_expect_eq(hdo_mode_id_kind_of(model, m), HDO_MODE_ID_MODEL);
        cr_expect_eq(hdo_mode_id_mask(model, m), (uint64_t)1 << m);
        cr_expect_eq(hdo_mode_id_family(model, m), m);
        hdo_mode_name(name, sizeof name, model, m);
        cr_expect_eq(hdo_find_mode_name(model, name), m);
    }
    /* the pair (2, 1): n + 2 n + 1 = 10 */
    slong p = hdo_mode_id_pair(model, 2, 1);
    cr_expect_eq(p, 10);
    cr_expect_eq(hdo_mode_id_kind_of(model, p), HDO_MODE_ID_PAIR);
    hdo_mode_id_pair_of(&a, &b, model, p);
    cr_expect(a == 2 && b == 1);
    cr_expect_eq(hdo_mode_id_mask(model, p), 6);
    cr_expect_eq(hdo_mode_id_family(model, p), p);
    hdo_mode_name(name, sizeof name, model, p);
    cr_expect_str_eq(name, "sliding(m2,m1)");
    cr_expect_eq(hdo_find_mode_name(model, "sliding(m2,m1)"), p);
    /* pairs fill n .. n + n^2 - 1; cubes follow: n + n^2 + mask */
    cr_expect_eq(hdo_mode_id_kind_of(model, n + n * n - 1), HDO_MODE_ID_PAIR);
    slong c = hdo_mode_id_cube(model, 7);
    cr_expect_eq(c, 3 + 9 + 7);
    cr_expect_eq(hdo_mode_id_kind_of(model, c), HDO_MODE_ID_CUBE);
    cr_expect_eq(hdo_mode_id_mask(model, c), 7);
    cr_expect_eq(hdo_mode_id_family(model, c), c);
    hdo_mode_name(name, sizeof name, model, c);
    cr_expect_str_eq(name, "sliding(m0,m1,m2)");
    /* past the last cube (mask < 2^n) and below 0: no mode */
    cr_expect_eq(hdo_mode_id_kind_of(model, 3 + 9 + 8), HDO_MODE_ID_NONE);
    cr_expect_eq(hdo_mode_id_kind_of(model, -1), HDO_MODE_ID_NONE);
    cr_expect_eq(hdo_mode_id_mask(model, -1), 0);
    hdo_mode_name(name, sizeof name, model, -1);
    cr_expect_str_eq(name, "?");
    /* a cube's names come in file order, once, four of them or more */
    cr_expect_eq(hdo_find_mode_name(model, "sliding(m1,m0,m2)"), -1);
    cr_expect_eq(hdo_find_mode_name(model, "sliding(m0,m1,m2,m3)"), -1);
    cr_expect_eq(hdo_find_mode_name(model, "nowhere"), -1);
    hdo_model_clear(model);
}

/* 62 modes have cube ids, 63 do not (their masks would not fit the id's
   arithmetic in 64 bits). */
Test(modeid, maxmodes_boundary)
{
    hdo_model_t model;
    char name[1024];
    modes_model(model, HDO_MODE_ID_MAXMODES);
    slong n = HDO_MODE_ID_MAXMODES;
    uint64_t mask = ((uint64_t)1 << 61) | 15;
    slong c = hdo_mode_id_cube(model, mask);
    cr_expect_eq(c, n + n * n + (slong)mask);
    cr_expect_eq(hdo_mode_id_kind_of(model, c), HDO_MODE_ID_CUBE);
    hdo_mode_name(name, sizeof name, model, c);
    cr_expect_str_eq(name, "sliding(m0,m1,m2,m3,m61)");
    cr_expect_eq(hdo_find_mode_name(model, name), c);
    hdo_model_clear(model);

    modes_model(model, HDO_MODE_ID_MAXMODES + 1);
    n = HDO_MODE_ID_MAXMODES + 1;
    cr_expect_eq(hdo_mode_id_kind_of(model, n + n * n + 15), HDO_MODE_ID_NONE);
    cr_expect_eq(hdo_find_mode_name(model, "sliding(m0,m1,m2,m3)"), -1);
    /* pairs have no such limit */
    cr_expect_eq(hdo_find_mode_name(model, "sliding(m62,m0)"),
                 hdo_mode_id_pair(model, 62, 0));
    hdo_model_clear(model);
}
