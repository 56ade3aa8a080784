# tests/sh/lib.sh: the preamble every shell test of tests/sh/ sources, as
# the first line after its opening comment:
#
#	. "$(dirname "$0")/lib.sh"
#
# It moves to the top of the checkout and sets:
#   top     the checkout
#   bin     the program under test: $OUSTPBM_BIN, or build/test/oustpbm,
#           the build with the test hooks (make test-bin; the OUSTPBM_TEST_*
#           variables do nothing in ./oustpbm), made here when missing or
#           older than a file of src/ (under a lock: tests run side by side)
#   PY      Debian's python3 (/usr/bin/python3, for Debian's modules)
#   T0      the fixed clock of the tests (a value for OUSTPBM_TEST_TIME)
#   n       the number of the last check; fails: how many failed
# and unsets OUSTPBM_HOME and the test hooks (OUSTPBM_TEST_CRASH,
# OUSTPBM_TEST_ROBOT, OUSTPBM_TEST_LIBCURL, OUSTPBM_TEST_SALT) a caller's environment may hold.
# On EXIT it runs what at_exit registered, kills what bg registered and
# removes $tmp (kept when KEEP is set, for a post-mortem); INT, TERM and HUP
# exit 2 through the same path.
#
# Output is what tests/run-tests counts: one "ok N - ..." or "not ok N - ..."
# line per check; a script that exits non-zero without a "not ok" line
# counts as one failure.
#
#   tmpdir              makes $tmp, a fresh temporary directory (named after
#                       the script) that the exit trap removes
#   check DESC CMD...   runs CMD (one simple command) and prints "ok N - DESC"
#                       or "not ok N - DESC".  A condition of two tests is
#                       one command too: sh -c '[ ... ] && [ ... ]' sh ARGS,
#                       or one comparison of joined values
#                       ("$(a) $(b)" = "0 4"); `check D [ a ] && [ b ]`
#                       would only check [ a ] (tests/sh/lint.sh refuses it)
#   pass DESC, fail DESC   an ok / not ok line with no command behind it
#   skip DESC           an ok line marked "# skip DESC" (a check that cannot
#                       run here, counted as passed)
#   skip_all REASON     "ok 1 - # skip REASON" and exit 0: the whole script
#                       cannot run on this machine (say why and how to fix)
#   need TOOL...        each TOOL (a command name or path; "$bin" too) must
#                       exist: a missing one is a failure naming the fix
#                       (the tools of `install-deps --test` are not optional)
#   done_testing        prints the plan line "1..N"; exits 1 if a check failed
#   part                true when the script's next part is this shard's: a
#                       script with a line "# shards: N" runs as N tests
#                       (tests/run-tests), `sh SCRIPT --shard K/N`, which
#                       lib.sh takes off the arguments into shard_k and
#                       shard_n (1/1 without it: every part).  The script
#                       does its setup in every shard and each costly part
#                       under `if part; then`: the I-th part call is shard
#                       I mod N's, so the N shards do every part once
#   public              a world-readable copy of what a process running as
#                       another user reads (nobody, a server's user, procmail
#                       in a server's pipe, the robot host, a program that
#                       drops root for a home's owner): the program under
#                       test with the templates and the scripts beside it,
#                       as in build/test/, in $tmp/public (it and $tmp made
#                       0755, the copy's modes set, whatever the umask); sets
#                       pbin, ptemplates and pscripts.  Another user never
#                       reads the checkout: make check runs from a 0700
#                       folder too (tests/sh/private.sh)
#   at_exit CMD         CMD (a shell string) runs at exit, before $tmp goes
#   bg PID              PID (a server, a helper) is killed at exit
#   hold_lock FILE      another process (Python) holds an fcntl lock on
#                       FILE (it conflicts with the store's OFD locks) until
#                       release_lock; returns 1 if it was not taken in 10 s.
#                       Its pid is in lockpid, killed at exit if still set
#   release_lock        ends the hold_lock process
#   rc CMD...           prints CMD's exit status, its output dropped
#   sink NAME [OPTION...]   starts the SMTP sink of tests/smtpd/sink.py
#                       (aiosmtpd on 127.0.0.1) storing into $tmp/NAME;
#                       sets port and pid (killed at exit); stops the test
#                       if it does not start within 10 s
#   mkhome DIR [LINE...]   a home made by `oustpbm init DIR`, its
#                       oustpbm.conf replaced by the test configuration:
#                       from_address, the checkout's templates,
#                       password_cost = 1 (the cheapest: fast tests), then
#                       each LINE ("key = value"; a LINE's key replaces the
#                       default's: a key set twice is a configuration error),
#                       then transport = maildir (the replies kept under
#                       mail/, where the tests read them; init's own conf
#                       hands them to the local MTA) unless a LINE sets
#                       transport or smtp_url
#                       On an existing home only oustpbm.conf is rewritten.
#                       A new home gets the fixed secret LIB_SECRET.
#   mail FROM SUBJECT [ID [BODY]]   prints a mail: From, To, Subject,
#                       Message-ID <ID> (none if ID is "-", a fresh unique
#                       one if ID is empty or absent), then BODY
#   deliver HOME [TIME] feeds the mail on stdin to oustpbm -d HOME (with
#                       OUSTPBM_TEST_TIME=TIME if given), its stdout dropped
#                       and its stderr in $tmp/stderr; returns its status.
#                       A register (a line starting "register ", Subject
#                       or body) is delivered with OUSTPBM_TEST_CODE set to
#                       REG_CODE, and when it made a pending registration
#                       (src/commands/keywords/register.c) it is confirmed at once
#                       from the same From with that code and the register's
#                       password (confirm_pending): an account as before,
#                       for every test's setup
#   confirm_pending HOME FROM [TIME] PASSWORD   that confirm ("confirm <userid>
#                       <code> <password>"), when the log's last line
#                       is a registration made pending; returns the
#                       confirm's status (0 when there was none)
#   register_pw         the password of the register line on stdin (a
#                       Subject or a body line "register <userid> <password>")
#   send [at=TIME] [id=ID] [body=TEXT] HOME FROM SUBJECT
#                       the one way the tests send a mail: FROM's mail with
#                       that Subject (mail: Message-ID <ID>, a fresh one
#                       without id=, none for id=-; the BODY) delivered to
#                       HOME (deliver: a register confirmed; at TIME, or
#                       at=next: T0 + 60 * sent, sent counted up first, a
#                       test's clock it may set); returns deliver's status
#                       (`rc send ...` prints it)
#   code_in HOME ADDR   the one-time code of the newest mail to ADDR holding
#                       one (a random code: no test hook needed)
#   crash_feed HOME TIME FILE [STEP]   feeds FILE to oustpbm -d HOME at TIME,
#                       killed at durable step STEP if given
#                       (OUSTPBM_TEST_CRASH); prints the exit status
#                       (a register: with OUSTPBM_TEST_CODE=REG_CODE)
#   feed_confirmed HOME TIME FILE   crash_feed without a kill, then a
#                       register made pending confirmed (confirm_pending);
#                       prints crash_feed's status
#   crash_each_step BASE TIME MAIL K2 AFTER_KILL AFTER_REDELIVERY
#                       the crash loop: for each step k = 1, 2, ... MAIL is
#                       fed to a fresh copy of home BASE killed at durable
#                       step k, until a run goes through (exit 0: k is then
#                       one past the last step) or exits other than 137
#                       (SIGKILL).  After each kill the redelivery is killed
#                       again at step k2 = k * MUL % MOD + 1 (K2 is "MUL
#                       MOD"; empty: not killed again), then MAIL is
#                       redelivered cleanly.  TIME is the time of the
#                       three deliveries, or "T1 T2 T3", one each.  The
#                       shell functions AFTER_KILL HOME K [K2] (after each
#                       kill) and AFTER_REDELIVERY HOME K [K2] (after the
#                       clean redelivery) add what is wrong to bad, as
#                       "; killed at step K...: WHAT".  Sets k and bad
#                       (emptied first), counts the kills in kills
#   crash_replied HOME K K2   after the clean redelivery of crash_each_step:
#                       adds to bad unless HOME's replies are those in
#                       $tmp/want (reply_sums of a run never killed) and
#                       nothing is left in its outbox (tmp/, new/, and
#                       batch/, the batch records of src/outbox/outbox.h)
#   reply_sums HOME     one line per delivered reply, "address cksum", sorted
#   replies HOME ADDR   the number of replies delivered to ADDR
#   newest HOME ADDR    the newest reply delivered to ADDR (by queue id:
#                       time.M<usec>P<pid>Q<n>; file times tie within a tick)
#   games_load HOME     "<N>.game does not load" for each game file of HOME
#                       that `oustpbm engine` cannot load (one engine for all)
#   store_sum HOME      checksums of the home's data files: the log, seen,
#                       throttle, delivered mail, sent copies and lock files
#                       left out (what a refused mail must not change)
#
# A real Postfix in an instance of its own (postfix.sh, deploy.sh,
# robothost.sh: Debian's Postfix on 127.0.0.1, config_directory, queue and
# data under $tmp; the system's instance neither used nor touched; one such
# test at a time on a machine):
#   pf_init DIR         sets pf=DIR, conf=DIR/etc, makes them, the spool,
#                       data (Postfix's) and vmail (nobody's) directories,
#                       and port, a free port of 127.0.0.1; registers
#                       pf_stop at exit
#   pf_main_cf          prints the main.cf lines every instance shares
#                       (paths, loopback, no DNS, nothing delivered
#                       outside, the virtual Maildirs of example.org and
#                       example.com owned by nobody, fast retries, the log
#                       in $pf/maillog); the caller adds its own lines
#   pf_master_cf        prints master.cf: smtpd on 127.0.0.1:$port and the
#                       daemons; the caller adds its own services
#   pf_start            starts the instance, true once its port answers
#                       (the files under $conf made readable first)
#   pf_stop             stops it and waits for the master to go

