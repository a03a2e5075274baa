/* hdo.h -- the whole public interface of libhdo in one include.

   Installed as <hdo/hdo.h> (make install); each module's header is also
   installed beside it (<hdo/hybrid.h>, ...) and may be included alone.
   Every header has its own extern "C" block, after its system includes
   (mpfr.h and gmp.h declare C++ overloads when compiled as C++, which
   must not get C linkage), so C++ programs include them as they are.
   Compile and link with `pkg-config --cflags --libs hdo`. */
#ifndef HDO_HDO_H
#define HDO_HDO_H

#include "version.h"
#include "status.h"
#include "util.h"
#include "expr.h"
#include "model.h"
#include "linalg.h"
#include "km.h"
#include "reduce.h"
#include "taylor.h"
#include "step.h"
#include "event.h"
#include "result.h"
#include "hybrid.h"
#include "analyze.h"
#include "check.h"
#include "golden.h"
#include "certify.h"
#include "outdir.h"
#include "process.h"

#endif
