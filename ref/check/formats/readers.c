/* readers.c -- the table of candidate readers: a new format is one row
 * here and one file of its own */
#include "formats.h"

const hdo_candidate_reader hdo_candidate_readers[] = {
    /* by content: a MAT v4 dsres file starts with the matrix Aclass */
    {"mat4", hdo_is_mat4, hdo_csv_read_mat},
    /* the rest is read as CSV text, which says what it expected */
    {"csv", NULL, hdo_csv_read_text_file},
    {NULL, NULL, NULL}};

int
hdo_csv_read_file(hdo_csv_t csv, const char *path, hdo_error_t *err)
{
    const hdo_candidate_reader *r = hdo_candidate_readers;
    while (r->detect != NULL && !r->detect(path))
        r++;
    return r->read(csv, path, err);
}
