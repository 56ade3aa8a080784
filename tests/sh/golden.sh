#!/bin/sh
# golden: end-to-end tests of mail handling (tests/golden/README.md).
# Every directory tests/golden/<case>/ (names starting with '_' excepted) is
# run in a fresh temporary home: its setup, then in.eml fed to ./oustpbm with
# OUSTPBM_TEST_TIME set, and what came out (exit status, whether the store
# changed, the log line, the game files, the ratings file, the users file with the hashes
# masked, every reply) is compared with <case>/out/.  Prints "ok - <case>" or
# "not ok - <case>" with a diff; run whole, it also checks that every line
# of the replies' text/plain parts is at most 72 columns (tests/wrapcheck.py)
# and that every error about a known board names it in its Subject.
# UPDATE_GOLDEN=1 rewrites <case>/out/ instead (review the result by eye
# before committing it).
# Usage: sh tests/sh/golden.sh [case...]
#        sh tests/sh/golden.sh --shard K/N   (the K-th of N equal parts, K from 1,
#        the cases sorted by their setups:
#        tests/run-tests runs the parts side by side; the whole-set checks
#        below run in part 1)
# shards: 6
. "$(dirname "$0")/lib.sh"
need "$bin" "$PY"
gdir=$top/tests/golden
tmpdir
OUSTPBM_TEST_SALT=golden
export OUSTPBM_TEST_SALT

