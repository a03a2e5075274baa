/* temps.c -- the registry of temporary files that a signal or an
 * allocation failure removes (hdo_temp_register, hdo_temp_remove_all) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "process.h"

static void
touch(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL);
    fclose(f);
}

Test(process, temps)
{
    char dir[] = "/tmp/hdo-unit-temps-XXXXXX", a[64], b[64];
    cr_assert(mkdtemp(dir) != NULL);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    touch(a);
    touch(b);
    hdo_temp_register(a);
    hdo_temp_register(b);
    /* a file renamed into place is forgotten: it must survive */
    hdo_temp_forget(b);
    hdo_temp_remove_all();
    cr_expect(access(a, F_OK) != 0, "the registered file is still there");
    cr_expect(access(b, F_OK) == 0, "the forgotten file was removed");
    hdo_temp_forget(a);
    cr_expect_eq(unlink(b), 0);
    cr_expect_eq(rmdir(dir), 0);
}
