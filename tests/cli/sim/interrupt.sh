# SIGTERM during `sim collection` removes its temporary files; those of a
# process killed with SIGKILL are removed by the next run into the directory.
set -u
set -m # job control: background commands do not start with SIGINT ignored
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
go() { exec "$QK" sim collection --out out --topics 100 --docs-per-topic 1000 --runs 10 --depth 1000 --seed 1; }
tmps() { find out -name '*.tmp*' | wc -l; }
for sig in TERM KILL; do
    rm -rf out
    go & pid=$!
    for i in $(seq 1 400); do [ -d out ] && [ "$(tmps)" -gt 0 ] && break; sleep 0.01; done
    [ "$(tmps)" -gt 0 ] && echo "$sig: writing"
    kill -$sig $pid; wait $pid; echo "$sig: status $?"
    [ "$(tmps)" -gt 0 ] && echo "$sig: temporary files left" || echo "$sig: none left"
done
touch out/notes.tmp1-2
(go); echo "again: status $?"
find out -name '*.tmp*'
