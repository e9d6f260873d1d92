#!/bin/bash
# docs_options.sh - every command's options in the docs are the ones its
# --help prints.
#
# The convention the docs keep: each command of `slabsim --help` (`gen`
# as `gen W`, one per workload of `slabsim list workloads`) has exactly
# one synopsis block under docs/, a fenced block whose info string is
# `synopsis` and whose first line starts `slabsim COMMAND`:
#
#     ```synopsis
#     slabsim diff RUN_A RUN_B [--out FILE]
#     ```
#
# The block names every option --help lists (one of its spellings, -o or
# --output, is enough; -h/--help need not be named), and no option --help
# does not list.  Elsewhere, an option the README's command table or any
# page names for a command must exist: in a code span or code line,
# whatever follows `slabsim COMMAND` (to the span's end or a shell |, ;,
# &&, >, #), and a span that starts with a bare command name and a long
# option (`run --slab-fill`).
. "$(dirname "$0")/lib/common.bash"

docs=("$root/README.md" "$root"/docs/*.md "$root"/docs/*/*.md)
problems=$tmp/problems
: >"$problems"
problem() { echo "$*" >>"$problems"; }

# The commands, as `slabsim --help` lists them; gen by its workloads.
"$S" --help >"$tmp/main-help"
cmds=()
for c in $(awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }' "$tmp/main-help"); do
	if [ "$c" = gen ]; then
		for w in $("$S" list workloads | awk '{ print $1 }'); do cmds+=("gen $w"); done
	else
		cmds+=("$c")
	fi
