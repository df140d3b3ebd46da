# SIGTERM during `sim collection` removes its temporary files; those of a
# process killed with SIGKILL are removed by the next run into the directory.
# The signal reaches a process stopped while its temporaries exist, so the
# outcome does not depend on the machine's load.
set -u
set -m # job control: background commands do not start with SIGINT ignored
. ./stopped.sh
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
go() { exec "$QK" sim collection --out out --topics 100 --docs-per-topic 1000 --runs 10 --depth 1000 --seed 1; }
for sig in TERM KILL; do
    rm -rf out
    go & pid=$!
    freeze_writing $pid && echo "$sig: writing"
    kill -$sig $pid; kill -CONT $pid 2>/dev/null
    # the shell reports the stop (128 + SIGSTOP) until it has heard of the end
    for i in $(seq 1 600); do wait $pid; st=$?; [ $st != 147 ] && break; sleep 0.05; done
    echo "$sig: status $st"
    [ "$(tmps)" -gt 0 ] && echo "$sig: temporary files left" || echo "$sig: none left"
done
touch out/notes.tmp1-2
(go); echo "again: status $?"
find out -name '*.tmp*'
