# hdo -- one plain GNU Makefile that finds its sources by wildcard.
#
#   make            build build/libhdo.a and build/hdo
#   make run        install what is missing, build, compute the corpus
#   make check      install what is missing, build, run every test
#   make check SAN=1   the same under AddressSanitizer and UBSan
#   make bench      performance figures (never part of make check)
#   make format-check

SHELL := /bin/bash
BUILD ?= build
CC ?= cc
DEBIAN_PACKAGES := libmpfr-dev libgmp-dev libflint-dev libflint-arb-dev \
                   libcriterion-dev python3-mpmath pkg-config

OPT ?= -O2
CFLAGS ?= $(OPT) -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
          -Wshadow -Wstrict-prototypes -Iref -I/usr/include/flint
LDLIBS := -lflint-arb -lflint -lmpfr -lgmp -lm
ifeq ($(SAN),1)
  BUILD := build/san
  CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
endif

LIB_SRC := $(sort $(wildcard ref/*.c ref/*/*.c))
CLI_SRC := $(sort $(wildcard oracle/*.c))
TEST_SRC := $(sort $(wildcard tests/*/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
HDO := $(BUILD)/hdo
CASES := $(sort $(wildcard cases/*.hdae))

.PHONY: all deps run check unit e2e bench format format-check clean

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
	@$(MAKE) --no-print-directory all
	@tools/run-corpus.sh $(HDO) $(CASES)

check: deps
	@$(MAKE) --no-print-directory $(HDO) $(BUILD)/test-unit
	@$(MAKE) --no-print-directory unit e2e

unit: $(BUILD)/test-unit
	$(BUILD)/test-unit --jobs 2

e2e: $(HDO)
	@HDO=$(HDO) tests/e2e/run.sh

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) ref/*.h

format-check:
	@clang-format --dry-run --Werror $(LIB_SRC) $(CLI_SRC) $(TEST_SRC) ref/*.h \
	  && echo "format: ok"

clean:
	rm -rf build
