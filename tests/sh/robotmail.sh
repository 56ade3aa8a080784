#!/bin/sh
# robotmail: the robot player on another host, by mail (robotremote.h on
# the server, admin_robot_mail.c on the robot host), with the maildir transport
# standing for the mail system (robothost.sh does it through Postfix):
# the server's board mail to robot_address carries the game record and the
# robot's token; `oustpbm robot-mail` on the robot home answers it with the
# turn alone; the server plays it.  Failure paths: a forged reply (no valid
# token) is refused and the robot host, getting the refusal, answers
# nothing and tells its admin; a mail not from the server, a mail of the
# server without a game record and a board mail answered already get no
# answer; every think slot busy: the board mail waits in robot-queue/ for
# `robot-mail --queued`; a home without robot_server answers nothing.
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
export OUSTPBM_TEST_ROBOT=first

s=$tmp/server
r=$tmp/robot
R=robot@robots.test
S=oust@example.net
mkhome "$s" "robot_address = $R" 'max_mails_per_hour = 4' 'robot_secret_file = robot.secret'
mkhome "$r" "from_address = $R" "robot_server = $S" 'robot_seconds = 1' 'robot_max_thinking = 1' \
    'admin_address = admin@robots.test' 'robot_secret_file = robot.secret'
# the secret the server and its robot host share (src/mail/robotmac.h): the same line in each home
SECRET=robotmail-test-secret-5f0c1d2e3a4b5c6d7e8f9a0b1c2d
(umask 077 && printf '%s\n' "$SECRET" >"$s/robot.secret" && printf '%s\n' "$SECRET" >"$r/robot.secret")
echo 0 >"$tmp/clock"
at() { # the next minute (a file: $(at) runs in a subshell)
	k=$(($(cat "$tmp/clock") + 1))
	echo "$k" >"$tmp/clock"
	echo $((T0 + 60 * k))
}
robot_mail() { # [ARGS]: robot-mail on the robot home, the mail on stdin; prints the exit status
	OUSTPBM_TEST_TIME=$(at) "$bin" -d "$r" robot-mail "$@" >/dev/null 2>>"$tmp/robot.err"
	echo $?
}
nreplies() { replies "$r" "$S"; }

mail alice@example.org 'register alice secret' | deliver "$s" "$(at)"
mail alice@example.org 'challenge alice secret robot -size=5 -noswap -white' | deliver "$s" "$(at)"
check "a challenge with the robot as Black: no think on the server" sh -c "! grep -q 'robot played' '$s/log'"
check "... the board waits for the robot's turn 1" grep -q '^turn: 1$' "$s/games/101.game"
check "... one board mail to the robot's address" [ "$(replies "$s" "$R")" = 1 ]
m=$(newest "$s" "$R")
check "... its Subject: the board, robot, the turn and a token" grep -Eq '^Subject: Oust Board 101 robot #1 \[[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{5}\]$' "$m"
check "... the game record attached (application/x-oust-game)" sh -c "grep -q '^Content-Type: application/x-oust-game; name=oust-101.game' '$m' && grep -q '^board: 101\$' '$m' && grep -q '^robot-level: 3\$' '$m'"
check "... Auto-Submitted: auto-generated (it answers no mail)" grep -q '^Auto-Submitted: auto-generated' "$m"
check "... alice got her board mail at once" grep -Eq '^Subject: Oust Board 101 (alice vs robot|robot vs alice) \[' "$(newest "$s" alice@example.org)"
OUSTPBM_TEST_TIME=$(at) "$bin" -d "$s" robot >/dev/null 2>&1
check "oustpbm robot on the server plays no turn of a remote robot" grep -q '^turn: 1$' "$s/games/101.game"

