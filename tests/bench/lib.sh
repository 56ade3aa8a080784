# tests/bench/lib.sh: the preamble of the shell benchmarks of tests/bench/,
# sourced first:
#
#	. "$(dirname "$0")/lib.sh"
#
# It sources tests/sh/lib.sh (top, bin, PY, tmpdir and its exit trap,
# mkhome, mail, deliver: see there), stops with a message on stderr if
# ./oustpbm is not built, makes $tmp and builds the helper:
#   mb                  tests/bench/mail/mailbench.c, built from the objects
#                       `make` left in build/obj (game, time, copies)
#   players HOME [LINE...]   a home (mkhome: password_cost = 1 unless a
#                       LINE sets it; 0 is libxcrypt's default, as a server
#                       has it) where alice (secret) and bob (hunter2) have
#                       registered by mail and confirmed, as players do
#   move_mail PLAYER TURN PLACEMENT   prints the mail of that turn of
#                       board 101 (the words `$mb game` prints), as alice
#                       or bob sends it
#   median              the median of the numbers on stdin, one a line
. "$(dirname "$0")/../sh/lib.sh"
bench=$(basename "$0" .sh)
[ -x "$bin" ] || { echo "$bench: run make first" >&2; exit 1; }
tmpdir

mb=$tmp/mailbench
# the game and base layers as one archive: the linker takes the objects the
# helper needs (naming them one by one broke each time a module was split)
# shellcheck disable=SC2046
ar rcs "$tmp/lib.a" $(ls build/obj/game/*.o build/obj/base/*.o) &&
${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Isrc -o "$mb" tests/bench/mail/mailbench.c "$tmp/lib.a" -lm ||
    { echo "$bench: cannot build the helper" >&2; exit 1; }

players() {
	lib_h=$1
	shift
	mkhome "$lib_h" "$@"
	for lib_u in "alice secret" "bob hunter2"; do
		# deliver (tests/sh/lib.sh) confirms the registration, as its player does
		mail "${lib_u%% *}@example.org" "register $lib_u" "reg.${lib_u%% *}@example.org" |
		    deliver "$lib_h" || exit 1
	done
}

move_mail() {
	lib_pw=secret
	[ "$1" = bob ] && lib_pw=hunter2
	mail "$1@example.org" "move 101#$2 $1 $lib_pw $3" bench@example.org
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
