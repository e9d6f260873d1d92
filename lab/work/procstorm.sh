# procstorm - 2,000 short-lived processes one after another (fork, exec,
# exit: the caches churn and end near where they began), then 100 left
# sleeping.
for i in $(seq 2000); do /bin/true; done
for i in $(seq 100); do sleep 1000000 & done
