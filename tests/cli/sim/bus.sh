# SIGBUS (what a mapped input file truncated by another process raises) is
# an input failure: one line on standard error, exit 3, and the temporaries
# of the files being written removed. The signal reaches a `sim collection`
# stopped while its temporaries exist, so the outcome does not depend on load.
set -u
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
tmps() { find out -name '*.tmp*' | wc -l; }
"$QK" sim collection --out out --topics 100 --docs-per-topic 1000 --runs 10 --depth 1000 --seed 1 2> err & pid=$!
caught=0
for i in $(seq 1 2000); do
    if [ -d out ] && [ "$(tmps)" -gt 0 ]; then
        kill -STOP $pid 2>/dev/null
        [ "$(tmps)" -gt 0 ] && caught=1 && break
        kill -CONT $pid 2>/dev/null
    fi
    sleep 0.01
done
[ $caught = 1 ] && echo "writing"
kill -BUS $pid; kill -CONT $pid 2>/dev/null
wait $pid; echo "status $?"
cat err
echo "temporaries left: $(tmps)"