# feed HOME TIME FILE [NAME=VALUE]: one mail of the setup, which must be
# handled (exit 0); NAME=VALUE set last.
feed() {
	# without env(1) when there is nothing to set but the clock and a code: a process less a mail
	if [ -z "$caseenv" ] && [ -z "${4:-}" ]; then
		OUSTPBM_TEST_TIME=$2 "$bin" -d "$1" <"$3" >/dev/null 2>"$tmp/feed.err"
	elif [ -z "$caseenv" ] && [ "${4%%=*}" = OUSTPBM_TEST_CODE ]; then
		OUSTPBM_TEST_TIME=$2 OUSTPBM_TEST_CODE=${4#*=} "$bin" -d "$1" <"$3" >/dev/null 2>"$tmp/feed.err"
	else
		env $caseenv OUSTPBM_TEST_TIME=$2 ${4:-} "$bin" -d "$1" <"$3" >/dev/null 2>"$tmp/feed.err"
	fi
	frc=$?
	if [ "$frc" -ne 0 ]; then
		echo "setup mail $(basename "$3") exited $frc: $(cat "$tmp/feed.err")"
		return 1
	fi
	return 0
}

# run_case DIR: runs the case; prints a not ok line and returns 1 when its
# setup failed, else adds it to $tmp/collect, the list tests/goldencmp.py
# reads after the last case (what came out, compared with out/).
run_case() {
	case=$1
	name=${case##*/}
	work=$tmp/$name
	home=$work/home
	act=$work/out
	mkdir -p "$work" "$act" || return 1
	# the home after the longest part of the setup run before (the cache
	# above), else a new one
	eval "$(awk -v dir="$case" -v sf="$cache/save" -v xf="$cache/index" "$setup_keys"'
FILENAME == sf { S[$0] = 1; next }
FILENAME == xf { t = index($0, "\t"); X[substr($0, t + 1)] = substr($0, 1, t - 1); next }
END {
	E = casekeys(dir)
	hit = 0
	from = ""
	for (j = E; j >= 1; j--)
		if (K[j] in X) { hit = j; from = X[K[j]]; break }
	printf "hit=%d from=%s\n", hit, from
	s = " "
	for (j = hit + 1; j <= E; j++) {
		if (!(K[j] in S)) continue
		s = s j " "
		m = split(K[j], part, "\047")
		q = part[1]
		for (i = 2; i <= m; i++)
			q = q "\047\\\047\047" part[i]
		printf "k_%d=\047%s\047\n", j, q
	}
	printf "save=\047%s\047\n", s
}' "$cache/save" "$cache/index")"
	if [ "$hit" -gt 0 ]; then
		cp -a "$cache/$from" "$home" || return 1
	else
		# the setup's conf lines (a password_cost among them replaces mkhome's cheapest cost)
		set -- 'server_name = Oust test server'
		while IFS= read -r line; do
			[ -n "$line" ] && set -- "$@" "$line"
		done <<EOF
$(sed -n 's/^conf //p' "$case/setup" 2>/dev/null)
EOF
		mkhome "$home" "$@"
		# the reply tokens (src/store/tokens.h): a fixed secret, and with
		# OUSTPBM_TEST_SALT fixed password hashes, so a case's tokens are the same on every run
		printf '%s\n' 0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210 >"$home/token.secret"
		# the secret shared with a robot host (src/mail/robotmac.h), for the setups that set
		# robot_secret_file = robot.secret: fixed, so the board mails' MACs are the same on every run
		(umask 077 && printf '%s\n' golden-robot-secret-0123456789abcdef0123456789 >"$home/robot.secret")
	fi
	e=0
	n=0
	lockboard=
	ago=0
	caseenv=
	after=
	why=
	if [ -f "$case/setup" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			kind=${line%% *}
			rest=${line#* }
			case $kind in
			send | pending | feed | mail | admin)
				e=$((e + 1))
				if [ "$e" -le "$hit" ]; then
					# done in the home copied from the cache: counted only
					[ "$kind" = admin ] || n=$((n + 1))
					continue
				fi
				;;
			esac
			case $kind in
			'' | '#'*)
				;;
			conf)
				# in the configuration already
				;;
			send | pending)
				# send FROM SUBJECT...: a plain mail with that Subject;
				# pending FROM SUBJECT...: the same, a register left unconfirmed
				n=$((n + 1))
				from=${rest%% *}
				subject=${rest#* }
				printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <setup.%d@example.net>\n\n' \
				    "$from" "$subject" "$n" >"$work/setup.eml"
				# a register's code is lib.sh's REG_CODE, whatever the case's env
				code=
				case $subject in
				[Rr][Ee][Gg][Ii][Ss][Tt][Ee][Rr]' '*) code=OUSTPBM_TEST_CODE=$REG_CODE ;;
				esac
				feed "$home" $((T0 + 60 * n - ago)) "$work/setup.eml" $code >"$work/why" ||
				    { why=$(cat "$work/why"); break; }
				# a register made a pending registration: confirmed at once
				# with that code and its password, so setups read as before (register.c)
				regid=
				[ -n "$code" ] && [ "$kind" = send ] &&
				    regid=$(tail -n 1 "$home/log" | sed -n 's/.* ok: registration of \([^ ]*\) pending, .*/\1/p')
				if [ -n "$regid" ]; then
					printf 'From: %s\nTo: oust@example.net\nSubject: confirm %s %s %s\nMessage-ID: <setup.%d.confirm@example.net>\n\n' \
					    "$from" "$regid" "$REG_CODE" "$(echo "$subject" | register_pw)" "$n" >"$work/setup.eml"
					feed "$home" $((T0 + 60 * n - ago)) "$work/setup.eml" >"$work/why" || { why=$(cat "$work/why"); break; }
				fi
				;;
			feed)
				# feed FILE: a mail of the case's directory as it is (a delivery report)
				n=$((n + 1))
				feed "$home" $((T0 + 60 * n - ago)) "$case/$rest" >"$work/why" || { why=$(cat "$work/why"); break; }
				;;
			mail)
				# mail FILE: the case's FILE (a whole mail: a reply with a text) as the next setup mail
				n=$((n + 1))
				feed "$home" $((T0 + 60 * n - ago)) "$case/$rest" >"$work/why" || { why=$(cat "$work/why"); break; }
				;;
			lock)
				lockboard=$rest
				;;
			ago)
				# ago SECONDS: the setup mails after it are sent that much earlier
				ago=$rest
				;;
			env)
				# env NAME=VALUE: set for the setup's mails and in.eml (a test setting)
				caseenv="$caseenv $rest"
				;;
			admin)
				# admin ARGS: an admin command on the home at this point (oustpbm robot); it must exit 0
				env $caseenv OUSTPBM_TEST_TIME=$((T0 + 60 * n + 30)) "$bin" -d "$home" $rest \
				    >/dev/null 2>"$work/why" || { why="setup 'admin $rest' failed: $(cat "$work/why")"; break; }
				;;
			after)
				# after ARGS: an admin command run after in.eml, its mails compared too (oustpbm robot)
				after="$after
