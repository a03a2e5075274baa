/* kinds.c -- the table of event kinds (result.h's HDO_EVENT_KINDS): the
 * name events.csv writes and hdo check reads, whether a candidate must
 * show it */
#include <string.h>
#include "result.h"

#define HDO_EV_ROW_(suffix, name, shown) [HDO_EV_##suffix] = {name, shown},
const hdo_event_kind_info hdo_event_kind_table[HDO_EV_NKINDS] = {
    HDO_EVENT_KINDS(HDO_EV_ROW_)};
#undef HDO_EV_ROW_

const char *
hdo_event_kind_name(hdo_event_kind kind)
{
    return ((int)kind >= 0 && (int)kind < HDO_EV_NKINDS)
               ? hdo_event_kind_table[kind].name
               : "?";
}

int
hdo_event_kind_lookup(const char *name)
{
    for (int k = 0; k < HDO_EV_NKINDS; k++)
        if (strcmp(hdo_event_kind_table[k].name, name) == 0)
            return k;
    return -1;
}

int
hdo_event_kind_shown(hdo_event_kind kind)
{
    return (int)kind >= 0 && (int)kind < HDO_EV_NKINDS &&
           hdo_event_kind_table[kind].shown;
}
