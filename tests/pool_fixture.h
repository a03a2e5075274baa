/* pool_fixture.h -- a fresh expression pool for every test of a suite:
 *   TestSuite(name, .init = pool_setup, .fini = pool_teardown);
 * included by one test file each (the pool is that file's). */
#ifndef HDO_TESTS_POOL_FIXTURE_H
#define HDO_TESTS_POOL_FIXTURE_H

#include "expr.h"

static hdo_expr_pool_t pool;

static void
pool_setup(void)
{
    hdo_expr_pool_init(pool);
}

static void
pool_teardown(void)
{
    hdo_expr_pool_clear(pool);
}

#endif