check "robot-mail answers the board mail: exit 0" [ "$(robot_mail <"$m")" = 0 ]
check "... one reply to the server" [ "$(nreplies)" = 1 ]
a=$(newest "$r" "$S")
check "... Subject: Re: and the board mail's, token and turn" sh -c "grep '^Subject: ' '$a' | sed 's/^Subject: Re: //' >'$tmp/s1' && grep '^Subject: ' '$m' | sed 's/^Subject: //' >'$tmp/s2' && cmp -s '$tmp/s1' '$tmp/s2'"
check "... In-Reply-To the board mail" grep -q '^In-Reply-To: <101.1.robot.' "$a"
check "... Auto-Submitted: auto-replied (RFC 3834)" grep -q '^Auto-Submitted: auto-replied' "$a"
check "... the text is the turn alone" [ "$(sed '1,/^$/d' "$a")" = A1 ]
check "... logged on the robot host, the token masked" sh -c "grep -q 'robot-mail ok: board 101 turn 1: robot played A1 (level 3) (Subject: Oust Board 101 robot #1 \[token\])' '$r/log'"
deliver "$s" "$(at)" <"$a"
check "the reply delivered to the server: exit 0" [ $? = 0 ]
check "... the robot's turn is played" sh -c "grep -q '^1 [^ ]* x robot A1\$' '$s/games/101.game' && grep -q '^turn: 2\$' '$s/games/101.game'"
check "... logged as a token reply" grep -q 'from=robot@robots.test board=101 cmd="reply to board 101#1 \[token\]: A1" ok: turn 1: robot played A1' "$s/log"
check "... alice has the board after it" grep -q 'robot played A1' "$(newest "$s" alice@example.org)"
check "... nothing more to the robot (alice to move)" [ "$(replies "$s" "$R")" = 1 ]

check "the same board mail again: exit 0" [ "$(robot_mail <"$m")" = 0 ]
check "... not answered twice" sh -c "[ $(nreplies) = 1 ] && tail -1 '$r/log' | grep -q 'ignored: this board mail was answered already'"

# alice moves; the robot's next board mail; a forged reply first
mail alice@example.org 'move 101#2 alice secret C3' | deliver "$s" "$(at)"
check "alice moves: a second board mail to the robot" [ "$(replies "$s" "$R")" = 2 ]
m2=$(newest "$s" "$R")
cp "$s/games/101.game" "$tmp/before.game"
n_r=$(replies "$s" "$R")
# issue 39 finding 7: 45 replies forged From robot_address with a wrong token, at one time
t=$(at)
i=0
while [ $i -lt 45 ]; do
	i=$((i + 1))
	printf 'From: %s\nTo: %s\nSubject: Re: Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]\nMessage-ID: <forged.%s@robots.test>\n\nE5\n' \
	    "$R" "$S" "$i" | deliver "$s" "$t"
done
check "45 replies from the robot's address with a wrong token: the game unchanged" cmp -s "$s/games/101.game" "$tmp/before.game"
check "... logged and dropped, each" [ "$(grep -c "from=robot@robots.test board=101 .* dropped: a reply from the robot's address (robot_address) whose token is not robot's token for board 101: not answered" "$s/log")" = 45 ]
check "... none answered (the robot host gets no mail of them)" [ "$(replies "$s" "$R")" = "$n_r" ]
check "... and they lock nobody out (not counted by the throttle)" sh -c "! grep -qs '^robot ' '$s/throttle'"
printf 'From: %s\nTo: %s\nSubject: Re: Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]\nMessage-ID: <forged.auto@robots.test>\nAuto-Submitted: auto-replied\n\nE5\n' \
    "$R" "$S" | deliver "$s" "$t"
check "... an automatic one with a wrong token: dropped as automatic, not answered" sh -c \
    "tail -1 '$s/log' | grep -q 'dropped: automatic mail (Auto-Submitted: auto-replied) from the robot.s address (robot_address) without the robot.s right token' && [ $(replies "$s" "$R") = $n_r ]"
# 45 commands forged From robot_address: throttled as any sender's (max_mails_per_hour = 4)
i=0
while [ $i -lt 45 ]; do
	i=$((i + 1))
	mail "$R" 'help' "forged.help.$i@robots.test" | deliver "$s" "$t"
done
got=$(($(replies "$s" "$R") - n_r))
check "45 commands forged From robot_address: throttled, at most max_mails_per_hour + 1 answers ($got)" [ "$got" -le 5 ]
check "... the rest dropped by max_mails_per_hour" sh -c "grep -q 'dropped: robot@robots.test sent [0-9]* mails in the last hour (max_mails_per_hour = 4)' '$s/log'"

