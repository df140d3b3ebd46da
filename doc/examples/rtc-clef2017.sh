#!/usr/bin/env bash
# Regenerate every rtc-clef2017*.tsv of doc/examples (see rtc-clef2017.md).
# Run from the repository root with qrelkit on PATH (or QK=path/to/qrelkit);
# about a minute per file on one core (11 files). Seeded (20071), so the files are the
# same on every machine.
set -eu
qk=${QK:-qrelkit}
d=../shared/data/clef-tar-2017
out=doc/examples
sim() { # name options...
  local name=$1; shift
  "$qk" confidence --simulate "$d/qrel_abs_test.txt" --trials 50 "$@" "$d"/runs/*.run > "$out/$name.tsv"
}
sim rtc-clef2017
sim rtc-clef2017-min60 --min-judged 60
sim rtc-clef2017-min60-intercept --min-judged 60 --rtc-intercept
sim rtc-clef2017-min60-poolR --min-judged 60 --truth-r pool
sim rtc-clef2017-cap95 --cap 0.95
sim rtc-clef2017-min60-cap95 --min-judged 60 --cap 0.95
# spec 002 options added later (see rtc-clef2017.md, "Options of the spec")
sim rtc-clef2017-min60-folds5 --min-judged 60 --rtc-folds 5
sim rtc-clef2017-normw --mtc-weights norm
sim rtc-clef2017-min60-normw --min-judged 60 --mtc-weights norm
sim rtc-clef2017-platt --rtc-calibration platt
sim rtc-clef2017-min60-platt --min-judged 60 --rtc-calibration platt
