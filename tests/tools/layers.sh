#!/bin/sh
# The layers of src/ (README: the source), checked by `make check`: a file
# includes headers of its own folder and of lower layers only, always named
# by folder ("game/rules.h"); GMime (and GLib under it) only in src/mail/,
# libcurl only in src/outbox/.  Prints one "ok"/"not ok" line per rule.
cd "$(dirname "$0")/../.." || exit 2

# Lowest first: each layer may use the ones before it.
layers="base game store mail outbox commands"
# commands/ is in parts (doc/HACKING.md), its files one folder down
parts="pipeline services lib keywords admin"

# rank, part_rank and layer_of set a variable (rk, prk, lo) rather than
# print: called for each include line, a $(...) each was a process each,
# most of the script's time.
rank() { # layer -> rk, its position, or nothing if it is no layer
	i=0
	rk=
	for l in $layers main; do
		[ "$l" = "$1" ] && { rk=$i; return; }
		i=$((i + 1))
	done
}

# Inside commands/, lowest first: a part may use the ones before it; the
# pipeline reaches the mail commands only through its table (mailcmd.h),
# main.c the admin commands through its own (admincmd.h), and the pipeline
# the services through its hooks (hooks.h).
part_rank() { # commands/<part>/file -> prk, its part's position
	p=${1#commands/}
	p=${p%%/*}
	i=0
	for q in $parts; do
		[ "$q" = "$p" ] && { prk=$i; return; }
		i=$((i + 1))
	done
	prk=99
}

layer_of() { # src/<layer>/file.c or src/main.c -> lo, its layer
	lo=
	case $1 in
	src/main.c) lo=main ;;
	src/*/*) d=${1#src/}; lo=${d%%/*} ;;
	esac
}

bad=$(mktemp) || exit 2
trap 'rm -f "$bad"' EXIT
files=$(ls src/main.c $(for l in $layers; do echo "src/$l/*.[ch]"; done) \
	$(for p in $parts; do echo "src/commands/$p/*.[ch]"; done) 2>/dev/null)

stray=$(ls src | grep -v -x -e main.c $(for l in $layers; do echo "-e $l"; done))
if [ -z "$stray" ]; then
	echo "ok - src/ holds only the layer folders and main.c"
else
	echo "not ok - src/ holds files outside the layer folders: $stray"
fi
stray=$(ls src/commands | grep -v -x $(for p in $parts; do echo "-e $p"; done))
if [ -z "$stray" ]; then
	echo "ok - src/commands/ holds only its parts: $parts"
else
	echo "not ok - src/commands/ holds more than its parts ($parts): $stray"
fi

for f in $files; do
	layer_of "$f"
	rank "$lo"
	own=$rk
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		case $h in
		*/*) l=${h%%/*} ;;
		*) echo "$f: \"$h\" is not named by its folder" >>"$bad"; continue ;;
		esac
		rank "$l"
		r=$rk
		if [ -z "$r" ] || [ ! -f "src/$h" ]; then
			echo "$f: \"$h\" is no header of src/" >>"$bad"
		elif [ "$r" -gt "$own" ]; then
			echo "$f: includes \"$h\" from the higher layer $l" >>"$bad"
		elif [ "$l" = commands ]; then
			# inside commands/: down the parts too, and from above only the pipeline's tables
			part_rank "$h"
			hp=$prk
			case $f in
			src/commands/*) part_rank "${f#src/}"; fp=$prk ;;
			src/main.c) part_rank commands/admin/; fp=$prk ;;	# on top: its table's handlers are admin/'s
			*) fp=0 ;;
			esac
			if [ "$hp" -gt "$fp" ]; then
				echo "$f: includes \"$h\" from the higher part of commands/ $(echo "$h" | cut -d/ -f2)" >>"$bad"
			fi
		fi
	done
done
if [ -s "$bad" ]; then
	echo "not ok - includes point down the layers"
	sed 's/^/#   /' "$bad"
else
	echo "ok - includes point down the layers ($(echo $files | wc -w) files)"
fi

lib_only() { # what pattern folder
	out=$(grep -l -E "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($2)" $files | grep -v "^src/$3/")
	if [ -z "$out" ]; then
		echo "ok - $1 only in src/$3/"
	else
		echo "not ok - $1 outside src/$3/:" $out
	fi
}
lib_only GMime 'gmime/|glib|gio/|gobject/' mail
lib_only libcurl 'curl/' outbox

# mail/ parses and composes mail and knows no files (issue 33): it takes the
# store's values (board classes, absences) from its callers in commands/,
# never a header of src/store/, though store is the lower layer.
out=$(grep -l -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"store/' src/mail/*.[ch] 2>/dev/null)
if [ -z "$out" ]; then
	echo "ok - src/mail/ includes nothing of src/store/"
else
	echo "not ok - src/mail/ includes src/store/:" $out
fi

# The tables' headers declare handlers and nothing else: what a row is, is
# cmdtable.h's (admin.h's), and what several commands share is in lib/
# (tests/tools/cycles.sh checks the link level: no handler is called but
# through its table).
decls() { # header: its declarations of functions, one a line, the type's words joined
	awk '/^[[:space:]]*(\/\*|\*)/ { next } /^#/ { next }
		{ line = line " " $0 } /;[[:space:]]*(\/\*.*)?$/ { if (line ~ /\(/ || line ~ /^ *mailcmd_fn /) print line; line = "" }' "$1"
}
out=$(decls src/commands/pipeline/mailcmd.h | grep -v -E '^ *mailcmd_fn [a-z_]+_run(, [a-z_]+_run)*;' | grep -v -E '^ *(typedef|extern) ')
if [ -z "$out" ]; then
	echo "ok - mailcmd.h declares the table and its handlers, nothing else"
else
	echo "not ok - mailcmd.h declares more than the table and its handlers:"
	echo "$out" | sed 's/^ */#   /'
fi
out=$(decls src/commands/admin/admincmd.h | grep -v -E '^ *enum process_status admin_[a-z_]+_run\(struct admin \*a\);')
if [ -z "$out" ]; then
	echo "ok - admincmd.h declares the admin commands' handlers, nothing else"
else
	echo "not ok - admincmd.h declares more than the handlers:"
	echo "$out" | sed 's/^ */#   /'
fi

# A keyword's file includes no other keyword's private header: what two
# keywords share is a library of lib/ with its own header (git's
# sequencer.h), and a handler calls no other handler (only the tables do).
out=$(for f in src/commands/keywords/*.c src/commands/keywords/*.h; do
	[ -f "$f" ] || continue
	b=$(basename "$f"); b=${b%.[ch]}; b=${b%_int}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"commands\/keywords\/\([a-z_]*\)_int\.h".*/\1/p' "$f" | while read -r h; do
		case $b in "$h" | "$h"_*) ;; *) echo "$f: keywords/${h}_int.h" ;; esac
	done
done
handlers=$(sed -n 's/^[[:space:]]*mailcmd_fn[[:space:]]*//p; s/^enum process_status \(admin_[a-z_]*_run\)(.*/\1/p' \
	src/commands/pipeline/mailcmd.h src/commands/admin/admincmd.h | sed 's#/\*.*##' | tr -d ';' | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep .)
for h in $handlers; do
	# where it is defined, the table that names it: else a call by name
	grep -l -E "^enum [a-z_]+ $h\\(" src/commands/*/*.c >"$bad.def"
	grep -n -w "$h" src/commands/*/*.c src/main.c | grep -v -F -f "$bad.def" |
		grep -v -E '^(src/commands/pipeline/mailcmd\.c|src/main\.c):' | sed 's/^/#   /' 
done
rm -f "$bad.def")
if [ -z "$out" ]; then
	echo "ok - no keyword reaches another keyword's file: only the tables call handlers"
else
	echo "not ok - a keyword reaches another keyword's file or a handler is called by name:"
	echo "$out" | sed 's/^/#   /'
fi
