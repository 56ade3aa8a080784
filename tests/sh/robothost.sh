#!/bin/sh
# robothost: the robot player on a second home, through a real mail system.
# Debian's Postfix runs in an instance of its own on 127.0.0.1 (lib.sh's
# pf_*: the system's Postfix is neither used nor touched) and routes
# between two homes owned by nobody: the server's address, oust@oust.test,
# is delivered by pipe(8) to `oustpbm -d SERVER`; the robot's,
# robot@robots.test (the server's robot_address), by pipe(8) to `oustpbm
# -d ROBOTHOME robot-mail`; both homes send by SMTP through the same
# Postfix (smtp_url).  alice registers, challenges the robot (5x5, level
# 1, one second a turn) and plays the whole game by mails in through
# Postfix's SMTP port, her placements chosen by `oustpbm engine --player
# greedy` from the server's game file; every robot turn goes from the
# server to the robot home and back as mail; for one of them the robot
# home is gone (the host down): Postfix defers the board mail and delivers
# it once the home is back.  Then: the game file replays
# (fsck), both logs hold each robot turn once; a forged mail claiming to
# be the robot's (its address, a token that is not its) is refused, and
# the refusal, mailed to the robot host, is not answered but told to its
# admin; a mail to the robot from anyone but the server gets no answer.
# Skipped, saying so, without Postfix or root (as postfix.sh).
. "$(dirname "$0")/lib.sh"
[ -x /usr/sbin/postfix ] && [ -x /usr/lib/postfix/sbin/pipe ] ||
    skip_all "Postfix is not installed (as root, scripts/install-deps --test installs it)"
[ "$(id -u)" = 0 ] || skip_all "Postfix's master must run as root; run make check as root for this test"
need setpriv
unset OUSTPBM_TEST_TIME

tmpdir
# what the pipes' user reads: a world-readable copy, never the checkout
public
pf_init "$tmp/pf"
asowner() { # the homes' owner runs it
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
}

# ---- the two homes, owned by nobody, the account the pipes run as
h=$tmp/oust/server
r=$tmp/oust/robothost
mkdir -p "$tmp/oust"
chown nobody "$tmp/oust"
asowner "$pbin" init "$h" >/dev/null && asowner "$pbin" init "$r" >/dev/null ||
    { echo "not ok - oustpbm init failed"; exit 1; }
cat >"$h/oustpbm.conf" <<EOC
from_address = oust@oust.test
templates = $ptemplates
smtp_url = smtp://127.0.0.1:$port
helo_name = oust.test
password_cost = 1
max_mails_per_hour = 0
robot_address = robot@robots.test
robot_secret_file = robot.secret
EOC
cat >"$r/oustpbm.conf" <<EOC
from_address = robot@robots.test
templates = $ptemplates
smtp_url = smtp://127.0.0.1:$port
helo_name = robots.test
robot_server = oust@oust.test
robot_seconds = 1
admin_address = admin@example.org
robot_secret_file = robot.secret
EOC
# the secret the two share (src/mail/robotmac.h): one line, each home's owner's alone
for f in "$h/robot.secret" "$r/robot.secret"; do
	(umask 077 && printf '%s\n' robothost-test-secret-9a8b7c6d5e4f3a2b1c0d9e8f >"$f")
done
chown nobody "$h/oustpbm.conf" "$r/oustpbm.conf" "$h/robot.secret" "$r/robot.secret"

# ---- the Postfix instance: each address piped to its home
{
	pf_main_cf
	cat <<EOC
myhostname = oust.test
mydomain = oust.test
myorigin = oust.test
mydestination = oust.test robots.test
local_recipient_maps =
transport_maps = texthash:$conf/transport
virtual_mailbox_maps = texthash:$conf/vmailbox
oustpbm_destination_recipient_limit = 1
robothost_destination_recipient_limit = 1
EOC
} >"$conf/main.cf"
printf 'oust@oust.test oustpbm:\nrobot@robots.test robothost:\n' >"$conf/transport"
printf 'alice@example.org example.org/alice/\nadmin@example.org example.org/admin/\n' >"$conf/vmailbox"
{
	pf_master_cf
	echo "oustpbm   unix  - n n - - pipe flags=R user=nobody argv=$pbin -d $h"
	echo "robothost unix  - n n - - pipe flags=R user=nobody argv=$pbin -d $r robot-mail"
} >"$conf/master.cf"
check "Postfix starts in its own instance on 127.0.0.1:$port" pf_start
[ $fails = 0 ] || { sed 's/^/# /' "$tmp/postfix.out"; done_testing; }

