# procs - 200 processes left sleeping (task_struct, mm_struct, vm_area_struct,
# signal, files, pids ...), alive at the after-snapshot.
for i in $(seq 200); do sleep 1000000 & done