cd "$(dirname "$0")/../.." || exit 2
top=$(pwd)
bin=${OUSTPBM_BIN:-$top/build/test/oustpbm}
if [ -z "${OUSTPBM_BIN:-}" ] && { [ ! -x "$bin" ] || [ -n "$(find src Makefile -newer "$bin" 2>/dev/null | head -n 1)" ]; }; then
	mkdir -p build
	flock build/test-bin.lock make -s --no-print-directory test-bin >&2 ||
	    { echo "$0: cannot build $bin (make test-bin)" >&2; exit 2; }
fi
PY=/usr/bin/python3
T0=1700000000
REG_CODE=R3G4STERED	# the one-time code of the tests' registrations (OUSTPBM_TEST_CODE)
LIB_SECRET=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef	# <home>/secret of every test home
unset OUSTPBM_HOME OUSTPBM_TEST_CRASH OUSTPBM_TEST_ROBOT OUSTPBM_TEST_LIBCURL OUSTPBM_TEST_SALT
n=0
fails=0
tmp=
shard_k=1
shard_n=1
lib_part=0
if [ "${1:-}" = --shard ]; then
	case ${2:-} in
	[1-9]/[1-9] | [1-9]/[1-9][0-9] | [1-9][0-9]/[1-9][0-9]) shard_k=${2%/*} shard_n=${2#*/} ;;
	*) shard_n=0 ;;
	esac
	if [ "$shard_n" -eq 0 ] || [ "$shard_k" -gt "$shard_n" ]; then
		echo "not ok - $(basename "$0" .sh): --shard takes K/N, K from 1 to N, not '${2:-}'"
		exit 2
	fi
	shift 2
