# hdo -- one plain GNU Makefile that finds its sources by wildcard.
#
#   make            build build/libhdo.a, build/hdo and the Python module
#                   hdo (build/python; tools/python, docs/python.md)
#   make run        install what is missing, build, compute the corpus,
#                   cross-check, then the heavy cases' checks at 16 and 30
#                   digits (tens of minutes: tools/heavy_checks.py)
#   make references  regenerate the golden references cases/<case>.ref/
#   make check-heavy  the heavy cases' checks and references (not in check)
#   make check      install what is missing, build, run every test
#   make check SAN=1   the same under AddressSanitizer and UBSan
#   make tsan       hdo run --verify (two threads, one model) under TSan
#   make bench      the performance record (never part of make check)
#   make bench-heyoka HEYOKA_PREFIX=DIR   hdo beside heyoka (tools/bench)
#   make format-check
#   make layering   the include and call graph against the module order
#   make install PREFIX=/usr/local DESTDIR=   (and make uninstall)

SHELL := /bin/bash
BUILD ?= build
# The builds inside run, check, check-heavy and references compile on every
# core unless the command line chose (make -jN): CI's two cores halve them.
NPROC := $(shell nproc 2>/dev/null || echo 1)
BUILD_JOBS = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(NPROC))
CC ?= cc
DEBIAN_PACKAGES := gcc g++ libc6-dev libmpfr-dev libgmp-dev libflint-dev libflint-arb-dev libcalcium-dev libantic-dev \
                   libcriterion-dev python3-mpmath python3-scipy \
                   libsundials-dev gnuplot-nox bc pkg-config parallel rsync \
                   python3-dev python3-numpy python3-pytest \
                   python3-matplotlib
# Of these, the packages of one feature each, whose tests say SKIP (with
# the tool they miss) when the package is absent: a user who cannot
# install packages still gets `make check` with the rest.  The others are
# needed to build hdo or to compute the expected values of most tests.
OPTIONAL_PACKAGES := python3-scipy libsundials-dev gnuplot-nox parallel rsync \
                     python3-dev python3-numpy python3-pytest python3-matplotlib

# CPPFLAGS, CFLAGS and LDFLAGS from the environment or the command line
# are used (Debian's dpkg-buildflags: CPPFLAGS=-D_FORTIFY_SOURCE=2 ...);
# hdo's own flags are added to them.
OPT ?= -O2
CFLAGS ?= $(OPT) -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
          -Wshadow -Wstrict-prototypes -Werror=switch -pthread -Iref -I/usr/include/flint
LDLIBS := -lflint -lflint-arb -lmpfr -lgmp -lm -pthread
ifeq ($(SAN),1)
  BUILD := build/san
  CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
  export UBSAN_OPTIONS = print_stacktrace=1
  # the long property tests run their short form (tests/e2e/scaled_twin.sh)
  export HDO_E2E_QUICK = 1
  # the fused kernel's portable C (ref/expr/fused.c, D-108): the plain
  # build tests its amd64 assembly, this one the C other machines run,
  # under UBSan, against the same bit-for-bit rule (tests/expr/fused.c)
  CFLAGS += -DHDO_FUSED_NO_ASM
endif
# ThreadSanitizer (make tsan): hdo run --verify, whose two runs share one
# parsed model in two threads, on corpus cases that cover DAE reduction,
# Zeno, Filippov sliding and sliding on intersections.  (Criterion cannot
# start under TSan: "Could not initialize inheritable arena".)  MPFR, GMP
# and FLINT are not instrumented: TSan checks libhdo's own memory.
ifeq ($(SAN),thread)
  BUILD := build/tsan
  CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
  LDFLAGS += -fsanitize=thread
  export TSAN_OPTIONS = halt_on_error=1
endif

