# oustpbm: play-by-e-mail server for Oust, by Mark Steere.
# One plain GNU Makefile.  Targets: all demo check bench install uninstall clean.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/oustpbm

CC ?= cc
PKG_CONFIG ?= pkg-config
OPTFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -D_DEFAULT_SOURCE -D_GNU_SOURCE -DOUSTPBM_DATADIR='"$(DATADIR)"'
CFLAGS ?= $(OPTFLAGS)
CFLAGS += -std=c11 $(WARN)

# Libraries are found through pkg-config.  DEPS_OK is empty when a Debian
# package that building or testing needs is missing: then scripts/install-deps runs.
DEPS_OK := $(shell sh scripts/install-deps --check && echo yes)
GMIME_CFLAGS = $(shell $(PKG_CONFIG) --cflags gmime-3.0 2>/dev/null)
GMIME_LIBS = $(shell $(PKG_CONFIG) --libs gmime-3.0 2>/dev/null)
CRYPT_LIBS = $(shell $(PKG_CONFIG) --libs libxcrypt 2>/dev/null || echo -lcrypt)
CURL_CFLAGS = $(shell $(PKG_CONFIG) --cflags libcurl 2>/dev/null)

ALL_CFLAGS = $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) $(CFLAGS)
LIBS = $(GMIME_LIBS) $(CRYPT_LIBS) -ldl

SRCS := $(sort $(wildcard src/*.c))
LIBSRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(SRCS:src/%.c=build/obj/%.o)
LIBOBJS := $(LIBSRCS:src/%.c=build/obj/%.o)
TESTSRCS := $(sort $(wildcard tests/unit/test_*.c))
TESTBINS := $(TESTSRCS:tests/unit/%.c=build/tests/%)
BENCHSRCS := $(sort $(wildcard tests/bench/*.c))
BENCHBINS := $(BENCHSRCS:tests/bench/%.c=build/bench/%)

# The sanitizer build of the rules and codec tests (AddressSanitizer + UBSan).
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
SANOBJS := $(LIBSRCS:src/%.c=build/san/obj/%.o)
SANBINS := $(TESTSRCS:tests/unit/%.c=build/san/tests/%)

# libFuzzer harnesses (tests/fuzz/): clang with ASan+UBSan; `make fuzz`
# runs each for FUZZ_TIME seconds, `make check` a short smoke of each.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZOBJS := $(LIBSRCS:src/%.c=build/fuzz/obj/%.o)
FUZZSRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZBINS := $(FUZZSRCS:tests/fuzz/%.c=build/fuzz/%)

.PHONY: all deps demo check bench install uninstall clean unit-tests san-tests fuzz fuzz-bins analyze
.SECONDARY:

all: deps oustpbm

deps:
ifneq ($(DEPS_OK),yes)
	@echo "oustpbm: development packages missing; running scripts/install-deps"
	sh scripts/install-deps
	@sh scripts/install-deps --check || { echo "oustpbm: dependencies still missing"; exit 1; }
endif

oustpbm: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

# The rules core's hot loops (legal sets, random play) gain about 5% from -O3 with gcc 12.
build/obj/rules.o: CFLAGS += -O3

build/obj/%.o: src/%.c $(wildcard src/*.h) | build/obj
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/tests/%: tests/unit/%.c tests/unit/t.h $(LIBOBJS) | build/tests
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIBOBJS) $(LIBS)

build/bench/%: tests/bench/%.c tests/bench/bench.h $(LIBOBJS) | build/bench
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIBOBJS) $(LIBS)

build/san/obj/%.o: src/%.c $(wildcard src/*.h) | build/san/obj
	$(CC) $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) -std=c11 $(WARN) $(SAN_FLAGS) -c -o $@ $<

build/san/tests/%: tests/unit/%.c tests/unit/t.h $(SANOBJS) | build/san/tests
	$(CC) $(CPPFLAGS) $(GMIME_CFLAGS) -std=c11 $(WARN) $(SAN_FLAGS) -Isrc -o $@ $< $(SANOBJS) $(LIBS)

build/fuzz/obj/%.o: src/%.c $(wildcard src/*.h) | build/fuzz/obj
	$(FUZZ_CC) $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c $(FUZZOBJS) | build/fuzz/obj
	$(FUZZ_CC) $(CPPFLAGS) $(GMIME_CFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -Isrc -o $@ $< $(FUZZOBJS) $(LIBS)

build/obj build/tests build/bench build/san/obj build/san/tests build/fuzz/obj: | deps
	mkdir -p $@

fuzz-bins: $(FUZZBINS)

fuzz: deps fuzz-bins
	@sh tests/fuzz/run-fuzz $(FUZZ_TIME)

unit-tests: $(TESTBINS)
san-tests: $(SANBINS)

check: deps oustpbm unit-tests san-tests fuzz-bins
	@sh tests/run-tests

demo: deps oustpbm
	@sh scripts/demo

bench: deps oustpbm $(BENCHBINS)
	@sh tests/bench/run-bench

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(DATADIR)/scripts
	install -m 755 oustpbm $(DESTDIR)$(BINDIR)/oustpbm
	if ls templates/*.txt >/dev/null 2>&1; then install -m 644 templates/*.txt $(DESTDIR)$(DATADIR)/templates/; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/oustpbm
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build oustpbm

# Static analysis of src/*.c: gcc -fanalyzer and clang --analyze; any finding fails.
ANALYZE_FLAGS = -std=c11 $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS)
analyze: deps
	@rc=0; for f in $(SRCS); do \
		gcc -fanalyzer -O1 $(ANALYZE_FLAGS) -c -o /dev/null $$f 2>&1 | grep -A30 'warning:' && rc=1; \
		$(FUZZ_CC) --analyze -Xanalyzer -analyzer-output=text $(ANALYZE_FLAGS) -o /dev/null $$f 2>&1 | \
		    grep -A30 'warning:' && rc=1; \
	done; \
	if [ $$rc -eq 0 ]; then echo "analyze: gcc -fanalyzer and clang --analyze: no findings"; fi; exit $$rc