fi
lib_at_exit=
lib_pids=
lib_mails=0
sent=0

lib_cleanup() {
	eval "$lib_at_exit"
	if [ -n "${lockpid:-}" ]; then
		kill "$lockpid" 2>/dev/null && wait "$lockpid" 2>/dev/null
	fi
	for lib_p in $lib_pids; do
		kill "$lib_p" 2>/dev/null && wait "$lib_p" 2>/dev/null
	done
	if [ -n "$tmp" ] && [ -z "$KEEP" ]; then
		chmod -R u+w "$tmp" 2>/dev/null
		rm -rf "$tmp"
	fi
}
trap lib_cleanup EXIT
trap 'exit 2' INT TERM HUP

tmpdir() {
	lib_name=$(basename "$0" .sh)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/oustpbm-$lib_name.XXXXXX") || exit 2
}

public() {
	pbin=$tmp/public/oustpbm
	ptemplates=$tmp/public/templates
	pscripts=$tmp/public/scripts
	chmod 755 "$tmp" && mkdir -p "$tmp/public" && cp "$bin" "$pbin" &&
	    cp -R "$top/templates" "$top/scripts" "$tmp/public/" &&
	    chmod -R u=rwX,go=rX "$tmp/public" && chmod 755 "$pbin" ||
	    { echo "not ok - $(basename "$0" .sh): no world-readable copy in $tmp/public"; exit 1; }
}