smtp() { # FROM TO SUBJECT [BODY]: a mail in through Postfix's SMTP port
	"$PY" - "$port" "$1" "$2" "$3" "${4:-sent by the test}" <<'EOP'
import smtplib, sys
from email.message import EmailMessage
port, sender, to, subject, body = sys.argv[1:6]
m = EmailMessage()
m["From"] = sender
m["To"] = to
m["Subject"] = subject
m.set_content(body + "\n")
with smtplib.SMTP("127.0.0.1", int(port), timeout=30) as s:
    s.send_message(m)
EOP
}
box=$pf/vmail/example.org/alice
count() { ls "$box/new" 2>/dev/null | wc -l; }
# until COMMAND succeeds (run again each time: a function or sh -c, not a
# [ ... ] of values expanded once), 120 s at most; at once when Postfix bounced a mail
until_() {
	lib_w=0
	while ! "$@"; do
		grep -q 'status=bounced' "$pf/maillog" 2>/dev/null && { echo "# Postfix bounced: $(grep 'status=bounced' "$pf/maillog" | tail -n 1)"; return 1; }
		[ "$lib_w" -lt 1200 ] || return 1
		sleep 0.1
		lib_w=$((lib_w + 1))
	done
}
header() { sed -n "s/^$2: //p" "$1" 2>/dev/null | head -n 1; }
a=alice@example.org

mkdir -p "$tmp/boxes/mail"
ln -s "$box" "$tmp/boxes/mail/$a"
smtp $a oust@oust.test "register alice secret"
has_mail() { [ "$(count)" -ge "$1" ]; }
until_ has_mail 1
smtp $a oust@oust.test "confirm alice $(code_in "$tmp/boxes" $a) secret"
until_ grep -qs '^alice:' "$h/users"
check "alice is registered by mail through Postfix" grep -q '^alice:alice@example.org:' "$h/users"

# the robot as Black: the challenge sends the robot's first board mail
smtp $a oust@oust.test "challenge alice secret robot -size=5 -level=1 -noswap -white"
g=$h/games/101.game
white_to_move() { [ "$(header "$g" to-move)" = white ]; }
until_ white_to_move
check "the challenge: the robot on the second home played turn 1 by mail" \
    sh -c "[ '$(header "$g" turn)' = 2 ] && grep -q 'robot-mail ok: board 101 turn 1: robot played' '$r/log'"
check "... the board mail went to the robot host through pipe(8)" \
    grep -q "postfix/pipe.*to=<robot@robots.test>.*relay=robothost.*status=sent" "$pf/maillog"
check "... its answer came back to the server through pipe(8)" \
    grep -q "postfix/pipe.*to=<oust@oust.test>.*relay=oustpbm.*status=sent" "$pf/maillog"