$rest"
				;;
			*)
				why="unknown setup line '$line'"
				break
				;;
			esac
			# a part of the setup other cases start with: the home kept
			case $save in
			*" $e "*)
				save=${save%% $e *}" ${save#* $e }"
				eval "key=\$k_$e"
				cached=$((cached + 1))
				cp -a "$home" "$cache/$cached" && printf '%s\t%s\n' "$cached" "$key" >>"$cache/index"
				;;
			esac
		done <"$case/setup"
	fi
	if [ -n "$why" ]; then
		echo "not ok - $name: $why"
		return 1
	fi
	# only what in.eml produces is compared
	[ ! -e "$home/mail" ] || rm -rf "$home/mail"
	logsize=0
	[ -f "$home/log" ] && logsize=$(wc -c <"$home/log")
	store_sum "$home" >"$work/sum.before"
	if [ -n "$lockboard" ]; then
		hold_lock "$home/games/$lockboard.lock" || { release_lock; echo "not ok - $name: the lock was not taken"; return 1; }
	fi
	# a register's code is REG_CODE unless the case's env says otherwise
	if [ -n "$caseenv" ]; then
		env OUSTPBM_TEST_CODE=$REG_CODE $caseenv OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$home" <"$case/in.eml" \
		    >"$work/stdout" 2>"$work/stderr"
	else
		OUSTPBM_TEST_CODE=$REG_CODE OUSTPBM_TEST_TIME=$((T0 + 3600)) "$bin" -d "$home" <"$case/in.eml" \
		    >"$work/stdout" 2>"$work/stderr"
	fi
	echo $? >"$act/exit"
	release_lock
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		env $caseenv OUSTPBM_TEST_TIME=$((T0 + 3660)) "$bin" -d "$home" $line >>"$work/stdout" 2>>"$work/stderr"
		echo "after $line: exit $?" >>"$act/exit"
	done <<EOF
$after
EOF
	store_sum "$home" >"$work/sum.after"
	# the rest (what came out, compared with out/) in one process for all the
	# cases: tests/goldencmp.py, after the last one
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$case" "$home" "$act" "$work" "$logsize" >>"$tmp/collect"
	return 0
}