at_exit() {
	lib_at_exit="$lib_at_exit
$1"
}

bg() {
	lib_pids="$lib_pids $1"
}

pass() {
	n=$((n + 1))
	echo "ok $n - $1"
}

fail() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1"
}

check() {
	lib_desc=$1
	shift
	if "$@"; then
		pass "$lib_desc"
	else
		fail "$lib_desc"
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - # skip $1"
}

skip_all() {
	echo "ok 1 - # skip $1"
	exit 0
}

need() {
	for lib_tool; do
		lib_fix="sh scripts/install-deps --test"
		[ "$lib_tool" = "$bin" ] && lib_fix="run make"
		command -v "$lib_tool" >/dev/null 2>&1 ||
		    { echo "not ok - $(basename "$0" .sh): $lib_tool is missing ($lib_fix)"; exit 1; }
	done
}

part() {
	lib_part=$((lib_part + 1))
	[ $((lib_part % shard_n)) -eq $((shard_k % shard_n)) ]
}

done_testing() {
	echo "1..$n"
	[ "$fails" -eq 0 ] || exit 1
}

rc() {
	"$@" >/dev/null 2>&1 </dev/null
	echo $?
}

hold_lock() {
	# a lock.ready left by an earlier hold_lock would say "locked" before
	# this lock is taken (the redirection below empties it only once the
	# background process runs)
	rm -f "$tmp/lock.ready"
	"$PY" -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' "$1" >"$tmp/lock.ready" &
	lockpid=$!
	lib_i=0
	while ! grep -q locked "$tmp/lock.ready" 2>/dev/null; do
		lib_i=$((lib_i + 1))
		[ "$lib_i" -gt 200 ] && return 1
		sleep 0.05
	done
	return 0
}

release_lock() {
	if [ -n "$lockpid" ]; then
		kill "$lockpid" 2>/dev/null
		wait "$lockpid" 2>/dev/null
		lockpid=
	fi
}

sink() {
	lib_name=$1
	shift
	mkdir -p "$tmp/$lib_name"
	rm -f "$tmp/$lib_name.port"
	"$PY" "$top/tests/smtpd/sink.py" --dir "$tmp/$lib_name" --portfile "$tmp/$lib_name.port" "$@" \
	    2>>"$tmp/$lib_name.stderr" &
	pid=$!
	bg "$pid"
	lib_i=0
	while [ ! -s "$tmp/$lib_name.port" ] && [ "$lib_i" -lt 200 ]; do
		sleep 0.05
		lib_i=$((lib_i + 1))
	done
	port=$(cat "$tmp/$lib_name.port" 2>/dev/null)
	[ -n "$port" ] || { echo "not ok - the SMTP sink $lib_name did not start"; exit 1; }
}

mkhome() {
	lib_h=$1
	shift
	if [ ! -f "$lib_h/oustpbm.conf" ]; then
		mkdir -p "$(dirname "$lib_h")"
		"$bin" init "$lib_h" >/dev/null || { echo "not ok - oustpbm init $lib_h failed"; exit 1; }
		# a fixed secret (src/mail/unsubtoken.h), so the List-Unsubscribe tokens of a case are the same each run
		(umask 077 && printf '%s\n' "$LIB_SECRET" >"$lib_h/secret")
	fi
	{
		for lib_l in 'from_address = oust@example.net' "templates = $top/templates" 'password_cost = 1'; do
			lib_k=${lib_l%% *}
			for lib_m; do
				case $lib_m in
				"$lib_k "* | "$lib_k="*) lib_l= ;;
				esac
			done
			[ -z "$lib_l" ] || printf '%s\n' "$lib_l"
		done
		lib_t='transport = maildir'
		for lib_l; do
			printf '%s\n' "$lib_l"
			case $lib_l in
			"transport "* | "transport="* | "smtp_url "* | "smtp_url="*) lib_t= ;;
			esac
		done
		# last, so the LINEs keep their line numbers in the errors the tests read
		[ -z "$lib_t" ] || printf '%s\n' "$lib_t"
	} >"$lib_h/oustpbm.conf"
}