# the server's refusal of a reply of the robot (here made by hand: the
# server no longer answers a wrong token), to the robot host
refusal=$tmp/refusal
printf 'From: Oust <%s>\nTo: %s\nSubject: Re: Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]\nMessage-ID: <refusal.1@example.net>\n\nError: the placement E5 was refused.\n' \
    "$S" "$R" >"$refusal"
n0=$(nreplies)
check "robot-mail, given the server's refusal: exit 0" [ "$(robot_mail <"$refusal")" = 0 ]
check "... no answer (never an error reply)" [ "$(nreplies)" = "$n0" ]
check "... logged as not answered" sh -c "tail -2 '$r/log' | grep -q 'robot-mail not answered: a mail of the server without a game record'"
check "... the robot host's admin told" sh -c "grep -lq 'refused or answered a reply of the robot' '$r'/mail/admin@robots.test/new/*"
# issue 39 finding 6: 30 such mails forged, each Subject its own: the
# alert's hourly limit is keyed on its cause, never on the Subject
i=0
while [ $i -lt 30 ]; do
	i=$((i + 1))
	printf 'From: %s\nTo: %s\nSubject: Re: Oust Board 101 robot #%d [AAAA-BBBB-CCCCC] forged %d\nMessage-ID: <refusal.f%d@example.net>\n\nError: %d.\n' \
	    "$S" "$R" $((i + 3)) "$i" "$i" "$i" | robot_mail >/dev/null
done
check "30 forged refusals, each Subject its own: still one alert within the hour" [ "$(grep -l 'refused or answered a reply of the robot' "$r"/mail/admin@robots.test/new/* | wc -l)" = 1 ]
check "... logged as already told" sh -c "grep -c 'alert robot-host: admin already told within the hour' '$r/log' | grep -qx 30"

printf 'From: mallory@example.org\nTo: %s\nSubject: Oust Board 101 robot #3 [AAAA-BBBB-CCCCC]\n\nhello\n' "$R" >"$tmp/stranger"
check "a mail not from the server: exit 0" [ "$(robot_mail <"$tmp/stranger")" = 0 ]
check "... ignored, no answer" sh -c "[ $(nreplies) = $n0 ] && tail -1 '$r/log' | grep -q 'ignored: a mail from mallory@example.org, not from the server'"
printf 'From: %s\nTo: %s\nSubject: Oust help\nAuto-Submitted: auto-replied\n\nThe commands:\n' "$S" "$R" >"$tmp/help"
check "a mail of the server without a game record: no answer" sh -c "[ \$(OUSTPBM_TEST_ROBOT=first '$bin' -d '$r' robot-mail <'$tmp/help' >/dev/null 2>&1; echo \$?) = 0 ] && [ $(nreplies) = $n0 ]"

# every think slot busy: the board mail waits for robot-mail --queued
hold_lock "$r/robot-thinking.0.lock"
check "every think slot busy: robot-mail exits 0" [ "$(robot_mail <"$m2")" = 0 ]
check "... the board mail kept in robot-queue/, no answer yet" sh -c "[ \$(ls '$r/robot-queue' | wc -l) = 1 ] && [ $(nreplies) = $n0 ]"
check "... logged" sh -c "tail -1 '$r/log' | grep -q 'robot-mail queued: every think slot is busy'"
release_lock
check "robot-mail --queued: exit 0" [ "$(robot_mail --queued </dev/null)" = 0 ]
check "... the kept board mail answered, the queue empty" sh -c "[ $(nreplies) = $((n0 + 1)) ] && [ -z \"\$(ls '$r/robot-queue')\" ]"
a2=$(newest "$r" "$S")
deliver "$s" "$(at)" <"$a2"
check "... its reply played on the server" grep -q '^turn: 4$' "$s/games/101.game"

