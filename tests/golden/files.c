/* files.c -- the files of a golden reference: rendered from a run as hdo
 * run writes them, written as one set with ref.json, read back, and a
 * missing file named */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "golden.h"
#include "../model_util.h"
#include "../scratch_dir.h"

static const char *decay = "model decay\nparam k = 1\nvar x = 1\n"
                           "mode m\n  der(x) = -k*x\nend\nstart m\nuntil 1\n";

static void
setup(void)
{
    scratch_make("golden");
}

/* The text of file name in folder dir (malloc'd). */
static char *
slurp(const char *dir, const char *name)
{
    char path[256], *text;
    size_t len;
    hdo_error_t err;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_assert_eq(hdo_read_whole_file(&text, &len, path, HDO_INPUT_MAX_BYTES,
                                     HDO_FILE_REFUSE_NUL, &err),
                 0, "%s: %s", path, err.message);
    return text;
}

Test(golden_files, written_read_back_and_compared, .init = setup,
     .fini = scratch_remove)
{
    hdo_model_t model;
    hdo_result_t res;
    hdo_error_t err;
    hdo_golden_record rec;
    hdo_golden_files_t g, back;
    hdo_golden_cmp_t c;
    char dir[128];
    const char *params[] = {"k=1/2"};
    snprintf(dir, sizeof dir, "%s/golden", scratch);
    tm_parse(model, decay);
    cr_assert_eq(tm_run(res, model, 20, "0.25", &err), 0, "%s", err.message);
    hdo_golden_record_init(&rec);
    cr_assert_eq(hdo_golden_record_set(&rec, "decay", 20, 0, "0.25", NULL,
                                       HDO_METHOD_AUTO, 0, 0, params, 1),
                 0);
    hdo_golden_files_init(g);
    cr_assert_eq(
        hdo_golden_files_render(g, "(run)", res, model, -1, &rec, &err), 0,
        "%s", err.message);
    cr_expect_str_eq(g->path[HDO_GOLDEN_SUMMARY], "(run)/summary.json");
    cr_assert_eq(hdo_golden_prepare(dir, &err), 0, "%s", err.message);
    cr_assert_eq(hdo_golden_files_write(dir, g, &err), 0, "%s", err.message);

    /* the three files are those hdo run writes, byte for byte */
    cr_assert_eq(hdo_run_outputs_prepare(scratch, &err), 0);
    cr_assert_eq(hdo_run_outputs_write(scratch, res, model, -1, &err), 0);
    for (int k = 0; k < HDO_GOLDEN_RECORD; k++) {
        char *a = slurp(dir, hdo_golden_file_name(k));
        char *b = slurp(scratch, hdo_golden_file_name(k));
        cr_expect_str_eq(a, b, "%s", hdo_golden_file_name(k));
        free(a);
        free(b);
    }
    char *r = slurp(dir, "ref.json");
    cr_expect(strstr(r, "\"every\": \"0.25\",\n") != NULL, "%s", r);
    cr_expect(strstr(r, "\"params\": {\"k\": \"1/2\"}") != NULL, "%s", r);
    free(r);

    /* read back: the same texts, and they agree to all their digits */
    hdo_golden_files_init(back);
    cr_assert_eq(hdo_golden_files_read(back, dir, 1, &err), 0, "%s",
                 err.message);
    for (int k = 0; k < HDO_GOLDEN_NFILES; k++)
        cr_expect_str_eq(back->text[k], g->text[k]);
    hdo_golden_cmp_init(c);
    cr_assert_eq(hdo_golden_compare(c, back, g, 15, &err), 0, "%s",
                 err.message);
    cr_expect_eq(c->ndiffs, 0);
    cr_expect_eq(c->worst, 20);
    cr_expect_eq(c->rows, 5);
    hdo_golden_cmp_clear(c);
    hdo_golden_files_clear(back);

    /* without ref.json: refused when it is needed, else left NULL */
    char path[160];
    snprintf(path, sizeof path, "%s/ref.json", dir);
    cr_assert_eq(remove(path), 0);
    hdo_golden_files_init(back);
    cr_expect_eq(hdo_golden_files_read(back, dir, 1, &err), HDO_ERR_IO);
    cr_expect(strstr(err.message, "/golden/ref.json: cannot open: No such "
                                  "file or directory (a golden reference is "
                                  "written by hdo ref write)") != NULL,
              "%s", err.message);
    hdo_golden_files_clear(back);
    hdo_golden_files_init(back);
    cr_expect_eq(hdo_golden_files_read(back, dir, 0, &err), 0);
    cr_expect(back->text[HDO_GOLDEN_RECORD] == NULL);
    hdo_golden_files_clear(back);
    snprintf(path, sizeof path, "%s/events.csv", dir);
    cr_assert_eq(remove(path), 0);
    hdo_golden_files_init(back);
    cr_expect_eq(hdo_golden_files_read(back, dir, 0, &err), HDO_ERR_IO);
    cr_expect(strstr(err.message, "/golden/events.csv: cannot open") != NULL,
              "%s", err.message);
    hdo_golden_files_clear(back);

    hdo_golden_files_clear(g);
    hdo_golden_record_clear(&rec);
    hdo_result_clear(res);
    hdo_model_clear(model);
}
