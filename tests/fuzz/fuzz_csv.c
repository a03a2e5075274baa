/* fuzz_csv.c -- libFuzzer entry point: the candidate CSV, events and tolerance
 * readers and event inference on arbitrary bytes */
#include <stddef.h>
#include <stdint.h>
#include "check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hdo_csv_t csv;
    hdo_evfile_t ef;
    hdo_tol_t tol;
    hdo_error_t err;
    char msg[2048];
    hdo_error_clear(&err);
    hdo_csv_init(csv);
    if (hdo_csv_read_string(csv, (const char *)data, size, "fuzz.csv", &err) ==
        0) {
        /* A successful read must satisfy the reader's promises. */
        hdo_evlist_t ev;
        hdo_tube_t tube;
        for (slong i = 1; i < csv->nrows; i++)
            HDO_ASSERT(csv->time[i] >= csv->time[i - 1]);
        hdo_evlist_init(ev);
        HDO_ASSERT(hdo_csv_infer_events(ev, csv, NULL) == 0);
        hdo_evlist_clear(ev);
        /* The candidate compared with itself passes wherever it has
           finite values. */
        if (csv->ncols > 0) {
            hdo_tube_init(tube);
            HDO_ASSERT(hdo_tube_compare(tube, csv->time, csv->values,
                                        csv->nrows, csv->time, csv->values,
                                        csv->present, csv->ncols, csv->nrows,
                                        0.0, 0.0, 0.0) == 0);
            hdo_tube_clear(tube);
        }
    } else {
        hdo_error_format(msg, sizeof msg, &err);
    }
    hdo_csv_clear(csv);
    hdo_error_clear(&err);
    hdo_evfile_init(ef);
    if (hdo_evfile_read_string(ef, (const char *)data, size, "fuzz.csv", &err))
        hdo_error_format(msg, sizeof msg, &err);
    hdo_evfile_clear(ef);
    hdo_error_clear(&err);
    hdo_tol_init(tol);
    if (hdo_tol_read_string(tol, (const char *)data, size, "fuzz.tol", &err))
        hdo_error_format(msg, sizeof msg, &err);
    hdo_tol_clear(tol);
    return 0;
}
