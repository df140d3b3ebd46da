#!/usr/bin/env bash
# The library works on objects in memory: no function outside src/io and the
# two stores that own their files (the search index, the campaign database:
# src/campaign/db.c only) opens, creates or names a file, and the simulations
# that once wrote temporary qrels and strata files, and campaign plan and
# status (which once wrote the sampling design and statAP prels next to the
# database), now run with no usable temporary directory.
# Usage (ctest sets QK_SOURCE): no_temp_files.sh path/to/qrelkit
set -u
src=${QK_SOURCE:?}
qk=${1:?}
rc=0
# 1. Static: file-opening calls in library code outside io and the stores.
hits=$(grep -nE '\b(fopen|freopen|fdopen|open|openat|creat|mkstemp|mkdtemp|tmpfile|tmpnam|opendir|unlink|remove|rename|gzopen)\s*\(' \
         -r "$src/src" --include='*.c' |
       grep -vE "^$src/src/(io|cli)/|^$src/src/search/index_(build|read|write|text|runs|fwd)\.c:|^$src/src/campaign/db\.c:" |
       grep -vE ':\s*(/\*|\*)')
if [ -n "$hits" ]; then
  echo "FAIL: library code outside src/io and the stores touches files:"
  echo "$hits"
  rc=1
fi
# 2. At run time: the commands whose library calls wrote temporary files
# before, with TMPDIR pointing below a regular file (nothing can be created
# there, even as root) and from a fresh, empty working directory.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/tests/cli/pool/A.run "$src"/tests/cli/pool/B.run "$src"/tests/cli/pool/full.qrels "$work/"
cp "$src"/tests/cli/campaign/topics.tsv "$src"/tests/cli/campaign/corpus.jsonl "$work/"
cp "$src"/tests/cli/campaign/A.run "$work/cA.run"; cp "$src"/tests/cli/campaign/B.run "$work/cB.run"
touch "$work/not-a-dir"
export TMPDIR="$work/not-a-dir/tmp"
cd "$work" || exit 1
before=$(ls -A | sort)
if ! "$qk" simulate pool --qrels full.qrels --runs A.run B.run --methods rtc,strat,statap,active \
     --budgets 2,4 --trials 2 --seed 7 > sim.out 2> sim.err; then
  echo "FAIL: simulate pool with an unusable TMPDIR:"; cat sim.err; rc=1
fi
if ! "$qk" confidence --model rtc full.qrels A.run B.run > conf.out 2> conf.err; then
  echo "FAIL: confidence --model rtc with an unusable TMPDIR:"; cat conf.err; rc=1
fi
# A campaign with a sampling method (the design and prels code paths) and
# with the CAL loop (tf-idf features of the stored texts, built in memory):
# only the database (and its SQLite side files) may appear.
for m in statap active tar; do
  init=(--runs A.run B.run)
  [ $m = tar ] && init=(--runs cA.run cB.run --corpus corpus.jsonl)
  if ! { "$qk" campaign init c-$m.db "${init[@]}" --topics topics.tsv --budget 4 &&
         "$qk" campaign person c-$m.db alice &&
         "$qk" campaign plan c-$m.db --method $m --batch 2 &&
         "$qk" campaign plan c-$m.db --method $m --batch 2 &&
         "$qk" campaign status c-$m.db; } > camp-$m.out 2> camp-$m.err; then
    echo "FAIL: campaign $m with an unusable TMPDIR:"; cat camp-$m.err; rc=1
  fi
done
after=$(ls -A | grep -vE '^((sim|conf|camp-[a-z]+)\.(out|err)|c-[a-z]+\.db(-wal|-shm|-journal)?)$' | sort)
if [ "$before" != "$after" ]; then
  echo "FAIL: files appeared in the working directory:"; diff <(echo "$before") <(echo "$after"); rc=1
fi
[ $rc -eq 0 ] && echo "ok: no file access outside io and the stores; simulations and campaign plan/status (statap, active, tar) run without a temporary directory"
exit $rc
