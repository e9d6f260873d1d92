# dirs - 2,000 empty directories in a tmpfs, 20 levels of 100 (mkdir with
# many arguments: one fork a level).
mkdir t && mount -t tmpfs tmpfs t
for d in $(seq 20); do
	mkdir "t/d$d"
	mkdir $(for i in $(seq 100); do printf 't/d%d/e%d ' "$d" "$i"; done)
done