# issue 39 finding 5: board mails forged From robot_server.  A second game
# (the robot Black; bob, alice having sent her max_mails_per_hour) gives a
# board mail not yet answered, m3.
mail bob@example.com 'register bob hunter2' | deliver "$s" "$(at)"
mail bob@example.com 'challenge bob hunter2 robot -size=5 -noswap -white' | deliver "$s" "$(at)"
m3=$(newest "$s" "$R")
check "a board mail carries the server's MAC (X-Oust-Robot-MAC)" grep -Eq '^X-Oust-Robot-MAC: [0-9a-f]{64}$' "$m3"
# the MAC as robotmac.h defines it, made again by Python's hmac: the construction is the documented one
check "... HMAC-SHA256 of its Subject and game record under the shared secret" "$PY" - "$m3" "$SECRET" <<'EOP'
import email, email.policy, hmac, hashlib, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
subject = str(msg["Subject"])
rec = next(p for p in msg.walk() if p.get_content_type() == "application/x-oust-game").get_payload(decode=True)
data = b"oust-robot-mac 1\n%d\n" % len(subject.encode()) + subject.encode() + b"\n" + rec.replace(b"\r", b"")
sys.exit(0 if hmac.compare_digest(hmac.new(sys.argv[2].encode(), data, hashlib.sha256).hexdigest(), msg["X-Oust-Robot-MAC"].strip()) else 1)
EOP
sed '/^X-Oust-Robot-MAC:/d' "$m3" >"$tmp/nomac"
sed 's/^X-Oust-Robot-MAC: .*/X-Oust-Robot-MAC: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/' "$m3" >"$tmp/badmac"
# the same mail made under another secret: the MAC of another server
printf '%s\n' another-secret-of-another-server-0123456789 >"$tmp/other.secret"
"$PY" - "$m3" "$tmp/other.secret" "$tmp/othermac" <<'EOP'
import email, email.policy, hmac, hashlib, sys
raw = open(sys.argv[1], "rb").read()
msg = email.message_from_bytes(raw, policy=email.policy.default)
subject = str(msg["Subject"])
rec = next(p for p in msg.walk() if p.get_content_type() == "application/x-oust-game").get_payload(decode=True)
data = b"oust-robot-mac 1\n%d\n" % len(subject.encode()) + subject.encode() + b"\n" + rec.replace(b"\r", b"")
key = open(sys.argv[2], "rb").read().strip()
mac = hmac.new(key, data, hashlib.sha256).hexdigest().encode()
head, sep, body = raw.partition(b"\n\n")
lines = [l if not l.startswith(b"X-Oust-Robot-MAC:") else b"X-Oust-Robot-MAC: " + mac for l in head.split(b"\n")]
open(sys.argv[3], "wb").write(b"\n".join(lines) + sep + body)
EOP
hold_lock "$r/robot-thinking.0.lock"
n0=$(nreplies)
bad=
i=0
while [ $i -lt 25 ]; do
	i=$((i + 1))
	case $((i % 3)) in 0) f=$tmp/nomac ;; 1) f=$tmp/badmac ;; *) f=$tmp/othermac ;; esac
	[ "$(robot_mail <"$f")" = 0 ] || bad="$bad $i"
done
check "25 board mails forged From robot_server (no MAC, a wrong one, another secret's), every slot busy: exit 0" [ -z "$bad" ]
check "... none queued" [ -z "$(ls "$r/robot-queue" 2>/dev/null)" ]
check "... none answered" [ "$(nreplies)" = "$n0" ]
check "... each logged and dropped as forged" [ "$(grep -c 'robot-mail dropped: a forged board mail' "$r/log")" = 25 ]
check "... the log names no secret" sh -c "! grep -q '$SECRET' '$r/log'"
# the queue's caps (src/store/filecaps.c): 100 board mails
i=0
while [ $i -lt 100 ]; do
	i=$((i + 1))
	robot_mail <"$m3" >/dev/null
