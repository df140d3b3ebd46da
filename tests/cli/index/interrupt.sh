# SIGTERM during `index` removes its temporary files; files left by a
# process that no longer exists are removed by the next run in that place.
set -u
set -m # job control: background commands do not start with SIGINT ignored
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
awk 'BEGIN { srand(1); for (i = 0; i < 40000; i++) { printf "<DOC><DOCNO>d%d</DOCNO>", i;
     for (j = 0; j < 30; j++) printf " w%d", int(rand() * 100000); print "</DOC>" } }' > c.trec
for sig in TERM INT; do
    "$QK" index --quiet --memory 1 -o out.idx c.trec & pid=$!
    for i in $(seq 1 400); do ls -A | grep -q '^\.qkrun-' && break; sleep 0.02; done
    ls -A | grep -q '^\.qkrun-' && echo "$sig: spilling"
    kill -$sig $pid; wait $pid; echo "$sig: status $?"
    ls -A
done
"$QK" index --quiet --memory 1 -o out.idx c.trec & pid=$!
for i in $(seq 1 400); do ls -A | grep -q '^\.qkrun-' && break; sleep 0.02; done
kill -KILL $pid; wait $pid; echo "KILL: status $?"
ls -A | grep -q '^\.qkrun-' && echo "KILL: left a spilled run"
sh -c 'exit 0' & dead=$!; wait $dead
touch .qkrun-$dead-abc123 out.idx.tmp-$dead-XyZ789 out.idx.tmp$dead .qkrun-$$-abc123 notes.tmp$dead
"$QK" index --quiet -o out.idx c.trec; echo "index: status $?"
ls -A | sed "s/$dead/DEAD/; s/$$/LIVE/"
"$QK" index --quiet -o out.idx c.trec; echo "index: status $?"
ls -A | sed "s/$$/LIVE/" | grep -v '^notes'