# alice's turns, by the greedy player of `oustpbm engine`, until the game ends
turn_of() { # GAMEFILE COLOUR: the placements of COLOUR's whole turn, comma-separated
	"$PY" - "$bin" "$1" "$2" <<'EOP'
import subprocess, sys
binary, path, colour = sys.argv[1:4]
e = subprocess.Popen([binary, "engine", "--player", "greedy", "--seed", "7"], stdin=subprocess.PIPE,
    stdout=subprocess.PIPE, text=True)
def ask(c):
    e.stdin.write(c + "\n"); e.stdin.flush()
    lines = []
    while True:
        l = e.stdout.readline()
        if l in ("", "\n"):
            break
        lines.append(l.rstrip("\n"))
    return " ".join(lines)[2:].strip()
ask("loadgame " + path)
out = []
while ask("gogui-rules_side_to_move") == colour and ask("gogui-rules_final_result") == "unknown" and len(out) < 30:
    out.append(ask("genmove " + colour))
ask("quit")
print(",".join(out))
EOP
}
# the state of the game in one read: "status to-move turn robot-turns"
state() { awk '/^status: /{ s = $2 } /^to-move: /{ m = $2 } /^turn: /{ t = $2 } / x robot /{ n++ } END { print s, m, t, n + 0 }' "$g"; }
moves=0
while set -- $(state) && [ "$1" = playing ] && [ "$2" = white ] && [ "$moves" -lt 40 ]; do
	t=$3
	nr=$4
	p=$(turn_of "$g" white)
	[ -n "$p" ] || break
	if [ "$moves" = 1 ]; then
		# the robot host down (its home gone): robot-mail fails, Postfix defers and retries
		mv "$r" "$r.down"
		smtp $a oust@oust.test "move 101#$t alice secret $p"
		deferred() { grep -q "postfix/pipe.*to=<robot@robots.test>.*status=deferred" "$pf/maillog"; }
		until_ deferred
		check "the robot host down: Postfix defers the board mail, nothing lost" deferred
		mv "$r.down" "$r"
	else
		smtp $a oust@oust.test "move 101#$t alice secret $p"
	fi
	moves=$((moves + 1))
	# the move, then the robot's answer through both pipes (or the end)
	until_ sh -c "set -- \$(awk '/^status: /{ s = \$2 } /^to-move: /{ m = \$2 } / x robot /{ n++ } END { print s, m, n + 0 }' '$g');
	    [ \"\$1\" != playing ] || { [ \"\$2\" = white ] && [ \"\$3\" -gt $nr ]; }" || break
done
check "a whole game against the remote robot, to the end ($moves turns of alice's)" \
    sh -c "[ '$(header "$g" status)' != playing ] && [ '$(header "$g" status)' != '' ]"
check "fsck: the game file replays" sh -c "asowner() { setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups \"\$@\"; }; asowner '$pbin' -d '$h' fsck 101 >/dev/null 2>&1"
nrobot=$(grep -c '^[0-9]* [^ ]* x robot ' "$g")
check "the robot host's log: each of the robot's $nrobot turns answered once" \
    [ "$(grep -c 'robot-mail ok: board 101 turn' "$r/log")" = "$nrobot" ]
check "the server's log: each came back as a token reply, played" \
    [ "$(grep -c 'from=robot@robots.test board=101 cmd="reply to board 101#[0-9]* \[token\]: .*" ok: turn [0-9]*: robot played' "$h/log")" = "$nrobot" ]
check "... no refusal, no failure on either side" sh -c "! grep -q ' refused: \| error: \| tempfail' '$h/log' && ! grep -q 'failed\|tempfail\|not answered' '$r/log'"
check "... nothing thought on the server" sh -c "! grep -q '^[^ ]* robot board=' '$h/log'"
# the end mail has the game's one Subject: the result is in its text
got_end() { grep -l 'Oust board 101 (.*) is over: ' "$box"/new/* >/dev/null 2>&1; }
until_ got_end
check "alice got the end of the game by mail" got_end

# ---- a forged mail claiming to be the robot's: logged and dropped, never answered
cp "$g" "$tmp/before.game"
smtp $a oust@oust.test "challenge alice secret robot -size=5 -level=1 -noswap"
until_ [ -f "$h/games/102.game" ]
t=$(header "$h/games/102.game" turn)
smtp robot@robots.test oust@oust.test "Re: Oust Board 102 robot #$t [AAAA-BBBB-CCCCC]" "E5"
until_ grep -q 'board=102 cmd="reply to board 102#[0-9]* \[token\]: E5" dropped' "$h/log"
check "a forged reply from the robot's address, a token not its: logged and dropped" \
    grep -q "from=robot@robots.test board=102 .* dropped: a reply from the robot's address (robot_address) whose token is not robot's token" "$h/log"
check "... board 102 unchanged" [ "$(header "$h/games/102.game" turn)" = "$t" ]
# ---- a mail forged From the server to the robot host, shaped as its refusal: not answered, the admin told
smtp oust@oust.test robot@robots.test "Re: Oust Board 102 robot #$t [AAAA-BBBB-CCCCC]" "Error: refused."
until_ grep -q 'robot-mail not answered: a mail of the server without a game record' "$r/log"
check "a mail From the server without a game record reaches the robot host: not answered" grep -q 'robot-mail not answered: a mail of the server without a game record (Subject: Re: Oust Board 102 robot' "$r/log"
until_ sh -c "ls '$pf/vmail/example.org/admin/new' 2>/dev/null | grep -q ."
check "... the robot host's admin told by mail" sh -c "grep -lq 'refused or answered a reply of the robot' '$pf/vmail/example.org/admin/new/'*"

smtp $a robot@robots.test "Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]" "D4"
until_ grep -q 'robot-mail ignored: a mail from alice@example.org' "$r/log"
check "a mail to the robot from anyone but the server: ignored" grep -q 'robot-mail ignored: a mail from alice@example.org, not from the server' "$r/log"
sleep 2
check "... nothing sent by the robot host since the game (no answer to an error or a stranger)" \
    [ "$(grep -c 'robot-mail ok' "$r/log")" = "$nrobot" ]
check "Postfix bounced nothing" sh -c "! grep -q 'status=bounced' '$pf/maillog'"
check "no mail deferred by a pipe but while the robot host was down" sh -c "! grep 'postfix/pipe.*status=deferred' '$pf/maillog' | grep -vq 'to=<robot@robots.test>'"
done_testing