done
check "the real board mail, every slot busy: queued, up to the queue's cap of 100" [ "$(ls "$r/robot-queue" | wc -l)" = 100 ]
check "... one more is not queued: exit 75, the mail system keeps it" [ "$(robot_mail <"$m3")" = 75 ]
check "... the queue holds 100, the log says it is full" sh -c "[ \$(ls '$r/robot-queue' | wc -l) = 100 ] && tail -1 '$r/log' | grep -q 'robot-mail tempfail: robot-queue is full (100 mails'"
check "... fsck warns of the queue at its cap" sh -c "'$bin' -d '$r' fsck 2>&1 | grep -q '^robot-queue: warning: 100 files, 100% of its cap of 100'"
release_lock
# and 4 MB: board mails of 200 KB (an epilogue after the MIME parts)
r2=$tmp/robot2
mkhome "$r2" "from_address = $R" "robot_server = $S" 'robot_seconds = 1' 'robot_max_thinking = 1' 'robot_secret_file = robot.secret'
(umask 077 && printf '%s\n' "$SECRET" >"$r2/robot.secret")
{ cat "$m3"; "$PY" -c 'print(("padding " * 9 + "\n") * 2800, end="")'; } >"$tmp/big"
fit=$((4194304 / $(wc -c <"$tmp/big")))
hold_lock "$r2/robot-thinking.0.lock"
i=0
while [ $i -lt "$fit" ]; do
	i=$((i + 1))
	OUSTPBM_TEST_TIME=$(at) "$bin" -d "$r2" robot-mail <"$tmp/big" >/dev/null 2>&1
done
check "board mails of $(wc -c <"$tmp/big") bytes: $fit queued, up to 4 MB" [ "$(ls "$r2/robot-queue" | wc -l)" = "$fit" ]
check "... one more is not queued: exit 75" [ "$(OUSTPBM_TEST_TIME=$(at) "$bin" -d "$r2" robot-mail <"$tmp/big" >/dev/null 2>&1; echo $?)" = 75 ]
release_lock
# without the shared secret, no board mail is believed
rm "$r2/robot.secret"
check "robot_secret_file missing on the robot host: exit 75 (the mail kept), said" sh -c \
    "[ \$(OUSTPBM_TEST_TIME=$T0 '$bin' -d '$r2' robot-mail <'$m3' 2>'$tmp/nosecret' >/dev/null; echo \$?) = 75 ] && grep -q 'cannot open robot_secret_file' '$tmp/nosecret'"
sed -i '/^robot_secret_file/d' "$r2/oustpbm.conf"
check "robot_server without robot_secret_file: a configuration error" sh -c \
    "OUSTPBM_TEST_TIME=$T0 '$bin' -d '$r2' robot-mail <'$m3' 2>&1 >/dev/null | grep -q 'robot_server needs robot_secret_file'"
(umask 022 && printf '%s\n' "$SECRET" >"$r2/robot.secret" && chmod 644 "$r2/robot.secret")
echo 'robot_secret_file = robot.secret' >>"$r2/oustpbm.conf"
check "a secret file others may read: refused (chmod 600 it)" sh -c \
    "OUSTPBM_TEST_TIME=$T0 '$bin' -d '$r2' robot-mail <'$m3' 2>&1 >/dev/null | grep -q 'may be read by others (mode 0644): chmod 600 it'"

# the server without its secret: the robot's board mail cannot be made, the mail kept (exit 75)
mv "$s/robot.secret" "$tmp/server.secret"
mail alice@example.org 'challenge alice secret robot -size=5 -noswap -white' >"$tmp/bobmove"
check "the server's robot_secret_file missing: a challenge that needs the robot's board mail exits 75" sh -c \
    "[ \$(OUSTPBM_TEST_TIME=$(at) '$bin' -d '$s' <'$tmp/bobmove' >/dev/null 2>'$tmp/srv.err'; echo \$?) = 75 ] && grep -q 'cannot open robot_secret_file' '$tmp/srv.err'"
mv "$tmp/server.secret" "$s/robot.secret"
mkhome "$tmp/srvnosecret" "robot_address = $R"
check "robot_address without robot_secret_file: a configuration error" sh -c \
    "OUSTPBM_TEST_TIME=$T0 '$bin' -d '$tmp/srvnosecret' <'$tmp/bobmove' 2>&1 >/dev/null | grep -q 'robot_address needs robot_secret_file'"

mkhome "$tmp/plain"
check "robot-mail on a home without robot_server: exit 75 (the mail kept), nothing answered" \
    [ "$(OUSTPBM_TEST_TIME=$T0 "$bin" -d "$tmp/plain" robot-mail <"$m2" >/dev/null 2>&1; echo $?)" = 75 ]
check "fsck: the server's game file is sound" sh -c "'$bin' -d '$s' fsck >/dev/null 2>&1"
done_testing
