/* report.c -- hdo check's human report for hdo.Model.check: the
   library's hdo_check_write_report, the report `hdo check` prints, so
   that v.report reads as the command's (tests/python/test_check.py
   compares the two line by line on the same data).  The candidate is
   named as the arrays were: check.c sets the check's cand_path to the
   CheckObject's cand_name once it is read. */
#include <stdio.h>
#include "ext.h"

void
hdo_py_check_report(const CheckObject *self, FILE *out)
{
    hdo_check_write_report(out, self->s);
}