done
[ ${#cmds[@]} -ge 20 ] || fail "slabsim --help lists ${#cmds[@]} commands: the list was not read"

# key CMD: the command as a file name ("gen smack17k" -> gen-smack17k)
key() { echo "${1// /-}"; }

# Each command's options from its --help: one line per option, its
# spellings separated by spaces ("-o --output"); -h/--help left out.
for c in "${cmds[@]}"; do
	k=$(key "$c")
	# shellcheck disable=SC2086 # "gen smack17k": two words
	"$S" $c --help >"$tmp/help.$k" || fail "slabsim $c --help: exit $?"
	awk '/^  -/ {
		n = split(substr($0, 3), w, /[ ,]+/); out = ""
		for (i = 1; i <= n && w[i] ~ /^--?[A-Za-z][A-Za-z0-9-]*$/; i++) out = out " " w[i]
		if (out != " -h --help" && out != "") print substr(out, 2)
	}' "$tmp/help.$k" >"$tmp/opts.$k"
	tr ' ' '\n' <"$tmp/opts.$k" | sort -u >"$tmp/known.$k"
	echo -e "-h\n--help" >>"$tmp/known.$k"
done
# the union of every gen workload's, for `slabsim gen W ...` with W a placeholder
cat "$tmp"/known.gen-* | sort -u >"$tmp/known.gen"

# options TEXT: the option tokens in TEXT, one a line (--name of --name=V)
options() { grep -oE -- '(^|[^A-Za-z0-9_./-])--?[A-Za-z][A-Za-z0-9-]*' <<<"$1" | sed 's/^[^-]*//' | sed 's/=.*//' || true; }

# known_for CMD: the file of CMD's known options ("" if CMD is no command)
known_for() {
	local c=$1
	if [ "${c%% *}" = gen ]; then
		[ -e "$tmp/known.$(key "$c")" ] && echo "$tmp/known.$(key "$c")" || echo "$tmp/known.gen"
		return
	fi
	[ -e "$tmp/known.$c" ] && echo "$tmp/known.$c" || echo ""
}

# The synopsis blocks: "FILE:LINE<TAB>first line<TAB>every line joined".
for f in "${docs[@]}"; do
	awk -v f="${f#"$root"/}" '
		/^ *```synopsis[ \t]*$/ { inb = 1; start = NR + 1; first = ""; all = ""; next }
		inb && /^ *```/ { print f ":" start "\t" first "\t" all; inb = 0; next }
		inb { l = $0; sub(/^ +/, "", l); if (first == "") first = l; all = all " " l }
	' "$f"
done >"$tmp/synopses"

for c in "${cmds[@]}"; do
	k=$(key "$c")
	# the blocks whose first line is `slabsim CMD` (then a space or nothing)
	awk -F'\t' -v c="slabsim $c" 'index($2, c) == 1 && (length($2) == length(c) || substr($2, length(c) + 1, 1) == " ")' \
		"$tmp/synopses" >"$tmp/syn.$k"
	n=$(wc -l <"$tmp/syn.$k")
	if [ "$n" -eq 0 ]; then
		problem "slabsim $c: no synopsis block under docs/ (\`\`\`synopsis, first line 'slabsim $c ...')"
		continue
	fi
	if [ "$n" -gt 1 ]; then
		problem "slabsim $c: $n synopsis blocks, want one: $(cut -f1 "$tmp/syn.$k" | tr '\n' ' ')"
		continue
	fi
	where=$(cut -f1 "$tmp/syn.$k")
	options "$(cut -f3 "$tmp/syn.$k")" | sort -u >"$tmp/doc.$k"
	# every --help option named in the block, by one of its spellings
	while read -r spellings; do
		found=0
		for o in $spellings; do grep -qxF -- "$o" "$tmp/doc.$k" && found=1; done
		[ $found = 1 ] || problem "$where: slabsim $c: --help lists ${spellings// /, } and the synopsis does not"
	done <"$tmp/opts.$k"
	# every option of the block listed by --help
	while read -r o; do
		grep -qxF -- "$o" "$tmp/known.$k" || problem "$where: slabsim $c: the synopsis names $o, which --help does not list"
	done <"$tmp/doc.$k"
done

# The README's command table: each row's options are its commands'.
awk '/^## The binary/ { f = 1; next } f && /^## / { exit } f && /^\| `/' "$root/README.md" >"$tmp/readme-rows"
[ -s "$tmp/readme-rows" ] || fail "README.md: no command table under '## The binary'"
while IFS= read -r row; do
	cell=${row#| }
	cell=${cell%% |*}
	: >"$tmp/row-known"
	for c in $(grep -oE '`[a-z-]+' <<<"$cell" | tr -d '`'); do
		kf=$(known_for "$c")
		[ -n "$kf" ] || { problem "README.md: the command table names '$c', which slabsim --help does not list"; continue; }
		cat "$kf" >>"$tmp/row-known"
	done
	for o in $(options "$(grep -oE '`[^`]*`' <<<"$row" | tr '\n' ' ')"); do
		grep -qxF -- "$o" "$tmp/row-known" ||
			problem "README.md: the command table's row '$cell' names $o, which its --help does not list"
	done
done <"$tmp/readme-rows"

# Every page: `slabsim CMD ...` and `CMD --option` in code.
cmd_re=$(printf '%s\n' "${cmds[@]}" | sed 's/ .*//' | sort -u | paste -sd'|')
for f in "${docs[@]}"; do
	rel=${f#"$root"/}
	awk -v re="$cmd_re" '
		/^ *```/ { code = !code; next }
		{
			line = $0
			# `slabsim CMD rest`: in a code line, or in a code span
			s = line
			while (match(s, "slabsim (" re ")( |`|$)")) {
				rest = substr(s, RSTART + 8)
				s = substr(s, RSTART + RLENGTH)
				if (!code && !inspan(line, length(line) - length(rest))) continue
				print NR "\t" cut(rest)
			}
			# `CMD --option ...` at the start of a code span
			s = line
			while (match(s, "`(" re ") --[a-z]")) {
				rest = substr(s, RSTART + 1)
				s = substr(s, RSTART + RLENGTH)
				print NR "\t" cut(rest)
			}
		}
		# is position p of l inside a code span (an odd number of backticks before it)?
		function inspan(l, p,   t) { t = substr(l, 1, p); return gsub(/`/, "", t) % 2 == 1 }
		# the command and its arguments: to the span end or a shell separator
		function cut(r) {
			sub(/`.*/, "", r)
			sub(/ (\||;|&&|>|2>|#) .*/, "", r)
			return r
		}
	' "$f" | while IFS=$'\t' read -r n text; do
		c=${text%% *}
		if [ "$c" = gen ]; then
			w=$(awk '{ print $2 }' <<<"$text")
			[ -e "$tmp/known.gen-$w" ] && c="gen $w"
		fi
		kf=$(known_for "$c")
		[ -n "$kf" ] || continue
		for o in $(options "${text#"$c"}"); do
			grep -qxF -- "$o" "$kf" || echo "$rel:$n: '$text' names $o, which slabsim $c --help does not list"
		done
	done >>"$problems"
done

if [ -s "$problems" ]; then
	sort -u "$problems" >&2
	fail "$(sort -u "$problems" | wc -l) options in the docs differ from --help"
fi
echo "docs_options.sh: ok (${#cmds[@]} commands)"