LIB_SRC := $(sort $(wildcard ref/*.c ref/*/*.c ref/*/*/*.c))
CLI_SRC := $(sort $(wildcard oracle/*.c))
TEST_SRC := $(filter-out tests/fuzz/%,$(sort $(wildcard tests/*/*.c tests/*/*/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
HDO := $(BUILD)/hdo
CASES := $(sort $(wildcard cases/*.hdae))

.PHONY: all deps run references check check-heavy unit e2e tsan tsan-run bench bench-heyoka crosscheck fuzz fuzz-build format format-check clean \
        shared install uninstall python ida-if-available layering

all: $(HDO) python

# Installs the Debian packages that are missing (as root, or with sudo
# when it works without a password).  Otherwise it prints the one
# apt-get line to run, and stops when a package hdo needs is missing; when
# only OPTIONAL_PACKAGES are, it says which and goes on (their tests skip,
# and say so).  CI runs as root, so it installs everything.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' \
	    || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else \
	    needed=""; for p in $$missing; do case " $(OPTIONAL_PACKAGES) " in \
	      *" $$p "*) ;; *) needed="$$needed $$p";; esac; done; \
	    if [ -n "$$needed" ]; then echo "hdo needs:$$needed"; \
	      echo "run: sudo apt-get install -y$$missing"; exit 1; fi; \
	    echo "not installed (not root, and sudo asks for a password):$$missing"; \
	    echo "the tests that need them are skipped, each with the reason;"; \
	    echo "to run them too: sudo apt-get install -y$$missing"; \
	    exit 0; fi; \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Written afresh: ar would keep the objects of source files since removed
# or renamed, and their symbols would clash with the new ones.
$(BUILD)/libhdo.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

$(HDO): $(CLI_OBJ) $(BUILD)/libhdo.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libhdo.a $(LDLIBS)

# Radau's solves in double: their element-wise loops at -O3, which GCC
# vectorises; the same operations on each entry (ISO C: no contraction,
# no reassociation), so the same bits (decisions.md D-140).  Only where
# the optimisation is the default one (OPT=-O0 stays -O0).
HOT_DOUBLE := ref/step/radau_block.c ref/step/radau_stagelu.c ref/step/radau_band.c
$(HOT_DOUBLE:%.c=$(BUILD)/obj/%.o): CFLAGS += $(if $(filter -O2,$(OPT)),-O3)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/test-unit: $(TEST_OBJ) $(BUILD)/libhdo.a
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) $(BUILD)/libhdo.a -lcriterion $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# The heavy cases' checks (tests/corpus/pending.txt) at 16 and 30 digits,
# last: they take minutes (tools/heavy_checks.py), and make check skips them.
HEAVY_TIMEOUT ?= 3600
run: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory all ida-if-available
	@tools/run-corpus.sh $(HDO) $(CASES)
	@BUILD=$(BUILD) tools/crosscheck.sh $(CASES)
	@/usr/bin/python3 tools/heavy_checks.py --hdo $(HDO) --timeout $(HEAVY_TIMEOUT)

# Golden references at 40 digits (tools/references.sh, cases/references.txt):
# fails, keeping the stored files, when a fresh run disagrees beyond 35
# digits; REF_FORCE=1 replaces them anyway.
references: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory $(HDO)
	@HDO=$(HDO) tools/references.sh write

# The heavy cases (tests/corpus/heavy.txt), left out of make check: their
# independent checks and their golden references (at the digits heavy.txt
# gives: 30, ringmod 16), one case
# at a time (tools/check-heavy.sh; minutes per case).
check-heavy: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory $(HDO)
	@HDO=$(HDO) tools/check-heavy.sh

check: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory $(HDO) ida-if-available $(BUILD)/test-unit \
	  shared python
	@$(MAKE) --no-print-directory layering unit e2e

# Criterion counts a test whose process LeakSanitizer ends (exit 23 after
# the test passed) as passed: under SAN=1 a leak report fails the run.
unit: $(BUILD)/test-unit
ifeq ($(SAN),1)
	@set -o pipefail; $(BUILD)/test-unit --jobs 2 2>&1 | tee $(BUILD)/unit.log
	@if grep -q 'ERROR: LeakSanitizer' $(BUILD)/unit.log; then \
	  echo "unit: LeakSanitizer reported $$(grep -c 'ERROR: LeakSanitizer' \
	    $(BUILD)/unit.log) leaking test processes (above)"; exit 1; fi
else
	$(BUILD)/test-unit --jobs 2
endif

e2e: $(HDO)
	@HDO=$(HDO) tests/e2e/run.sh

tsan: deps
	@$(MAKE) --no-print-directory SAN=thread build/tsan/hdo
	@$(MAKE) --no-print-directory SAN=thread tsan-run

TSAN_CASES := pendulum bouncing_ball filippov_spiral belt_three_blocks
tsan-run:
	@set -e; for c in $(TSAN_CASES); do \
	  $(HDO) run cases/$$c.hdae -d 16 --verify -o $(BUILD)/tsan-out/$$c; done

# ---- the Python module hdo (tools/python, docs/python.md) -------------
# A CPython extension, hdo._hdo (tools/python/ext/*.c), linked with the
# position-independent libhdo.a (so it needs no libhdo.so at run time:
# the module works from build/python as installed) with the library's
# symbols kept local (--exclude-libs), beside the package's Python files
# (tools/python/hdo/*.py) in $(BUILD)/python/hdo/.  Debian's python3
# only; without its headers (python3-dev) `make` says so and builds the
# rest.  Under SAN=1 the module is instrumented too: tests/e2e/python.sh
# preloads the sanitizer runtime into the uninstrumented interpreter.
PYTHON := /usr/bin/python3
PY_EXT_SUFFIX := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))' 2>/dev/null)
PY_INCLUDE := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
PY_HEADER := $(wildcard $(PY_INCLUDE)/Python.h)
PY_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PY_SRC := $(sort $(wildcard tools/python/ext/*.c))
PY_OBJ := $(PY_SRC:%.c=$(BUILD)/obj/%.o)
PY_PKG := $(BUILD)/python/hdo
PY_MOD := $(PY_PKG)/_hdo$(PY_EXT_SUFFIX)
PY_FILES := $(patsubst tools/python/hdo/%,$(PY_PKG)/%,$(sort $(wildcard tools/python/hdo/*.py)))
-include $(PY_OBJ:.o=.d)

ifneq ($(PY_HEADER),)
python: $(PY_MOD) $(PY_FILES)
else
python:
	@echo "python: $(PYTHON)'s headers are missing (Debian package python3-dev): the module hdo is not built"
endif

$(PY_OBJ): CFLAGS += -fPIC -fvisibility=hidden -I$(PY_INCLUDE)
$(PY_MOD): $(PY_OBJ) $(BUILD)/libhdo.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -shared -Wl,--exclude-libs,ALL -o $@ $(PY_OBJ) \
	  $(BUILD)/libhdo.a $(LDLIBS)

$(PY_PKG)/%.py: tools/python/hdo/%.py
	@mkdir -p $(dir $@)
	cp $< $@

# ---- libhdo.so and make install ----------------------------------------
# The library's objects are compiled once, position-independent (-fPIC),
# for both libhdo.a and libhdo.so: measured on the pendulum at 200
# digits, hdo linked from them takes the same CPU time as from non-PIC
# objects (2.54 s against 2.56 s, within the noise: the time is spent in
# MPFR), while a second, PIC-only set of objects would add the library's
# whole compile time (about 10 s of CPU) to every build.
# -fno-semantic-interposition keeps calls inside the library inlinable.
# The file name and soname come from ref/version.h: libhdo.so.MAJOR ->
# libhdo.so.MAJOR.MINOR.PATCH.  Only the functions declared in the public
# headers (ref/*.h, installed as include/hdo/) are exported:
# $(BUILD)/libhdo.map is the linker version script listing the library's
# global symbols that occur in the preprocessed public headers; every
# other symbol is local.
version_field = $(shell sed -n 's/^\#define HDO_VERSION_$(1) \([0-9]*\)$$/\1/p' ref/version.h)
HDO_MAJOR := $(call version_field,MAJOR)
HDO_VERSION := $(HDO_MAJOR).$(call version_field,MINOR).$(call version_field,PATCH)
SONAME := libhdo.so.$(HDO_MAJOR)
SHLIB := libhdo.so.$(HDO_VERSION)
PUBLIC_H := $(sort $(wildcard ref/*.h))
$(LIB_OBJ): CFLAGS += -fPIC -fno-semantic-interposition
# Objects compiled before the library was PIC are rebuilt once: they are
# older than this stamp.
$(LIB_OBJ): $(BUILD)/obj/ref/.pic-stamp
$(BUILD)/obj/ref/.pic-stamp:
	@mkdir -p $(dir $@)
	@touch $@

$(BUILD)/libhdo.map: $(LIB_OBJ) $(PUBLIC_H)
	@nm -g --defined-only $(LIB_OBJ) | awk 'NF == 3 { print $$3 }' \
	  | sort -u >$@.lib
	@$(CC) $(CPPFLAGS) $(CFLAGS) -E -P ref/hdo.h | grep -oE '[A-Za-z_][A-Za-z0-9_]*' \
	  | sort -u >$@.pub
	@{ echo '/* libhdo.map -- generated by the Makefile from the library'"'"'s'; \
	   echo '   objects and the public headers (ref/*.h): do not edit. */'; \
	   echo '{'; echo '  global:'; comm -12 $@.lib $@.pub | sed 's/.*/    &;/'; \
	   echo '  local: *;'; echo '};'; } >$@
	@rm -f $@.lib $@.pub

$(BUILD)/$(SHLIB): $(LIB_OBJ) $(BUILD)/libhdo.map
	$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs \
	  -Wl,--version-script=$(BUILD)/libhdo.map -o $@ $(LIB_OBJ) $(LDLIBS)
	ln -sf $(SHLIB) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libhdo.so

shared: $(BUILD)/$(SHLIB)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
# The library's folder: Debian's multiarch folder under /usr
# (/usr/lib/x86_64-linux-gnu, where Debian's own libraries are), lib
# elsewhere (/usr/local/lib and ~/.local/lib, which Debian's dynamic
# linker and pkg-config search); LIBDIR= on the command line for another.
# hdo.pc names the folder the library is installed in.
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
LIBDIR := $(if $(and $(filter /usr,$(PREFIX)),$(MULTIARCH)),$(PREFIX)/lib/$(MULTIARCH),$(PREFIX)/lib)
INCLUDEDIR := $(PREFIX)/include
MANDIR := $(PREFIX)/share/man
DOCDIR := $(PREFIX)/share/doc/hdo
# The Python module: where Debian's python3 looks under PREFIX
# (/usr/lib/python3/dist-packages for Debian's own packages,
# /usr/local/lib/python3.X/dist-packages for the local ones, and the
# user's site-packages under ~/.local); PYTHONDIR= for another.
PYTHONDIR = $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VERSION)/$(if $(filter /usr/local,$(PREFIX)),dist,site)-packages)
PC_LIBDIR := $(patsubst $(PREFIX)/%,$${exec_prefix}/%,$(LIBDIR))
PC_INCLUDEDIR := $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))
INSTALL ?= install
# installed in DOCDIR: what the manual page points at
DOC_FILES := README.md LICENSE $(sort $(wildcard docs/*.md))

# bin/hdo is the program of `make` (linked with libhdo.a); the headers go
# into one folder, include/hdo/, where their "name.h" includes find each
# other; hdo.pc is written with this PREFIX and LIBDIR; the manual page
# names DOCDIR; the Python module (when python3-dev built it) goes into
# PYTHONDIR/hdo.
install: $(HDO) $(BUILD)/libhdo.a $(BUILD)/$(SHLIB) python
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
	  $(DESTDIR)$(INCLUDEDIR)/hdo $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 755 $(HDO) $(DESTDIR)$(BINDIR)/hdo
	$(INSTALL) -m 644 $(BUILD)/libhdo.a $(DESTDIR)$(LIBDIR)/libhdo.a
	$(INSTALL) -m 755 $(BUILD)/$(SHLIB) $(DESTDIR)$(LIBDIR)/$(SHLIB)
	ln -sf $(SHLIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libhdo.so
	$(INSTALL) -m 644 $(PUBLIC_H) $(DESTDIR)$(INCLUDEDIR)/hdo/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(HDO_VERSION)|' \
	  -e 's|@LIBDIR@|$(PC_LIBDIR)|' -e 's|@INCLUDEDIR@|$(PC_INCLUDEDIR)|' \
	  tools/hdo.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/hdo.pc
	sed -e 's|/usr/local/share/doc/hdo|$(DOCDIR)|g' docs/hdo.1 \
	  >$(DESTDIR)$(MANDIR)/man1/hdo.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/hdo.1
	$(INSTALL) -m 644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 docs/examples/run_case.c $(DESTDIR)$(DOCDIR)/examples/
ifneq ($(PY_HEADER),)
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)/hdo
	$(INSTALL) -m 644 $(PY_FILES) $(DESTDIR)$(PYTHONDIR)/hdo/
	$(INSTALL) -m 755 $(PY_MOD) $(DESTDIR)$(PYTHONDIR)/hdo/
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/hdo $(DESTDIR)$(LIBDIR)/libhdo.a \
	  $(DESTDIR)$(LIBDIR)/libhdo.so $(DESTDIR)$(LIBDIR)/libhdo.so.$(HDO_MAJOR)* \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/hdo.pc $(DESTDIR)$(MANDIR)/man1/hdo.1 \
	  $(DESTDIR)$(DOCDIR)/examples/run_case.c \
	  $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOC_FILES))) \
	  $(addprefix $(DESTDIR)$(INCLUDEDIR)/hdo/,$(notdir $(PUBLIC_H))) \
	  $(DESTDIR)$(PYTHONDIR)/hdo/*.py $(DESTDIR)$(PYTHONDIR)/hdo/_hdo.*.so
	rm -rf $(DESTDIR)$(PYTHONDIR)/hdo/__pycache__
	rmdir $(DESTDIR)$(INCLUDEDIR)/hdo $(DESTDIR)$(DOCDIR)/examples \
	  $(DESTDIR)$(DOCDIR) $(DESTDIR)$(PYTHONDIR)/hdo 2>/dev/null || true

# ---- tools/ida: the SUNDIALS IDA adapter, and make crosscheck ----------
IDA_SRC := $(sort $(wildcard tools/ida/*.c))
IDA_OBJ := $(IDA_SRC:%.c=$(BUILD)/obj/%.o)
IDA_LIBS := -lsundials_ida -lsundials_nvecserial -lsundials_sunmatrixdense \
            -lsundials_sunlinsoldense
-include $(IDA_OBJ:.o=.d)

# hdo-ida when SUNDIALS is installed (libsundials-dev is optional: its
# tests skip without it, and make run cross-checks with SciPy alone).
# A target of its own, so that the header is looked for by the make that
# runs after deps.
IDA_HEADER = $(wildcard /usr/include/ida/ida.h)
ida-if-available: $(if $(IDA_HEADER),$(BUILD)/hdo-ida)
	@$(if $(IDA_HEADER),:,echo "hdo-ida: not built: SUNDIALS (libsundials-dev) is not installed")

$(BUILD)/hdo-ida: $(IDA_OBJ) $(BUILD)/libhdo.a
	$(CC) $(LDFLAGS) -o $@ $(IDA_OBJ) $(BUILD)/libhdo.a $(IDA_LIBS) $(LDLIBS)

crosscheck: deps
	@$(MAKE) --no-print-directory $(HDO) $(BUILD)/hdo-ida
	@BUILD=$(BUILD) tools/crosscheck.sh $(CASES)

# ---- benchmarks: figures, never part of make check ---------------------
$(BUILD)/pendulum-bench: tools/bench/pendulum_bench.c $(BUILD)/libhdo.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libhdo.a $(LDLIBS)

$(BUILD)/reduce-cost: tools/bench/reduce_cost.c $(BUILD)/libhdo.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libhdo.a $(LDLIBS)

# The pendulum at 30/45/60/100 digits against mpmath odefun (CPU time),
# pendulum_angle (a DAE) against the same pendulum as an ODE (CPU time and
# instructions: tools/bench/dae_speed.sh), then every case at BENCH_DIGITS under a per-run time limit, with phase
# shares, mpmath on the pure-ODE cases and the fitted growth exponents;
# the table is also written to $(BUILD)/bench/bench.csv (README); then
# issue 28's figures in instructions (tools/bench/cost.py: start-up, the
# events' share per case, dense output against integration, the FPU
# chain), each beside its target; the reduction phase's parts on the FPU
# chain to 640 masses (tools/bench/reduce_cost.sh); then issue 26's
# `hdo check MODEL DIR` of 50 candidates against one check, beside its
# target 3x (tools/bench/check_many.py); then
# the stiff problems (tools/bench/stiff.py): Van der Pol mu = 1000 over
# mu = 10 in CPU time, Robertson, car_axis, implicit beside Taylor; then
# the Test Set's five problems of issue 28 at 16 and 30 digits with their
# checks, CPU time beside the minute's target (tools/heavy_checks.py); last,
# only when HEYOKA_PREFIX names a heyoka install (else it says it is
# skipped), hdo beside heyoka (tools/bench/heyoka, also alone as
# `make bench-heyoka`).
BENCH_DIGITS ?= 30 60 100
# issue 28's five problems of the Test Set, at 16 and 30 digits with their
# checks, beside the target of a minute (tools/heavy_checks.py)
TESTSET_CASES ?= water_tube medakzo ringmod emep beam
BENCH_TIMEOUT ?= 120
BENCH_STIFF_TIMEOUT ?= 300
bench: deps
	@$(MAKE) --no-print-directory $(HDO) $(BUILD)/pendulum-bench
	tools/bench/pendulum.sh $(BUILD)/pendulum-bench
	@echo
	tools/bench/dae_speed.sh $(HDO)
	@echo
	/usr/bin/python3 tools/bench/cases.py --hdo $(HDO) \
	  --digits $(BENCH_DIGITS) --timeout $(BENCH_TIMEOUT) \
	  --csv $(BUILD)/bench/bench.csv --work $(BUILD)/bench/runs $(CASES)
	@echo
	tools/bench/verify.sh $(HDO) 60
	@echo
	/usr/bin/python3 tools/bench/cost.py --hdo $(HDO)
	@echo
	@$(MAKE) --no-print-directory $(BUILD)/reduce-cost
	tools/bench/reduce_cost.sh $(BUILD)/reduce-cost
	@echo
	/usr/bin/python3 tools/bench/check_many.py --hdo $(HDO)
	@echo
	/usr/bin/python3 tools/bench/stiff.py --hdo $(HDO) \
	  --digits $(BENCH_DIGITS) --timeout $(BENCH_STIFF_TIMEOUT) \
	  --work $(BUILD)/bench/stiff
	@echo
	-/usr/bin/python3 tools/heavy_checks.py --hdo $(HDO) \
	  --timeout $(HEAVY_TIMEOUT) $(TESTSET_CASES)
	@echo
	@$(MAKE) --no-print-directory bench-heyoka

# hdo beside heyoka 7 (MPFR through mp++) at HEYOKA_DIGITS (default
# 30 60 100 200): time ratios and digits against independent references
# (tools/bench/heyoka/README.md); skipped without HEYOKA_PREFIX.
HEYOKA_PREFIX ?=
HEYOKA_DIGITS ?= 30 60 100 200
bench-heyoka: deps
	@$(MAKE) --no-print-directory $(HDO)
	HEYOKA_DIGITS="$(HEYOKA_DIGITS)" \
	  tools/bench/heyoka/bench.sh $(HDO) $(BUILD) "$(HEYOKA_PREFIX)"

# ---- fuzzing (tests/fuzz/README.md); never part of make check ----------
FUZZ_SECONDS ?= 60
FUZZ_PACKAGES := clang libclang-rt-14-dev
fuzz:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(FUZZ_PACKAGES)"
	@FUZZ_BUILD=$(BUILD)/fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz.sh run
fuzz-build:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(FUZZ_PACKAGES)"
	@FUZZ_BUILD=$(BUILD)/fuzz tools/fuzz.sh build

# The include and call graph of ref/, oracle/ and tools/ida/ against the
# module order of tools/module-order.txt (tools/check-layering, issue 24):
# circles of files, includes and calls up the order, other modules'
# private headers.  Exit 1 with the list.  `make check` runs it first (it
# reads the files, well under a second); its self-test is
# tests/e2e/layering.sh.
layering:
	@/usr/bin/python3 tools/check-layering

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) ref/*.h docs/examples/*.c \
	  tools/bench/heyoka/*.cpp \
	  $(PY_SRC) tools/python/ext/*.h

format-check:
	@clang-format --dry-run --Werror $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) ref/*.h \
	  docs/examples/*.c tools/bench/heyoka/*.cpp $(PY_SRC) \
	  tools/python/ext/*.h && echo "format: ok"

clean:
	rm -rf build