# setup_keys: the awk function casekeys(DIR), which sets K[1..E] to the
# keys of case DIR's setup after each of its E mails and admin commands
# (its conf lines, then its lines up to that one; a case's own files named
# by their path) and returns E.  Cases whose setups begin alike get the home
# of that beginning from the cache ($cache/N, listed in $cache/index as
# "N<TAB>KEY"), made once: a home after the same mails at the same times
# is the same home (the clock, the codes, the salts and the secrets are the
# tests'), and only what in.eml does is compared.  $cache/save lists the
# keys worth keeping: those where cases that share them part.
setup_keys='
function casekeys(dir,    f, line, nl, L, i, kind, rest, conf, run, e) {
	f = dir "/setup"
	nl = 0
	conf = ""
	while ((getline line < f) > 0) {
		L[++nl] = line
		if (line ~ /^conf /)
			conf = conf "\034" line
	}
	close(f)
	run = ""
	e = 0
	for (i = 1; i <= nl; i++) {
		line = L[i]
		kind = line
		sub(/ .*/, "", kind)
		if (kind == "" || kind ~ /^#/ || kind == "conf" || kind == "lock" || kind == "after")
			continue
		if (kind == "feed" || kind == "mail") {
			rest = line
			sub(/^[^ ]* /, "", rest)
			line = kind " " dir "/" rest
		}
		run = run "\034" line
		if (kind ~ /^(send|pending|feed|mail|admin)$/)
			K[++e] = conf "\035" run
	}
	return e
}'
cached=0

fails=0
# --shard K/N: lib.sh took it off the arguments (shard_k, shard_n)
if [ $# -gt 0 ]; then
	cases=
	for c in "$@"; do
		cases="$cases $gdir/$c"
	done
else
	cases=$(ls -d "$gdir"/*/ | LC_ALL=C sort)
	if [ "$shard_n" -gt 1 ]; then
		# the K-th of N runs of the cases sorted by their setups (then by name):
		# cases that begin alike in one part, where they share the cache's
		# homes (sorted so, the 628 cases of six parts send 1,202 setup mails;
		# every N-th case in a part, as before, sent 1,572)
		cases=$(printf '%s\n' $cases | awk "$setup_keys"'
{
	d = $0
	sub(/\/$/, "", d)
	e = casekeys(d)
	printf "%s\t%s\n", e ? K[e] : "", $0
}' | LC_ALL=C sort | cut -f 2 | awk -v k="$shard_k" -v n="$shard_n" '
{ c[NR] = $0 }
END {
	for (i = 1; i <= NR; i++)
		if (i > int((k - 1) * NR / n) && i <= int(k * NR / n))
			print c[i]
}')
	fi
fi
cache=$tmp/cache
mkdir -p "$cache" || exit 2
: >"$cache/index"
printf '%s\n' $cases | awk "$setup_keys"'
{
	d = $0
	sub(/\/$/, "", d)
	if (d ~ /\/_[^\/]*$/ || (getline x < (d "/in.eml")) <= 0)
		next
	close(d "/in.eml")
	c++
	CE[c] = casekeys(d)
	for (j = 1; j <= CE[c]; j++) {
		CK[c, j] = K[j]
		cnt[K[j]]++
	}
}
END {
	for (i = 1; i <= c; i++)
		for (j = 1; j <= CE[i]; j++) {
			k = CK[i, j]
			if (cnt[k] >= 2 && (j == CE[i] || cnt[CK[i, j + 1]] < cnt[k]))
				S[k] = 1
		}
	for (k in S)
		print k
}' >"$cache/save"
# the checks over every case's replies: in the whole run, or in part 1
whole=
[ $# -eq 0 ] && [ "$shard_k" = 1 ] && whole=yes
for c in $cases; do
	c=${c%/}
	case ${c##*/} in
	_*) continue ;;
	esac
	[ -f "$c/in.eml" ] || continue
	run_case "$c" || fails=$((fails + 1))
done
if [ -s "$tmp/collect" ]; then
	"$PY" "$top/tests/goldencmp.py" "$tmp/collect" || fails=$((fails + 1))
fi
# the replies' lines are at most 72 columns, the unbreakable ones excepted
# (tests/wrapcheck.py; README: the one wrapping rule)
if [ -n "$whole" ]; then
	if "$PY" "$top/tests/wrapcheck.py" "$gdir"/*/out/mail/*/* >"$tmp/wrap" 2>&1; then
		echo "ok - every text/plain line of every reply wraps at 72 columns"
	else
		echo "not ok - every text/plain line of every reply wraps at 72 columns"
		sed 's/^/#   /' "$tmp/wrap"
		fails=$((fails + 1))
	fi
fi
# every error about a known board carries its number in the Subject (issue
# 22): the board is read from the command as logged (cmd="keyword N..."),
# known when out/games holds its file; each error reply must then have
# "Subject: Oust Board N error"
if [ -n "$whole" ]; then
	# one process for all the cases (a sed and greps per case and reply were
	# a third of this part's time): the board of the first logged command
	# that names one (sed's greedy ".*": its last cmd= on the line)
	bad=$("$PY" - "$gdir" <<'EOP'
import glob, os, re, sys
gdir = sys.argv[1]
res = [re.compile(r'.* cmd="(oust )?[A-Za-z]* ([1-9][0-9]*)[# ].*'),
       re.compile(r'.* cmd="(oust )?[A-Za-z]* ([1-9][0-9]*)".*')]
error = re.compile(r'^Subject: Oust (Board [0-9]+ )?error$', re.M)
bad = []
for c in sorted(glob.glob(os.path.join(gdir, "*", ""))):
    c = c.rstrip("/")
    log = os.path.join(c, "out", "log")
    if not os.path.isfile(log):
        continue
    board = None
    with open(log, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            for r in res:
                m = r.fullmatch(line)
                if m:
                    board = m.group(2)
                    break
            if board:
                break
    if not board or not os.path.isfile(os.path.join(c, "out", "games", board + ".game")):
        continue
    for r in sorted(glob.glob(os.path.join(c, "out", "mail", "*", "*"))):
        if not os.path.isfile(r):
            continue
        with open(r, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        if error.search(text) and ("Subject: Oust Board %s error" % board) not in text.split("\n"):
            bad.append(os.path.basename(c))
print(" ".join(bad))
EOP
)
	bad=${bad:+ $bad}
	if [ -z "$bad" ]; then
		echo "ok - every error about a known board names it in the Subject"
	else
		echo "not ok - every error about a known board names it in the Subject:$bad"
		fails=$((fails + 1))
	fi
fi
[ "$fails" -eq 0 ]
