# oustpbm: play-by-e-mail server for Oust, by Mark Steere.
# One plain GNU Makefile.  Targets: all demo check bench strength install uninstall clean.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/oustpbm
MANDIR = $(PREFIX)/share/man
# What `make install` puts under $(DATADIR): the templates and the sample set-up
# files of scripts/ (procmailrc, forward, crontab...: whatever is there).
INST_TEMPLATES := $(sort $(wildcard templates/*.txt templates/*.html))
INST_SCRIPTS := $(sort $(filter-out scripts/install-deps scripts/demo,$(wildcard scripts/*)))

CC ?= cc
PKG_CONFIG ?= pkg-config
OPTFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -Isrc -D_DEFAULT_SOURCE -D_GNU_SOURCE -DOUSTPBM_DATADIR='"$(DATADIR)"'
CFLAGS ?= $(OPTFLAGS)
CFLAGS += -std=c11 $(WARN)

# Libraries are found through pkg-config.  DEPS_OK is empty when a Debian
# package that building needs is missing, TEST_DEPS_OK when one that building
# or testing needs is: then scripts/install-deps runs (with --test for the
# targets that test).  A plain `make` asks only for what building needs.
DEPS_OK := $(shell sh scripts/install-deps --check && echo yes)
TEST_GOALS = check fuzz fuzz-bins bench analyze san-tests tsan-tests unit-tests
TEST_DEPS_OK := $(if $(filter $(TEST_GOALS),$(MAKECMDGOALS)),$(shell sh scripts/install-deps --test --check && echo yes),yes)
GMIME_CFLAGS = $(shell $(PKG_CONFIG) --cflags gmime-3.0 2>/dev/null)
GMIME_LIBS_SHARED = $(shell $(PKG_CONFIG) --libs gmime-3.0 2>/dev/null)
# GMime, GLib and the libraries under them are linked statically when
# their archives are installed (Debian's -dev packages ship them;
# STATIC_GMIME=no forces shared).  Every mail is a new process, and mapping
# and relocating GMime's twenty shared objects was the largest part of its
# start-up: the static link, with --as-needed, maps five and saves about
# 1.8 ms per mail (make bench).  libmount has no archive in Debian (GIO's
# file code reaches it), so it stays shared, and so do the libraries it
# loads anyway (selinux, pcre2, blkid): one copy of each in the process.
STATIC_ARCHIVES = gmime-3.0 gio-2.0 glib-2.0 gpgme assuan gpg-error unistring crypt
STATIC_GMIME ?= $(if $(strip $(foreach a,$(STATIC_ARCHIVES),$(if $(wildcard $(shell $(CC) -print-file-name=lib$(a).a)),,no))),no,yes)
GMIME_LIBS_STATIC = -Wl,--as-needed -Wl,-Bstatic -lgmime-3.0 -lgio-2.0 -lgobject-2.0 -lgmodule-2.0 \
	-lglib-2.0 -lffi -lidn2 -lz -lgpgme -lassuan -lgpg-error -lunistring -lcrypt \
	-Wl,-Bdynamic -lmount -lselinux -lpcre2-8 -lm -pthread
GMIME_LIBS = $(if $(filter yes,$(STATIC_GMIME)),$(GMIME_LIBS_STATIC),$(GMIME_LIBS_SHARED))
CRYPT_LIBS = $(if $(filter yes,$(STATIC_GMIME)),,$(shell $(PKG_CONFIG) --libs libxcrypt 2>/dev/null || echo -lcrypt))
CURL_CFLAGS = $(shell $(PKG_CONFIG) --cflags libcurl 2>/dev/null)

ALL_CFLAGS = $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) $(CFLAGS)
LIBS = $(GMIME_LIBS) $(CRYPT_LIBS) -ldl -lm -pthread

# src/ has one folder per layer (README: the source); main.c is on top.
LAYERS = base game store mail outbox commands
SRCS := $(sort $(wildcard $(LAYERS:%=src/%/*.c))) src/main.c
HDRS := $(sort $(wildcard $(LAYERS:%=src/%/*.h)))
LIBSRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(SRCS:src/%.c=build/obj/%.o)
LIBOBJS := $(LIBSRCS:src/%.c=build/obj/%.o)
TESTSRCS := $(sort $(wildcard tests/unit/test_*.c))
TESTBINS := $(TESTSRCS:tests/unit/%.c=build/tests/%)
# The build for the tests: the same objects but base/testhook.o, compiled
# with TEST_HOOKS_FLAGS so that the OUSTPBM_TEST_* variables (the clock, the
# codes, crash points, the robot's moves) work; build/test/oustpbm is the
# program the tests run (tests/sh/lib.sh's bin), ./oustpbm ignores them.
TEST_HOOKS_FLAGS = -DOUSTPBM_TEST_HOOKS
TESTHOOK_OBJ = build/obj/base/testhook.o
TEST_HOOK_OBJ = build/test/obj/base/testhook.o
TESTOBJS := $(OBJS:$(TESTHOOK_OBJ)=$(TEST_HOOK_OBJ))
TESTLIBOBJS := $(LIBOBJS:$(TESTHOOK_OBJ)=$(TEST_HOOK_OBJ))
TEST_BIN = build/test/oustpbm
BENCHSRCS := $(sort $(wildcard tests/bench/*.c))
BENCHBINS := $(BENCHSRCS:tests/bench/%.c=build/bench/%)

# The sanitizer build of the rules and codec tests (AddressSanitizer + UBSan).
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
SANOBJS := $(LIBSRCS:src/%.c=build/san/obj/%.o)
SANBINS := $(TESTSRCS:tests/unit/%.c=build/san/tests/%)

# The ThreadSanitizer build of the AI tests: level 5's two threads share one
# tree without locks (src/game/ai.c), and any race it reports fails check.
# AI_TEST_HOOKS: a test stalls level 5's helper thread (ai.h)
TSAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=thread -DAI_TEST_HOOKS
TSAN_SRCS = src/game/ai.c src/game/aiboard.c src/game/rules.c
TSANBINS = build/tsan/tests/test_ai

# libFuzzer harnesses (tests/fuzz/): clang with ASan+UBSan; `make fuzz`
# runs each for FUZZ_TIME seconds, `make check` a short smoke of each.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZOBJS := $(LIBSRCS:src/%.c=build/fuzz/obj/%.o)
FUZZSRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZBINS := $(FUZZSRCS:tests/fuzz/%.c=build/fuzz/%)

.PHONY: all deps test-deps test-bin demo check bench strength install uninstall clean unit-tests san-tests tsan-tests fuzz fuzz-bins analyze hex-draw FORCE
.SECONDARY:

all: deps oustpbm

deps:
ifneq ($(DEPS_OK),yes)
	@echo "oustpbm: development packages missing; running scripts/install-deps"
	sh scripts/install-deps
	@sh scripts/install-deps --check || { echo "oustpbm: dependencies still missing"; exit 1; }
endif

# What the tests need besides: valgrind, clang, aiosmtpd, Postfix, procmail...
test-deps: deps
ifneq ($(TEST_DEPS_OK),yes)
	@echo "oustpbm: test packages missing; running scripts/install-deps --test"
	sh scripts/install-deps --test
	@sh scripts/install-deps --test --check || { echo "oustpbm: test dependencies still missing"; exit 1; }
endif

oustpbm: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

test-bin: deps $(TEST_BIN)

# the templates and scripts beside it, as beside ./oustpbm in a checkout (what the program finds there)
$(TEST_BIN): $(TESTOBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TESTOBJS) $(LIBS)
	ln -sfn ../../templates build/test/templates
	ln -sfn ../../scripts build/test/scripts

$(TEST_HOOK_OBJ): src/base/testhook.c $(HDRS) | build/obj
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_HOOKS_FLAGS) -c -o $@ $<

# The rules core's hot loops (legal sets, random play) gain about 5% from -O3 with gcc 12.
build/obj/game/rules.o: CFLAGS += -O3
# The AI's playout board: its loops over the neighbours of a point, unrolled, cost about
# 10% less time a random game (measured with gcc 12 and callgrind's branch simulation).
build/obj/game/aiboard.o: CFLAGS += -funroll-loops
# The same for the AI's playout policy (its loops over the neighbours and the points within
# two steps): about 6% more playouts a second with gcc 12 (make bench).  Without errno,
# sqrtf is an instruction, and the tree search's loop over a node's children vectorises.
build/obj/game/ai.o: CFLAGS += -funroll-loops -fno-math-errno

# reply.o holds DATADIR, where the installed program finds its templates (admin.o
# names its scripts/ in what init prints): it is
# rebuilt when PREFIX changes (make PREFIX=/usr install after a plain make).
build/obj/mail/reply.o build/san/obj/mail/reply.o build/obj/commands/admin.o build/san/obj/commands/admin.o: build/datadir
build/datadir: FORCE | build/obj
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@

build/obj/%.o: src/%.c $(HDRS) | build/obj
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/tests/%: tests/unit/%.c tests/unit/t.h $(wildcard tests/unit/*.h) $(HDRS) $(TESTLIBOBJS) | build/tests
	$(CC) $(ALL_CFLAGS) -o $@ $< $(TESTLIBOBJS) $(LIBS)

build/bench/%: tests/bench/%.c tests/bench/bench.h $(HDRS) $(TESTLIBOBJS) | build/bench
	$(CC) $(ALL_CFLAGS) -o $@ $< $(TESTLIBOBJS) $(LIBS)

build/san/obj/%.o: src/%.c $(HDRS) | build/san/obj
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) -std=c11 $(WARN) $(SAN_FLAGS) $(TEST_HOOKS_FLAGS) -c -o $@ $<

build/san/tests/%: tests/unit/%.c tests/unit/t.h $(wildcard tests/unit/*.h) $(HDRS) $(SANOBJS) | build/san/tests
	$(CC) $(CPPFLAGS) $(GMIME_CFLAGS) -std=c11 $(WARN) $(SAN_FLAGS) -o $@ $< $(SANOBJS) $(LIBS)

build/tsan/tests/%: tests/unit/%.c tests/unit/t.h $(wildcard tests/unit/*.h) $(HDRS) $(TSAN_SRCS) | build/tsan/tests
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) $(TSAN_FLAGS) -o $@ $< $(TSAN_SRCS) -lm -pthread

build/fuzz/obj/%.o: src/%.c $(HDRS) | build/fuzz/obj
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) $(TEST_HOOKS_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c $(HDRS) $(FUZZOBJS) | build/fuzz/obj
	$(FUZZ_CC) $(CPPFLAGS) $(GMIME_CFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZOBJS) $(LIBS)

build/obj: | deps
	mkdir -p $@
build/tests build/bench build/san/obj build/san/tests build/tsan/tests build/fuzz/obj: | test-deps
	mkdir -p $@

fuzz-bins: $(FUZZBINS)

fuzz: test-deps fuzz-bins
	@sh tests/fuzz/run-fuzz $(FUZZ_TIME)

unit-tests: $(TESTBINS)
san-tests: $(SANBINS)
tsan-tests: $(TSANBINS)

check: test-deps oustpbm $(TEST_BIN) unit-tests san-tests tsan-tests fuzz-bins
	@sh tests/run-tests

demo: deps oustpbm
	@sh scripts/demo

bench: test-deps oustpbm $(TEST_BIN) $(BENCHBINS)
	@sh tests/bench/run-bench

# Every position play can reach on the hex board of side 3: is any a draw?
# (tests/tools/hexdraw.c; about a minute of CPU and 300 MB, not part of check)
hex-draw: build/tools/hexdraw
	build/tools/hexdraw

build/tools/hexdraw: tests/tools/hexdraw.c src/game/rules.h build/obj/game/rules.o
	mkdir -p build/tools
	$(CC) $(ALL_CFLAGS) -o $@ $< build/obj/game/rules.o
# Strength matches through GTP (tests/strength/strength.py): each level against
# the random and greedy test players and the level below, on 9x9, 11x11 and the
# hex board of side 7 (h7), alternating colours, with 95% intervals.  Long: not
# part of check.  STRENGTH_FIXED=1:200,2:500,... gives each level a fixed playout
# budget a placement instead of a think time: the same games whatever the load.
# STRENGTH_CHUNK=N plays a match as engine pairs of N games, so that one long
# match runs on STRENGTH_JOBS cores.
STRENGTH_GAMES ?= 20
STRENGTH_SECONDS ?= 1
STRENGTH_PLAYOUTS ?= 0
STRENGTH_FIXED ?=
STRENGTH_SIZES ?= 9,11,h7
STRENGTH_LEVELS ?= 1-5
STRENGTH_JOBS ?= 1
STRENGTH_CHUNK ?= 0
strength: deps oustpbm
	/usr/bin/python3 tests/strength/strength.py ./oustpbm --games $(STRENGTH_GAMES) \
	    --seconds $(STRENGTH_SECONDS) --playouts $(STRENGTH_PLAYOUTS) --sizes $(STRENGTH_SIZES) \
	    --levels $(STRENGTH_LEVELS) --jobs $(STRENGTH_JOBS) --chunk $(STRENGTH_CHUNK) \
	    $(if $(STRENGTH_FIXED),--fixed $(STRENGTH_FIXED) --progress)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(DATADIR)/scripts \
	    $(DESTDIR)$(MANDIR)/man1
	install -m 755 oustpbm $(DESTDIR)$(BINDIR)/oustpbm
	install -m 644 $(INST_TEMPLATES) $(DESTDIR)$(DATADIR)/templates/
	$(if $(INST_SCRIPTS),install -m 644 $(INST_SCRIPTS) $(DESTDIR)$(DATADIR)/scripts/)
	install -m 644 doc/oustpbm.1 $(DESTDIR)$(MANDIR)/man1/oustpbm.1

# Removes exactly what install put; directories only if nothing else is in them.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/oustpbm $(DESTDIR)$(MANDIR)/man1/oustpbm.1
	rm -f $(INST_TEMPLATES:templates/%=$(DESTDIR)$(DATADIR)/templates/%)
	rm -f $(INST_SCRIPTS:scripts/%=$(DESTDIR)$(DATADIR)/scripts/%)
	rmdir $(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(DATADIR)/scripts $(DESTDIR)$(DATADIR) 2>/dev/null || true

clean:
	rm -rf build oustpbm

# Static analysis of src/*/*.c and src/main.c: gcc -fanalyzer and clang --analyze; any finding fails.
ANALYZE_FLAGS = -std=c11 $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS)
analyze: test-deps
	@rc=0; for f in $(SRCS); do \
		gcc -fanalyzer -O1 $(ANALYZE_FLAGS) -c -o /dev/null $$f 2>&1 | grep -A30 'warning:' && rc=1; \
		$(FUZZ_CC) --analyze -Xanalyzer -analyzer-output=text $(ANALYZE_FLAGS) -o /dev/null $$f 2>&1 | \
		    grep -A30 'warning:' && rc=1; \
	done; \
	if [ $$rc -eq 0 ]; then echo "analyze: gcc -fanalyzer and clang --analyze: no findings"; fi; exit $$rc
