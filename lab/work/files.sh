# files - a file tree in a tmpfs: 50 directories of 100 small files each
# (5,000 files: shmem inodes, dentries, their LSM blobs, page cache).
# Deterministic: bash builtins only, no fork per file.
mkdir t && mount -t tmpfs tmpfs t
for d in $(seq 50); do
	mkdir "t/d$d"
	for f in $(seq 100); do echo "$d $f" > "t/d$d/f$f"; done
done
