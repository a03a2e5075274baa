/* kinds.c -- the table of event kinds (ref/result/kinds.c) against the
 * list docs/cli.md gives users: the same names in the same order, and
 * only the crossing a kind a candidate need not show */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include "result.h"

/* The names docs/cli.md lists after "`kind` is one of", up to the
   colon after the last ("... and `crossing`: a relation ..."), in order;
   returns how many (at most max). */
static int
documented_kinds(char names[][32], int max)
{
    FILE *f = fopen("docs/cli.md", "r");
    cr_assert_not_null(f, "docs/cli.md (tests run from the top folder)");
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    const char *p = strstr(text, "`kind` is one of");
    cr_assert_not_null(p, "docs/cli.md no longer lists the event kinds");
    const char *end = strstr(p, "`:");
    cr_assert_not_null(end);
    end++; /* the closing quote of the last name */
    int n = 0;
    for (p += strlen("`kind` is one of");; p++) {
        p = strchr(p, '`');
        if (p == NULL || p > end)
            break;
        const char *q = strchr(p + 1, '`');
        cr_assert_not_null(q);
        cr_assert_lt(n, max);
        cr_assert_lt(q - p - 1, 32);
        memcpy(names[n], p + 1, (size_t)(q - p - 1));
        names[n][q - p - 1] = '\0';
        n++;
        p = q;
    }
    return n;
}

Test(result_kinds, table_is_the_documented_list)
{
    char names[16][32];
    int n = documented_kinds(names, 16);
    cr_assert_eq(n, 7);
    cr_assert_eq(n, HDO_EV_NKINDS, "docs/cli.md lists %d kinds, the table %d",
                 n, (int)HDO_EV_NKINDS);
    for (int k = 0; k < n; k++) {
        cr_expect_str_eq(hdo_event_kind_name((hdo_event_kind)k), names[k]);
        cr_expect_eq(hdo_event_kind_lookup(names[k]), k);
        /* docs/cli.md: hdo check does not expect crossings from a
           candidate; every other kind is a jump it must show */
        cr_expect_eq(hdo_event_kind_shown((hdo_event_kind)k),
                     strcmp(names[k], "crossing") != 0, "%s", names[k]);
    }
}

/* The values are public (hdo_event.kind): the first kind is 0 and the
   crossing, the last added, 6; new kinds are appended. */
Test(result_kinds, values_and_outsiders)
{
    cr_expect_eq(HDO_EV_SWITCH, 0);
    cr_expect_eq(HDO_EV_CROSSING, 6);
    cr_expect_str_eq(hdo_event_kind_name(HDO_EV_REINIT_ADJUSTED),
                     "reinit-adjusted");
    cr_expect_str_eq(hdo_event_kind_name((hdo_event_kind)-1), "?");
    cr_expect_str_eq(hdo_event_kind_name((hdo_event_kind)HDO_EV_NKINDS), "?");
    cr_expect_eq(hdo_event_kind_lookup("Switch"), -1);
    cr_expect_eq(hdo_event_kind_lookup(""), -1);
    cr_expect_eq(hdo_event_kind_lookup("crossing "), -1);
    cr_expect_eq(hdo_event_kind_shown((hdo_event_kind)HDO_EV_NKINDS), 0);
}
