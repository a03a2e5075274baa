/* modeid.c -- mode identity: the ids of model modes, sliding pairs and
 * sliding cubes, their names and the names' inverse */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

hdo_mode_id_kind
hdo_mode_id_kind_of(const hdo_model_struct *model, slong id)
{
    slong n = hdo_model_id_n(model);
    if (id >= 0 && id < n)
        return HDO_MODE_ID_MODEL;
    if (id >= n && id < n + n * n)
        return HDO_MODE_ID_PAIR;
    if (id >= n + n * n && n <= HDO_MODE_ID_MAXMODES &&
        (uint64_t)(id - n - n * n) < ((uint64_t)1 << n))
        return HDO_MODE_ID_CUBE;
    return HDO_MODE_ID_NONE;
}

slong
hdo_mode_id_pair(const hdo_model_struct *model, slong a, slong b)
{
    slong n = hdo_model_id_n(model);
    return n + a * n + b;
}

void
hdo_mode_id_pair_of(slong *a, slong *b, const hdo_model_struct *model, slong id)
{
    slong n = hdo_model_id_n(model);
    *a = (id - n) / n;
    *b = (id - n) % n;
}

slong
hdo_mode_id_cube(const hdo_model_struct *model, uint64_t mask)
{
    slong n = hdo_model_id_n(model);
    return n + n * n + (slong)mask;
}

uint64_t
hdo_mode_id_mask(const hdo_model_struct *model, slong id)
{
    slong n = hdo_model_id_n(model), a, b;
    switch (hdo_mode_id_kind_of(model, id)) {
    case HDO_MODE_ID_MODEL:
        return (uint64_t)1 << id;
    case HDO_MODE_ID_PAIR:
        hdo_mode_id_pair_of(&a, &b, model, id);
        return ((uint64_t)1 << a) | ((uint64_t)1 << b);
    case HDO_MODE_ID_CUBE:
        return (uint64_t)(id - n - n * n);
    case HDO_MODE_ID_NONE:
        break;
    }
    return 0;
}

/* The mode of the file that model mode m stands for: its relations'
   family, and that family's complementarity block's (ref/model/perp.c:
   the active sets come first, the sign patterns of each after). */
static slong
file_mode(const hdo_model_struct *model, slong m)
{
    slong f = model->modes[m].family;
    return model->modes[f].nperp > 0 ? model->modes[f].cp_family : f;
}

slong
hdo_mode_id_family(const hdo_model_struct *model, slong id)
{
    slong a, b;
    switch (hdo_mode_id_kind_of(model, id)) {
    case HDO_MODE_ID_MODEL:
        return file_mode(model, id);
    case HDO_MODE_ID_PAIR:
        hdo_mode_id_pair_of(&a, &b, model, id);
        return hdo_mode_id_pair(model, file_mode(model, a),
                                file_mode(model, b));
    case HDO_MODE_ID_CUBE:
    case HDO_MODE_ID_NONE:
        break;
    }
    return id;
}

void
hdo_mode_name(char *buf, size_t size, const hdo_model_struct *model, slong m)
{
    slong n = hdo_model_id_n(model), a, b;
    switch (hdo_mode_id_kind_of(model, m)) {
    case HDO_MODE_ID_MODEL:
        snprintf(buf, size, "%s", model->modes[m].name);
        return;
    case HDO_MODE_ID_PAIR:
        hdo_mode_id_pair_of(&a, &b, model, m);
        snprintf(buf, size, "sliding(%s,%s)", model->modes[a].name,
                 model->modes[b].name);
        return;
    case HDO_MODE_ID_CUBE:
        if (size > 0) {
            uint64_t mask = hdo_mode_id_mask(model, m);
            size_t len = (size_t)snprintf(buf, size, "sliding(");
            for (slong q = 0; q < n && len < size; q++)
                if ((mask >> q) & 1)
                    len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                            buf[len - 1] == '(' ? "" : ",",
                                            model->modes[q].name);
            if (len < size)
                snprintf(buf + len, size - len, ")");
            return;
        }
        break;
    case HDO_MODE_ID_NONE:
        break;
    }
    snprintf(buf, size, "?");
}

slong
hdo_find_mode_name(const hdo_model_struct *model, const char *name)
{
    slong m = hdo_model_find_mode(model, name), n = hdo_model_id_n(model);
    size_t len = strlen(name);
    if (m >= 0 || strncmp(name, "sliding(", 8) != 0 || len < 11 ||
        name[len - 1] != ')')
        return m;
    char *buf = strdup(name);
    HDO_ASSERT(buf != NULL);
    buf[len - 1] = '\0';
    slong q[64], nq = 0;
    for (char *p = buf + 8, *e; nq >= 0 && p != NULL; p = e) {
        e = strchr(p, ',');
        if (e != NULL)
            *e++ = '\0';
        slong a = hdo_model_find_mode(model, p);
        if (a < 0 || nq == 64)
            nq = -1;
        else
            q[nq++] = a;
    }
    free(buf);
    if (nq == 2)
        return hdo_mode_id_pair(model, q[0], q[1]);
    if (nq < 4 || n > HDO_MODE_ID_MAXMODES)
        return -1;
    uint64_t mask = 0;
    for (slong i = 0; i < nq; i++) {
        if ((i > 0 && q[i] <= q[i - 1]))
            return -1; /* the names come in file order, once */
        mask |= (uint64_t)1 << q[i];
    }
    return hdo_mode_id_cube(model, mask);
}
