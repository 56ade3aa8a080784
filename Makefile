# oustpbm: play-by-e-mail server for Oust, by Mark Steere.
# One plain GNU Makefile.  Targets: all demo check bench strength install uninstall deb clean.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/oustpbm
MANDIR = $(PREFIX)/share/man
# The system's oustpbm.conf, read under every home (src/base/config.h):
# SYSCONFDIR/oustpbm/oustpbm.conf; /etc for PREFIX=/usr (the Debian package).
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
# What `make install` puts under $(DATADIR): the templates and the sample set-up
# files of scripts/ (procmailrc, forward, crontab...: whatever is there).
INST_TEMPLATES := $(sort $(wildcard templates/*.txt templates/*.html))
INST_SCRIPTS := $(sort $(filter-out scripts/install-deps scripts/demo,$(wildcard scripts/*)))
# The record of an install, $(DATADIR)/installed: every file and every folder
# `make install` made, one a line, as `make uninstall` removes them.
MANIFEST = $(DATADIR)/installed
# The path variables compiled in (OUSTPBM_DATADIR, OUSTPBM_BINDIR, OUSTPBM_SYSCONFDIR) and put in
# the installed scripts: build/paths holds their values, and every object
# whose source names one is built again when one changes.
PATH_VARS = PREFIX=$(PREFIX) BINDIR=$(BINDIR) DATADIR=$(DATADIR) MANDIR=$(MANDIR) SYSCONFDIR=$(SYSCONFDIR)

CC ?= cc
PKG_CONFIG ?= pkg-config
OPTFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -Isrc -D_DEFAULT_SOURCE -D_GNU_SOURCE -DOUSTPBM_DATADIR='"$(DATADIR)"' -DOUSTPBM_BINDIR='"$(BINDIR)"' \
	-DOUSTPBM_SYSCONFDIR='"$(SYSCONFDIR)"'
CFLAGS ?= $(OPTFLAGS)
CFLAGS += -std=c11 $(WARN)

# Libraries are found through pkg-config.  A plain `make` only probes
# them (PKGS_MISSING) and, when one is missing, says which and how to install
# it: it never runs apt-get.  The targets that promise to set the machine up
# (check, demo and the other test targets: README) run scripts/install-deps
# when a Debian package they need is missing (with --test for those that test).
PKG_MODULES = gmime-3.0 libcurl libxcrypt zlib
PKGS_MISSING := $(foreach m,$(PKG_MODULES),$(if $(shell $(PKG_CONFIG) --exists $(m) 2>/dev/null && echo y),,$(m)))
TEST_GOALS = check demo fuzz fuzz-bins bench analyze san-tests tsan-tests unit-tests
SETUP := $(if $(filter $(TEST_GOALS),$(MAKECMDGOALS)),yes,no)
DEPS_OK := $(if $(filter yes,$(SETUP)),$(shell sh scripts/install-deps --check && echo yes),yes)
TEST_DEPS_OK := $(if $(filter yes,$(SETUP)),$(shell sh scripts/install-deps --test --check && echo yes),yes)
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

# Quiet build lines, as git's shared.mak: "CC file"; V=1 prints the whole commands.
ifneq ($(V),1)
QUIET_CC = @echo '   ' CC $@;
QUIET_LINK = @echo '   ' LINK $@;
endif

ALL_CFLAGS = $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) $(CFLAGS)
# zlib: status reads the log logrotate compressed (admin_status.c)
ZLIB_LIBS = $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null || echo -lz)
LIBS = $(GMIME_LIBS) $(CRYPT_LIBS) $(ZLIB_LIBS) -ldl -lm -pthread

# src/ has one folder per layer (README: the source); main.c is on top.
# commands/ has parts of its own (doc/HACKING.md): the pipeline, the
# services several commands use, the library the mail commands share, one
# file per mail command keyword, and one file per admin command.
LAYERS = base game store mail outbox commands
COMMANDS_PARTS = pipeline services lib keywords admin
SRCS := $(sort $(wildcard $(LAYERS:%=src/%/*.c) $(COMMANDS_PARTS:%=src/commands/%/*.c))) src/main.c
# Each object and program depends on the headers it includes, as the
# compiler lists them (-MMD) with an empty rule for each (-MP): a header
# removed or renamed breaks no build.
# A target whose .d file is missing (a build from before -MMD, or one
# interrupted) is rebuilt: the .d files' empty rule makes them count as new.
DEPFLAGS = -MMD -MP
LIBSRCS := $(filter-out src/main.c,$(SRCS))
# The rules core (placement and capture, the geometry, the turn state): the tools below link it alone.
RULES_SRCS = src/game/rules.c src/game/rules_game.c src/game/rules_geometry.c
RULES_OBJS = $(RULES_SRCS:src/%.c=build/obj/%.o)
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
TSAN_SRCS = src/game/ai.c src/game/aibaseline.c src/game/aiplayout.c src/game/aiboard.c src/game/game_status.c $(RULES_SRCS)
TSANBINS = build/tsan/tests/test_ai

# libFuzzer harnesses (tests/fuzz/): clang with ASan+UBSan; `make fuzz`
# runs each for FUZZ_TIME seconds, `make check` a short smoke of each.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZOBJS := $(LIBSRCS:src/%.c=build/fuzz/obj/%.o)
FUZZSRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZBINS := $(FUZZSRCS:tests/fuzz/%.c=build/fuzz/%)

.PHONY: deb all deps test-deps test-bin demo check bench strength strength-scaling strength-calibrate install uninstall clean unit-tests san-tests tsan-tests fuzz fuzz-bins analyze hex-draw solve-hex3 solve-big FORCE

all: deps oustpbm

deps:
ifneq ($(DEPS_OK),yes)
	@echo "oustpbm: development packages missing; running scripts/install-deps"
	sh scripts/install-deps
	@sh scripts/install-deps --check || { echo "oustpbm: dependencies still missing"; exit 1; }
endif
ifneq ($(SETUP),yes)
ifneq ($(strip $(PKGS_MISSING)),)
	@echo "oustpbm: pkg-config finds no $(strip $(PKGS_MISSING)): install the development packages" >&2
	@echo "  (as root: sh scripts/install-deps; or: apt-get install $$(sh scripts/install-deps --list))" >&2
	@exit 1
endif
endif

# What the tests need besides: valgrind, clang, aiosmtpd, Postfix, procmail...
test-deps: deps
ifneq ($(TEST_DEPS_OK),yes)
	@echo "oustpbm: test packages missing; running scripts/install-deps --test"
	sh scripts/install-deps --test
	@sh scripts/install-deps --test --check || { echo "oustpbm: test dependencies still missing"; exit 1; }
endif

oustpbm: $(OBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

test-bin: deps $(TEST_BIN)

# the templates and scripts beside it, as beside ./oustpbm in a checkout (what the program finds there)
$(TEST_BIN): $(TESTOBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TESTOBJS) $(LIBS)
	@ln -sfn ../../templates build/test/templates
	@ln -sfn ../../scripts build/test/scripts

$(TEST_HOOK_OBJ): src/base/testhook.c $(TEST_HOOK_OBJ:.o=.d) | build/obj
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(TEST_HOOKS_FLAGS) -c -o $@ $<

# The rules core's hot loops (legal sets, random play) gain about 5% from -O3 with gcc 12.
$(RULES_OBJS): CFLAGS += -O3
# The AI's playout board: its loops over the neighbours of a point, unrolled, cost about
# 10% less time a random game (measured with gcc 12 and callgrind's branch simulation).
build/obj/game/aiboard.o: CFLAGS += -funroll-loops
# The same for the AI's playout policy (its loops over the neighbours and the points within
# two steps): about 6% more playouts a second with gcc 12 (make bench).  Without errno,
# sqrtf is an instruction, and the tree search's loop over a node's children vectorises.
build/obj/game/aiplayout.o: CFLAGS += -funroll-loops
build/obj/game/ai.o: CFLAGS += -funroll-loops -fno-math-errno

# The objects that hold a path of the install (reply.o: the templates;
# admin_init.o: the scripts init names...): found by the macro names, so a new
# one cannot be forgotten; rebuilt when build/paths changes (make PREFIX=/usr
# install after a plain make).
PATH_SRCS := $(shell grep -l 'OUSTPBM_DATADIR\|OUSTPBM_BINDIR\|OUSTPBM_SYSCONFDIR' $(SRCS))
$(PATH_SRCS:src/%.c=build/obj/%.o) $(PATH_SRCS:src/%.c=build/san/obj/%.o) $(PATH_SRCS:src/%.c=build/fuzz/obj/%.o): build/paths
build/paths: FORCE | build/obj
	@echo '$(PATH_VARS)' | cmp -s - $@ || echo '$(PATH_VARS)' >$@

build/obj/%.o: src/%.c build/obj/%.d | build/obj
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

build/tests/%: tests/unit/%.c build/tests/%.d $(TESTLIBOBJS) | build/tests
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(TESTLIBOBJS) $(LIBS)

build/bench/%: tests/bench/%.c build/bench/%.d $(TESTLIBOBJS) | build/bench
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -o $@ $< $(TESTLIBOBJS) $(LIBS)

build/san/obj/%.o: src/%.c build/san/obj/%.d | build/san/obj
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(DEPFLAGS) $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) -std=c11 $(WARN) $(SAN_FLAGS) $(TEST_HOOKS_FLAGS) -c -o $@ $<

build/san/tests/%: tests/unit/%.c build/san/tests/%.d $(SANOBJS) | build/san/tests
	$(QUIET_LINK)$(CC) $(DEPFLAGS) $(CPPFLAGS) $(GMIME_CFLAGS) -std=c11 $(WARN) $(SAN_FLAGS) -o $@ $< $(SANOBJS) $(LIBS)

build/tsan/tests/%: tests/unit/%.c $(TSAN_SRCS) | build/tsan/tests
	$(QUIET_LINK)$(CC) $(DEPFLAGS) $(CPPFLAGS) -std=c11 $(WARN) $(TSAN_FLAGS) -o $@ $< $(TSAN_SRCS) -lm -pthread

build/fuzz/obj/%.o: src/%.c build/fuzz/obj/%.d | build/fuzz/obj
	@mkdir -p $(@D)
	$(QUIET_CC)$(FUZZ_CC) $(DEPFLAGS) $(CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) $(TEST_HOOKS_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c build/fuzz/%.d $(FUZZOBJS) | build/fuzz/obj
	$(QUIET_LINK)$(FUZZ_CC) $(DEPFLAGS) $(CPPFLAGS) $(GMIME_CFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZOBJS) $(LIBS)

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

build/tools/hexdraw: tests/tools/hexdraw.c src/game/rules.h $(RULES_OBJS)
	mkdir -p build/tools
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $< $(RULES_OBJS)
# Oust solved on the hex board of side 3 (tests/tools/solvehex.c, src/game/solve.c): every
# reachable position with its value and turns, then every entry checked against the rules
# core (SOLVE_EVERY=K checks every K-th only).  Not part of check: see the README.
SOLVE_EVERY ?= 1
solve-hex3: build/tools/solvehex
	build/tools/solvehex $(SOLVE_EVERY)

build/tools/solvehex: tests/tools/solvehex.c src/game/rules.h src/game/solve.h $(RULES_OBJS) build/obj/game/solve.o build/obj/game/game_status.o
	mkdir -p build/tools
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $< $(RULES_OBJS) build/obj/game/solve.o build/obj/game/game_status.o
# How far a proof search gets on the square 5x5 and the hex board of side 4 within caps of
# positions and CPU seconds (tests/tools/solvebig.c; README: the solved board).  Not part of check.
SOLVE_POSITIONS ?= 8000000
SOLVE_SECONDS ?= 240
solve-big: build/tools/solvebig
	build/tools/solvebig square 5 $(SOLVE_POSITIONS) $(SOLVE_SECONDS) black
	build/tools/solvebig square 5 $(SOLVE_POSITIONS) $(SOLVE_SECONDS) white
	build/tools/solvebig hex 4 $(SOLVE_POSITIONS) $(SOLVE_SECONDS) black
	build/tools/solvebig hex 4 $(SOLVE_POSITIONS) $(SOLVE_SECONDS) white

build/tools/solvebig: tests/tools/solvebig.c src/game/rules.h $(RULES_OBJS)
	mkdir -p build/tools
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $< $(RULES_OBJS)
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
	$(MAKE) --no-print-directory strength-scaling

# Time scaling: level 5 at SCALING_FACTOR times SCALING_SECONDS a placement against
# itself at SCALING_SECONDS, on 9x9 and 11x11, alternating colours, with 95% intervals
# and how full the stronger side's node pool was.  On a shared machine a think time
# buys a varying number of playouts: SCALING_RATES gives level 5's playouts a second on
# one thread by board size (`make strength-calibrate` measures them, in CPU time), and
# each side then searches the fixed budget its think time buys at that rate.  Set
# SCALING_RATES= (empty) on an idle machine to play by the clock instead.
SCALING_FACTOR ?= 4
SCALING_SECONDS ?= 1
SCALING_SIZES ?= 9,11
SCALING_GAMES ?= 16
SCALING_CHUNK ?= 2
SCALING_RATES ?= 9:65000,11:41000
strength-scaling: deps oustpbm
	/usr/bin/python3 tests/strength/strength.py ./oustpbm --levels 5 --opponents slower \
	    --scaling $(SCALING_FACTOR) --seconds $(SCALING_SECONDS) --sizes $(SCALING_SIZES) \
	    --games $(SCALING_GAMES) --jobs $(STRENGTH_JOBS) --chunk $(SCALING_CHUNK) \
	    --progress --stats $(if $(SCALING_RATES),--rates $(SCALING_RATES))

# Level 5's playouts a CPU second on one thread, median of 3 games a board size, at a
# fixed budget of CALIBRATE_PLAYOUTS a placement: the figures for SCALING_RATES.
CALIBRATE_PLAYOUTS ?= 20000
strength-calibrate: deps oustpbm
	/usr/bin/python3 tests/strength/strength.py ./oustpbm --calibrate --games 3 \
	    --playouts $(CALIBRATE_PLAYOUTS) --sizes $(SCALING_SIZES)

# The installed scripts and the man page name the installed paths: @BINDIR@,
# @DATADIR@ and @SYSCONFDIR@ in scripts/ and doc/oustpbm.1 are replaced.
# Every folder made (the first missing one of each path up) and every file
# is listed in $(MANIFEST), the file last but one.  The install writes
# nothing into the checkout (its lists and the edited copies go through a
# temporary folder): run as root after a user's make, it leaves no file of
# root's in build/.
INST_DIRS = $(BINDIR) $(DATADIR)/templates $(DATADIR)/scripts $(MANDIR)/man1
INST_SED = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'
install: all
	@set -e; t=$$(mktemp -d "$${TMPDIR:-/tmp}/oustpbm-install.XXXXXX"); trap 'rm -rf "$$t"' EXIT; \
	: >"$$t/made"; \
	for d in $(INST_DIRS); do \
		p=$$d; made=; \
		while [ -n "$$p" ] && [ "$$p" != / ] && [ ! -d "$(DESTDIR)$$p" ]; do made="$$p $$made"; p=$${p%/*}; done; \
		for m in $$made; do grep -qxF "$$m/" "$$t/made" || echo "$$m/" >>"$$t/made"; done; \
	done; \
	{ echo "$(BINDIR)/oustpbm"; \
	  for f in $(INST_TEMPLATES); do echo "$(DATADIR)/$$f"; done; \
	  for f in $(INST_SCRIPTS); do echo "$(DATADIR)/$$f"; done; \
	  echo "$(MANDIR)/man1/oustpbm.1"; } >"$$t/files"; \
	echo "install -d $(addprefix $(DESTDIR),$(INST_DIRS))"; \
	install -d $(addprefix $(DESTDIR),$(INST_DIRS)); \
	echo "install -m 755 oustpbm $(DESTDIR)$(BINDIR)/oustpbm"; \
	install -m 755 oustpbm $(DESTDIR)$(BINDIR)/oustpbm; \
	echo "install -m 644 $(INST_TEMPLATES) $(DESTDIR)$(DATADIR)/templates/"; \
	install -m 644 $(INST_TEMPLATES) $(DESTDIR)$(DATADIR)/templates/; \
	for f in $(INST_SCRIPTS); do \
		$(INST_SED) $$f >"$$t/script"; \
		install -m 644 "$$t/script" $(DESTDIR)$(DATADIR)/$$f; \
	done; \
	echo "$(INST_SED) doc/oustpbm.1 >$(DESTDIR)$(MANDIR)/man1/oustpbm.1"; \
	$(INST_SED) doc/oustpbm.1 >"$$t/oustpbm.1"; \
	install -m 644 "$$t/oustpbm.1" $(DESTDIR)$(MANDIR)/man1/oustpbm.1; \
	{ if [ -f $(DESTDIR)$(MANIFEST) ]; then grep '/$$' $(DESTDIR)$(MANIFEST); fi; cat "$$t/made"; } | \
	    awk '!seen[$$0]++' >"$$t/dirs"; \
	{ cat "$$t/files"; echo "$(MANIFEST)"; cat "$$t/dirs"; } >"$$t/list"; \
	install -m 644 "$$t/list" $(DESTDIR)$(MANIFEST); \
	echo "oustpbm: installed under $(DESTDIR)$(PREFIX); make uninstall PREFIX=$(PREFIX) removes it ($(MANIFEST))"

# Removes exactly what $(MANIFEST) lists: its files, then the folders install
# made, the deepest first, each only if nothing else is in it.  Nothing
# installed at this PREFIX: says which PREFIX the last build here was for
# (build/paths), where its make install went.
uninstall:
	@if [ ! -f $(DESTDIR)$(MANIFEST) ]; then \
		echo "oustpbm: nothing installed under $(DESTDIR)$(PREFIX) (no $(DESTDIR)$(MANIFEST))" >&2; \
		last=$$(sed -n 's/^PREFIX=\([^ ]*\) .*/\1/p' build/paths 2>/dev/null); \
		if [ -n "$$last" ] && [ "$$last" != "$(PREFIX)" ]; then \
			echo "oustpbm: the last build here was for PREFIX=$$last: make uninstall PREFIX=$$last" >&2; \
		fi; exit 1; \
	fi
	@set -e; list=$$(cat $(DESTDIR)$(MANIFEST)); \
	echo "$$list" | grep -v '/$$' | while IFS= read -r f; do rm -f "$(DESTDIR)$$f"; done; \
	echo "$$list" | grep '/$$' | awk '{ print length($$0) " " $$0 }' | sort -rn | cut -d' ' -f2- | \
	while IFS= read -r d; do \
		rmdir "$(DESTDIR)$$d" 2>/dev/null || [ ! -d "$(DESTDIR)$$d" ] || echo "oustpbm: kept $(DESTDIR)$$d: not empty"; \
	done
	@echo "oustpbm: uninstalled from $(DESTDIR)$(PREFIX)"

# The Debian package (debian/, doc/admin.md: the package): dpkg-buildpackage
# -us -uc -b on a copy of the sources in build/deb/src, so that everything
# it writes (the .deb, .changes and .buildinfo beside its tree, the
# objects) stays in build/deb/; the checkout's own build/ is not touched.
# debian/control says Rules-Requires-Root: no: no root or fakeroot needed.
DEB_SRCS = Makefile README.md debian doc scripts src templates
deb: deps
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || { echo "oustpbm: make deb needs \
	    dpkg-dev and debhelper (as root: apt-get install dpkg-dev debhelper, or sh scripts/install-deps --test)" >&2; exit 1; }
	rm -rf build/deb
	mkdir -p build/deb/src
	cp -pr $(DEB_SRCS) build/deb/src/
	cd build/deb/src && dpkg-buildpackage -us -uc -b >../build.log 2>&1 || \
	    { tail -n 30 ../build.log >&2; echo "oustpbm: dpkg-buildpackage failed: build/deb/build.log" >&2; exit 1; }
	rm -rf build/deb/src
	@# made by root in a checkout of another user: that user's again, so a later make clean can remove it
	@[ "$$(id -u)" != 0 ] || { chown "$$(stat -c %u:%g .)" build && chown -R "$$(stat -c %u:%g .)" build/deb; }
	@ls build/deb/*.deb

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

# Named as targets (so not intermediate: .SECONDARY would otherwise let a
# missing one pass) with an empty rule.
DEPFILES = $(OBJS:.o=.d) $(TEST_HOOK_OBJ:.o=.d) $(SANOBJS:.o=.d) $(FUZZOBJS:.o=.d) $(TESTBINS:=.d) $(SANBINS:=.d) \
	$(FUZZBINS:=.d) $(BENCHBINS:=.d)
$(DEPFILES): ;
-include $(wildcard $(DEPFILES))
# The sanitizer and fuzzer objects are prerequisites of pattern rules only:
# kept, not removed as intermediate files after each check.
.SECONDARY: $(SANOBJS) $(FUZZOBJS) $(TEST_HOOK_OBJ)
