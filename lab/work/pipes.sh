# pipes - 300 pipes, each held open by a sleeping reader whose writer has
# exited (pipe_inode_info, pipe buffers, the pipe's inode and dentry).
for i in $(seq 300); do : | sleep 1000000 & done
