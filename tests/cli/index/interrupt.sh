# SIGTERM during `index` removes its temporary files; files left by a
# process that no longer exists are removed by the next run in that place.
#
# Deterministic under load: the corpus comes through a FIFO that the test
# keeps open, so the index spills what it was given and then waits for more
# input. The signal arrives while it sits in that read, never in the middle
# of a spill, and the number of spilled runs does not depend on how fast the
# test shell polls (it used to kill a running index, which under load could
# be caught between creating a run and registering it).
set -u
set -m # job control: background commands do not start with SIGINT ignored
d=$(mktemp -d); p=$(mktemp -d); trap 'exec 3>&-; rm -rf "$d" "$p"' EXIT
cd "$d" || exit 1
awk 'BEGIN { srand(1); for (i = 0; i < 40000; i++) { printf "<DOC><DOCNO>d%d</DOCNO>", i;
     for (j = 0; j < 30; j++) printf " w%d", int(rand() * 100000); print "</DOC>" } }' > c.trec
# The index blocked reading the FIFO (after a spill): sleeping in a pipe read
# with a spilled run on disk. No deadline of its own (ctest's timeout is one).
blocked() {
    [ -n "$(ls -A | grep '^\.qkrun-')" ] &&
        [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = S ] &&
        grep -q 'pipe' "/proc/$1/wchan" 2>/dev/null
}
# Start an index reading the FIFO and feed it the first 8,000 documents
# (about 1.9 MB at a 1 MB budget: well over a hundred spills, which the
# build merges as it goes, so the runs on disk stay few).
start() {
    rm -f "$p/in"; mkfifo "$p/in"
    "$QK" index --quiet --memory 1 -o out.idx - < "$p/in" & pid=$!
    exec 3> "$p/in"
    head -n 8000 c.trec >&3
    until blocked $pid; do sleep 0.05; done
}
for sig in TERM INT; do
    start
    ls -A | grep -q '^\.qkrun-' && echo "$sig: spilling"
    kill -$sig $pid; wait $pid; echo "$sig: status $?"
    exec 3>&-
    ls -A
done
start
kill -KILL $pid; wait $pid; echo "KILL: status $?"
exec 3>&-
ls -A | grep -q '^\.qkrun-' && echo "KILL: left a spilled run"
sh -c 'exit 0' & dead=$!; wait $dead
touch .qkrun-$dead-abc123 out.idx.tmp-$dead-XyZ789 out.idx.tmp$dead .qkrun-$$-abc123 notes.tmp$dead
"$QK" index --quiet -o out.idx c.trec; echo "index: status $?"
# anchored, so one process id that is part of the other cannot garble a name
ls -A | sed "s/^notes\.tmp$dead\$/notes.tmpDEAD/; s/^\.qkrun-$$-/.qkrun-LIVE-/"
"$QK" index --quiet -o out.idx c.trec; echo "index: status $?"
ls -A | sed "s/^\.qkrun-$$-/.qkrun-LIVE-/" | grep -v '^notes'