mail() {
	printf 'From: %s\nTo: oust@example.net\nSubject: %s\n' "$1" "$2"
	case ${3:-} in
	-) ;;
	'')
		lib_mails=$((lib_mails + 1))
		printf 'Message-ID: <t.%s.%s.%s@example.net>\n' "$$" "$lib_mails" "$(date +%s%N)"
		;;
	*) printf 'Message-ID: <%s>\n' "$3" ;;
	esac
	printf '\n%s\n' "${4:-}"
}

deliver() {
	lib_err=/dev/null
	[ -n "$tmp" ] && lib_err=$tmp/stderr
	lib_in=$(mktemp "${tmp:-${TMPDIR:-/tmp}}/deliver.XXXXXX") || return 2
	cat >"$lib_in"
	lib_code=
	grep -q -i -E '^(subject: *)?register ' "$lib_in" && lib_code=$REG_CODE
	if [ -n "${2:-}" ]; then
		OUSTPBM_TEST_CODE=${lib_code:-${OUSTPBM_TEST_CODE:-}} OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$lib_in" \
		    >/dev/null 2>"$lib_err"
	else
		OUSTPBM_TEST_CODE=${lib_code:-${OUSTPBM_TEST_CODE:-}} "$bin" -d "$1" <"$lib_in" >/dev/null 2>"$lib_err"
	fi
	lib_rc=$?
	if [ "$lib_rc" -eq 0 ] && [ -n "$lib_code" ]; then
		confirm_pending "$1" "$(sed -n 's/^[Ff][Rr][Oo][Mm]: *//p' "$lib_in" | head -n 1)" "${2:-}" \
		    "$(register_pw <"$lib_in")"
		lib_rc=$?
	fi
	rm -f "$lib_in"
	return $lib_rc
}

register_pw() {
	sed -n 's/^\([Ss][Uu][Bb][Jj][Ee][Cc][Tt]: *\)\{0,1\}[Rr][Ee][Gg][Ii][Ss][Tt][Ee][Rr]  *[^ ][^ ]*  *\([^ ][^ ]*\).*/\2/p' |
	    head -n 1
}

confirm_pending() {
	lib_id=$(tail -n 1 "$1/log" 2>/dev/null | sed -n 's/.* ok: registration of \([^ ]*\) pending, .*/\1/p')
	[ -n "$lib_id" ] || return 0
	lib_err=/dev/null
	[ -n "$tmp" ] && lib_err=$tmp/stderr.confirm
	if [ -n "${3:-}" ]; then
		mail "$2" "confirm $lib_id $REG_CODE $4" | OUSTPBM_TEST_TIME=$3 "$bin" -d "$1" >/dev/null 2>"$lib_err"
	else
		mail "$2" "confirm $lib_id $REG_CODE $4" | "$bin" -d "$1" >/dev/null 2>"$lib_err"
	fi
}

send() {
	lib_at=
	lib_sid=
	lib_body=
	while :; do
		case ${1:-} in
		at=next)
			sent=$((sent + 1))
			lib_at=$((T0 + 60 * sent))
			;;
		at=*) lib_at=${1#at=} ;;
		id=*) lib_sid=${1#id=} ;;
		body=*) lib_body=${1#body=} ;;
		*) break ;;
		esac
		shift
	done
	mail "$2" "$3" "$lib_sid" "$lib_body" | deliver "$1" "$lib_at"
}

code_in() {
	for lib_f in $(ls -t "$1/mail/$2/new/"* 2>/dev/null); do
		lib_c=$(sed -n 's/^    \([2-9A-HJ-NP-Z]\{10\}\)$/\1/p' "$lib_f" | head -n 1)
		[ -n "$lib_c" ] && { echo "$lib_c"; return 0; }
	done
	return 1
}

