# tiny - 200 files and 20 directories in a tmpfs: the lab's smallest
# workload, for the test boot (tests/e2e/lab.sh).
mkdir t && mount -t tmpfs tmpfs t
for d in $(seq 20); do
	mkdir "t/d$d"
	for f in $(seq 10); do : > "t/d$d/f$f"; done
done
