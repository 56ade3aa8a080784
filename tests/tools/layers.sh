#!/bin/sh
# The layers of src/ (README: the source), checked by `make check`: a file
# includes headers of its own folder and of lower layers only, always named
# by folder ("game/rules.h"); GMime (and GLib under it) only in src/mail/,
# libcurl only in src/outbox/.  Prints one "ok"/"not ok" line per rule.
cd "$(dirname "$0")/../.." || exit 2

# Lowest first: each layer may use the ones before it.
layers="base game store mail outbox commands"
# commands/ is in three parts (doc/HACKING.md), its files one folder down
parts="pipeline services keywords"

rank() { # layer -> its position, or nothing if it is no layer
	i=0
	for l in $layers main; do
		[ "$l" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
}

# Inside commands/, lowest first: a part may use the ones before it; the
# pipeline reaches the commands only through its tables (mailcmd.h,
# admincmd.h) and the services through its hooks (hooks.h).
part_rank() { # commands/<part>/file -> its part's position
	p=${1#commands/}
	p=${p%%/*}
	i=0
	for q in $parts; do
		[ "$q" = "$p" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}

layer_of() { # src/<layer>/file.c or src/main.c -> layer
	case $1 in
	src/main.c) echo main ;;
	src/*/*) d=${1#src/}; echo "${d%%/*}" ;;
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
	own=$(rank "$(layer_of "$f")")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		case $h in
		*/*) l=${h%%/*} ;;
		*) echo "$f: \"$h\" is not named by its folder" >>"$bad"; continue ;;
		esac
		r=$(rank "$l")
		if [ -z "$r" ] || [ ! -f "src/$h" ]; then
			echo "$f: \"$h\" is no header of src/" >>"$bad"
		elif [ "$r" -gt "$own" ]; then
			echo "$f: includes \"$h\" from the higher layer $l" >>"$bad"
		elif [ "$l" = commands ]; then
			# inside commands/: down the parts too, and from above only the pipeline's tables
			hp=$(part_rank "$h")
			case $f in
			src/commands/*) fp=$(part_rank "${f#src/}") ;;
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
