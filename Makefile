# hdo -- one plain GNU Makefile that finds its sources by wildcard.
#
#   make            build build/libhdo.a and build/hdo
#   make run        install what is missing, build, compute the corpus
#   make references  regenerate the golden references cases/<case>.ref/
#   make check      install what is missing, build, run every test
#   make check SAN=1   the same under AddressSanitizer and UBSan
#   make bench      the performance record (never part of make check)
#   make format-check

SHELL := /bin/bash
BUILD ?= build
CC ?= cc
DEBIAN_PACKAGES := gcc libc6-dev libmpfr-dev libgmp-dev libflint-dev libflint-arb-dev \
                   libcriterion-dev python3-mpmath python3-scipy \
                   libsundials-dev gnuplot-nox bc pkg-config parallel rsync \
                   libmatio-dev

OPT ?= -O2
CFLAGS ?= $(OPT) -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
          -Wshadow -Wstrict-prototypes -Iref -I/usr/include/flint
LDLIBS := -lmatio -lflint-arb -lflint -lmpfr -lgmp -lm
ifeq ($(SAN),1)
  BUILD := build/san
  CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
  export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/lsan.supp
  export UBSAN_OPTIONS = print_stacktrace=1
endif

LIB_SRC := $(sort $(wildcard ref/*.c ref/*/*.c))
CLI_SRC := $(sort $(wildcard oracle/*.c))
TEST_SRC := $(filter-out tests/fuzz/%,$(sort $(wildcard tests/*/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
HDO := $(BUILD)/hdo
CASES := $(sort $(wildcard cases/*.hdae))

.PHONY: all deps run references check unit e2e bench crosscheck fuzz fuzz-build format format-check clean

all: $(HDO)

# Installs the Debian packages that are missing (as root, or with sudo
# when it works without a password); otherwise prints the one line to run.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' \
	    || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "hdo needs:$$missing"; \
	       echo "run: sudo apt-get install -y$$missing"; exit 1; fi; \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(BUILD)/libhdo.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(HDO): $(CLI_OBJ) $(BUILD)/libhdo.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libhdo.a $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/test-unit: $(TEST_OBJ) $(BUILD)/libhdo.a
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) $(BUILD)/libhdo.a -lcriterion $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

run: deps
	@$(MAKE) --no-print-directory all $(BUILD)/hdo-ida
	@tools/run-corpus.sh $(HDO) $(CASES)
	@BUILD=$(BUILD) tools/crosscheck.sh $(CASES)

# Golden references at 40 digits (tools/references.sh, cases/references.txt):
# fails, keeping the stored files, when a fresh run disagrees beyond 35
# digits; REF_FORCE=1 replaces them anyway.
references: deps
	@$(MAKE) --no-print-directory $(HDO)
	@HDO=$(HDO) tools/references.sh write

check: deps
	@$(MAKE) --no-print-directory $(HDO) $(BUILD)/test-unit
	@$(MAKE) --no-print-directory unit e2e

unit: $(BUILD)/test-unit
	$(BUILD)/test-unit --jobs 2

e2e: $(HDO)
	@HDO=$(HDO) tests/e2e/run.sh

# ---- tools/ida: the SUNDIALS IDA adapter, and make crosscheck ----------
IDA_SRC := $(sort $(wildcard tools/ida/*.c))
IDA_OBJ := $(IDA_SRC:%.c=$(BUILD)/obj/%.o)
IDA_LIBS := -lsundials_ida -lsundials_nvecserial -lsundials_sunmatrixdense \
            -lsundials_sunlinsoldense
-include $(IDA_OBJ:.o=.d)

$(BUILD)/hdo-ida: $(IDA_OBJ) $(BUILD)/libhdo.a
	$(CC) $(LDFLAGS) -o $@ $(IDA_OBJ) $(BUILD)/libhdo.a $(IDA_LIBS) $(LDLIBS)

crosscheck: deps
	@$(MAKE) --no-print-directory $(HDO) $(BUILD)/hdo-ida
	@BUILD=$(BUILD) tools/crosscheck.sh $(CASES)

# ---- benchmarks: figures, never part of make check ---------------------
$(BUILD)/pendulum-bench: tools/bench/pendulum_bench.c $(BUILD)/libhdo.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libhdo.a $(LDLIBS)

# The pendulum at 30/45/60/100 digits against mpmath odefun (CPU time),
# then every case at BENCH_DIGITS under a per-run time limit, with phase
# shares, mpmath on the pure-ODE cases and the fitted growth exponents;
# the table is also written to $(BUILD)/bench/bench.csv (README).
BENCH_DIGITS ?= 30 60 100
BENCH_TIMEOUT ?= 120
bench: deps
	@$(MAKE) --no-print-directory $(HDO) $(BUILD)/pendulum-bench
	tools/bench/pendulum.sh $(BUILD)/pendulum-bench
	@echo
	/usr/bin/python3 tools/bench/cases.py --hdo $(HDO) \
	  --digits $(BENCH_DIGITS) --timeout $(BENCH_TIMEOUT) \
	  --csv $(BUILD)/bench/bench.csv --work $(BUILD)/bench/runs $(CASES)

# ---- fuzzing (tests/fuzz/README.md); never part of make check ----------
FUZZ_SECONDS ?= 60
FUZZ_PACKAGES := clang libclang-rt-14-dev
fuzz:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(FUZZ_PACKAGES)"
	@FUZZ_BUILD=$(BUILD)/fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz.sh run
fuzz-build:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(FUZZ_PACKAGES)"
	@FUZZ_BUILD=$(BUILD)/fuzz tools/fuzz.sh build

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) ref/*.h

format-check:
	@clang-format --dry-run --Werror $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) ref/*.h \
	  && echo "format: ok"

clean:
	rm -rf build
