# netns - 50 network, mount, UTS and IPC namespaces, each held by a sleeping
# process (net_namespace, the loopback device, sysctl and proc tables).
for i in $(seq 50); do unshare -n -m -u -i sleep 1000000 & done
sleep 2
