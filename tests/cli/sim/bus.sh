# SIGBUS (what a mapped input file truncated by another process raises) is
# an input failure: one line on standard error, exit 3, and the temporaries
# of the files being written removed. The signal reaches a `sim collection`
# stopped while its temporaries exist, so the outcome does not depend on load.
set -u
. ./stopped.sh
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
"$QK" sim collection --out out --topics 100 --docs-per-topic 1000 --runs 10 --depth 1000 --seed 1 2> err & pid=$!
freeze_writing $pid && echo "writing"
kill -BUS $pid; kill -CONT $pid 2>/dev/null
wait $pid; echo "status $?"
cat err
echo "temporaries left: $(tmps)"
