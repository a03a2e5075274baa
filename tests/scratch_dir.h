/* scratch_dir.h -- a fixture shared by the unit tests that write files: a
 * fresh folder under /tmp per test, removed with its contents after it */
#ifndef HDO_TESTS_SCRATCH_DIR_H
#define HDO_TESTS_SCRATCH_DIR_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The current test's folder, set by scratch_make. */
static char scratch[64];

/* Makes a fresh folder /tmp/hdo-unit-<name>-XXXXXX into scratch; failing
   to do so fails the test. */
static inline void
scratch_make(const char *name)
{
    snprintf(scratch, sizeof scratch, "/tmp/hdo-unit-%s-XXXXXX", name);
    cr_assert(mkdtemp(scratch) != NULL);
}

/* Removes scratch with its contents (a test's .fini). */
static inline void
scratch_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    cr_expect_eq(system(cmd), 0);
}

#endif