crash_feed() {
	lib_code=${OUSTPBM_TEST_CODE:-}
	grep -q -i -E '^(subject: *)?register ' "$3" && lib_code=$REG_CODE
	if [ -n "${4:-}" ]; then
		OUSTPBM_TEST_CODE=$lib_code OUSTPBM_TEST_CRASH=$4 OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$3" >/dev/null 2>&1
	else
		OUSTPBM_TEST_CODE=$lib_code OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$3" >/dev/null 2>&1
	fi
	echo $?
}

feed_confirmed() {
	lib_frc=$(crash_feed "$1" "$2" "$3")
	[ "$lib_frc" = 0 ] && confirm_pending "$1" "$(sed -n 's/^[Ff][Rr][Oo][Mm]: *//p' "$3" | head -n 1)" "$2" \
	    "$(register_pw <"$3")"
	echo "$lib_frc"
}

crash_each_step() {
	lib_t1=${2%% *}
	lib_t2=${2#* }
	lib_t2=${lib_t2%% *}
	lib_t3=${2##* }
	# each kill in a copy of its own, removed 50 at a time (an rm less a kill)
	lib_cws=$tmp/crash-w
	mkdir -p "$lib_cws" || return 1
	# a register's code, looked up once (crash_feed looks at each feed)
	lib_ccode=${OUSTPBM_TEST_CODE:-}
	grep -q -i -E '^(subject: *)?register ' "$3" && lib_ccode=$REG_CODE
	k=0
	bad=
	while :; do
		k=$((k + 1))
		if [ $((k % 50)) = 0 ]; then
			rm -rf "$lib_cws"
			mkdir "$lib_cws"
		fi
		lib_cw=$lib_cws/$k
		cp -R "$1" "$lib_cw"
		lib_crash_run "$lib_t1" "$3" $k
		[ "$lib_rc" = 0 ] && break	# past the last step
		if [ "$lib_rc" != 137 ]; then
			bad="$bad; killed at step $k: exit $lib_rc"
			break
		fi
		kills=$((kills + 1))
		"$5" "$lib_cw" $k
		lib_k2=
		if [ -n "$4" ]; then
			lib_k2=$((k * ${4%% *} % ${4##* } + 1))
			lib_crash_run "$lib_t2" "$3" $lib_k2
			if [ "$lib_rc" = 137 ]; then
				kills=$((kills + 1))
				"$5" "$lib_cw" $k $lib_k2
			fi
		fi
		lib_crash_run "$lib_t3" "$3"
		[ "$lib_rc" = 0 ] || bad="$bad; killed at step $k: the redelivery exits $lib_rc"
		"$6" "$lib_cw" $k $lib_k2
	done
	rm -rf "$lib_cws"
}

# lib_crash_run TIME FILE [STEP]: crash_feed into $lib_cw with $lib_ccode,
# in this shell (no command substitution), the status in lib_rc
lib_crash_run() {
	if [ -n "${3:-}" ]; then
		OUSTPBM_TEST_CODE=$lib_ccode OUSTPBM_TEST_CRASH=$3 OUSTPBM_TEST_TIME=$1 "$bin" -d "$lib_cw" <"$2" >/dev/null 2>&1
	else
		OUSTPBM_TEST_CODE=$lib_ccode OUSTPBM_TEST_TIME=$1 "$bin" -d "$lib_cw" <"$2" >/dev/null 2>&1
	fi
	lib_rc=$?
}

crash_replied() {
	reply_sums "$1" >"$tmp/got"
	cmp -s "$tmp/got" "$tmp/want" ||
	    bad="$bad; killed at step $2 (then $3): replies $(tr '\n' ' ' <"$tmp/got"), expected $(tr '\n' ' ' <"$tmp/want")"
	[ -z "$(find "$1/outbox/new" "$1/outbox/tmp" "$1/outbox/batch" -type f 2>/dev/null)" ] ||
	    bad="$bad; killed at step $2: replies or batch records left in the outbox"
}

reply_sums() {
	# one cksum for them all ("CRC SIZE PATH" a line): "ADDRESS CRC SIZE"
	set -- "$1"/mail/*/new/*
	[ -f "$1" ] || return 0
	cksum "$@" | while read -r lib_c lib_s lib_f; do
		lib_a=${lib_f%/new/*}
		echo "${lib_a##*/} $lib_c $lib_s"
	done | LC_ALL=C sort
}

replies() {
	ls "$1/mail/$2/new" 2>/dev/null | wc -l | tr -d ' '
}

newest() {
	ls "$1/mail/$2/new" | awk -F'[.MPQ]' '{ printf "%d%06d %s\n", $1, $3, $0 }' | sort -n | tail -1 |
	    sed "s#^[0-9]* #$1/mail/$2/new/#"
}

store_sum() {
	(cd "$1" && find . -type f ! -path ./log ! -path ./seen ! -path ./throttle ! -path './mail/*' \
	    ! -path './outbox/sent/*' ! -path ./outbox/.pruned ! -name '*.lock' -exec cksum {} + | LC_ALL=C sort)
}

games_load() {
	set -- "$1"/games/*.game
	[ -f "$1" ] || return 0
	# (printf repeats its format for each game: no subshell for a loop)
	printf 'loadgame %s\n' "$@" >"$tmp/games_load.in"
	"$bin" engine <"$tmp/games_load.in" >"$tmp/games_load.out" 2>/dev/null
	# one answer per loadgame, in order: "= " loaded, "? why" not
	while IFS= read -r lib_l; do
		case $lib_l in
		'= '*) shift ;;
		'?'*)
			echo "${1##*/} does not load"
			shift
			;;
		esac
	done <"$tmp/games_load.out"
	# no answer: the engine stopped before them
	for lib_g; do
		echo "${lib_g##*/} does not load"
	done
}

pf_init() {
	pf=$1
	conf=$pf/etc
	mkdir -p "$conf" "$pf/spool" "$pf/data" "$pf/vmail"
	# under umask 077 these would be root's alone: Postfix's daemons (as
	# postfix) and virtual(8) (as nobody) go through them
	chmod 755 "$pf" "$conf" "$pf/spool"
	chown postfix "$pf/data"
	chown "$(id -u nobody):$(id -g nobody)" "$pf/vmail"
	port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	at_exit pf_stop
}

pf_main_cf() {
	cat <<EOC
compatibility_level = 3.6
queue_directory = $pf/spool
data_directory = $pf/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
shlib_directory = /usr/lib/postfix
meta_directory = /etc/postfix
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtp_dns_support_level = disabled
default_transport = error:this test delivers nothing outside
relay_transport = error:this test delivers nothing outside
alias_maps =
alias_database =
virtual_mailbox_domains = example.org example.com
virtual_mailbox_base = $pf/vmail
virtual_uid_maps = static:$(id -u nobody)
virtual_gid_maps = static:$(id -g nobody)
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
maillog_file = $pf/maillog
maillog_file_prefixes = $tmp
smtputf8_enable = no
biff = no
notify_classes =
EOC
}

pf_master_cf() {
	cat <<EOC
127.0.0.1:$port inet n - n - - smtpd
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
smtp      unix  - - n - - smtp
relay     unix  - - n - - smtp
showq     unix  n - n - - showq
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
local     unix  - n n - - local
virtual   unix  - n n - - virtual
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
EOC
}

pf_start() {
	# the tables and lookup files the caller wrote (texthash:, hash:, the
	# aliases) are read by Postfix's daemons as postfix: under umask 077
	# they came out 0600, root's alone
	chmod -R go+rX "$conf"
	/usr/sbin/postfix -c "$conf" start >>"$tmp/postfix.out" 2>&1 || return 1
	lib_i=0
	while ! "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null; do
		[ "$lib_i" -lt 100 ] || return 1
		sleep 0.1
		lib_i=$((lib_i + 1))
	done
}

pf_stop() {
	/usr/sbin/postfix -c "$conf" stop >/dev/null 2>&1
	lib_i=0
	while [ -f "$pf/spool/pid/master.pid" ] && kill -0 "$(cat "$pf/spool/pid/master.pid" 2>/dev/null)" 2>/dev/null &&
	    [ "$lib_i" -lt 100 ]; do
		sleep 0.1
		lib_i=$((lib_i + 1))
	done
}
