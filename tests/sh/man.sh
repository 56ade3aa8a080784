#!/bin/sh
# man: doc/oustpbm.1 renders without a warning, and documents every command
# line command, every mail command and every configuration key of the source.
. "$(dirname "$0")/lib.sh"
page=doc/oustpbm.1
tmpdir

MANWIDTH=80 man --warnings -l "$page" >"$tmp/out" 2>"$tmp/err"
check "man -l renders the page" [ -s "$tmp/out" ]
check "... without warnings" [ ! -s "$tmp/err" ]
[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"
MANWIDTH=80 man -l "$page" 2>/dev/null | col -b >"$tmp/text"
check "the version is the program's" grep -q "\"oustpbm $(sed -n 's/^#define OUSTPBM_VERSION "\(.*\)"/\1/p' src/base/version.h)\"" "$page"
for k in $(sed -n 's/^[[:space:]]*[A-Z]*_KEY(\([a-z_]*\),.*/\1/p' src/base/config.c); do
	check "configuration key $k is documented" grep -q "^ *$k (default" "$tmp/text"
done
for c in $(sed -n 's/^[[:space:]]*{ { "\([a-z]*\)", .*/\1/p' src/commands/pipeline/mailcmd.c); do
	check "mail command $c is documented" sh -c "sed -n '/^MAIL COMMANDS/,/^CONFIGURATION/p' '$tmp/text' | grep -q '^       $c'"
done
# every row of main.c's table of commands (oustpbm --list-commands), and the global options
need "$bin"
for c in $("$bin" --list-commands) --help --version --list-commands; do
	check "command $c is documented" sh -c "sed -n '/^COMMANDS/,/^MAIL COMMANDS/p' '$tmp/text' | grep -q '^       $c'"
done
# the handlers admincmd.h declares are those of main.c's rows (admin.h keeps no list of its own)
decl=$(grep -o 'admin_[a-z_]*_run' src/commands/admin/admincmd.h | LC_ALL=C sort -u)
rows=$(sed -n '/^static const struct command commands\[\]/,/^};/p' src/main.c | grep -o 'admin_[a-z_]*_run' | LC_ALL=C sort -u)
check "admincmd.h declares the handlers of main.c's table, no more ($(echo $rows | wc -w))" [ "$decl" = "$rows" ]
for s in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
	check "section $s" grep -q "^$s" "$tmp/text"
done
check "an example procmail set-up" grep -q '| oustpbm -d' "$tmp/text"
