# SPDX-License-Identifier: GPL-2.0
#
# Reads the unified diff of one header against vm-base (git diff) and
# prints the names its added lines define, one a line. Exits 1 when the
# diff does more than add whole definitions: a removed or changed line,
# or an added line outside a "static inline" function, a "#define" or a
# comment (a struct field, a declaration, an include: these change what
# other objects compile to). vm/build-kernel.sh uses it to know that objects
# which do not use the names compile to the same code with or without
# the change (keep_header_times).

function bad(why)
{
	print "header-adds: " why ": " $0 > "/dev/stderr"
	failed = 1
	exit 1
}

# Braces of one line; a function ends where its depth is back to 0.
function braces(s,	o, c)
{
	o = gsub(/{/, "{", s)
	c = gsub(/}/, "}", s)
	return o - c
}

# A comment's last line: "*/" with nothing after it (code after a comment
# on its line is code like any other).
function ends_comment(s)
{
	if (s !~ /\*\//)
		return 0
	sub(/.*\*\//, "", s)
	if (s !~ /^[ \t]*$/)
		bad("code after a comment")
	return 1
}

/^(diff|index|---|\+\+\+|@@) / || /^@@/ { next }
/^-/ { bad("a line removed") }
/^ / {
	if (infn || macro)
		bad("a definition split by an unchanged line")
	next
}
/^\+/ {
	line = substr($0, 2)
	if (macro) {
		macro = line ~ /\\$/
		next
	}
	if (infn) {
		depth += braces(line)
		if (depth == 0 && opened)
			infn = 0
		else if (depth > 0)
			opened = 1
		next
	}
	if (incomment) {
		incomment = !ends_comment(line)
		next
	}
	if (line ~ /^[ \t]*$/ || line ~ /^[ \t]*\/\//)
		next
	if (line ~ /^[ \t]*\/\*/) {
		incomment = !ends_comment(line)
		next
	}
	if (line ~ /^#define[ \t]+[A-Za-z_][A-Za-z0-9_]*/) {
		name = line
		sub(/^#define[ \t]+/, "", name)
		sub(/[^A-Za-z0-9_].*/, "", name)
		print name
		macro = line ~ /\\$/
		next
	}
	if (line ~ /^static inline /) {
		infn = 1
		name = line
		sub(/\(.*/, "", name)
		sub(/.*[^A-Za-z0-9_]/, "", name)
		if (name == "")
			bad("no function name on the line that starts it")
		print name
		depth = braces(line)
		opened = depth > 0
		next
	}
	bad("an added line that defines no static inline or macro")
}
END {
	if (!failed && (infn || macro || incomment))
		bad("a definition that does not end")
	exit failed
}
