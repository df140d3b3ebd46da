# shellcheck shell=bash disable=SC2034  # DEMO_STEPS, BUDGET_10: read by scripts/demo.sh and step_trust
# The steps of `make demo`, in order (DEMO_STEPS below). Each step is one
# function step_NAME that narrates a few lines and writes, through `record`
# (lib.sh), its data files under data/ and the commands that made them to
# data/NAME.cmds. scripts/demo/report.py turns each step's data into one
# section of index.html (its SECTIONS table).
#
# Adding a step (as `topics`, `tar` and `plan` were) is
# one function here, its name in DEMO_STEPS, and one section function in
# report.py: nothing else changes, and the test that re-runs the report's
# commands picks the new data/NAME.cmds up by itself.
#
# Runs from the report directory; the collection is in collection/.

DEMO_STEPS=(collection evaluate budget trust crowd topics tar plan)

RUNS='collection/runs/*.run'
SEED=7

step_collection() {
    say "== 0. A synthetic collection whose truth is known"
    record collection "qrelkit simulate collection --out collection --topics 25 --docs-per-topic 500 --depth 100 --runs 12 --seed $SEED --quiet"
    record collection "sed -n 's/.*\"name\": \"\\([^\"]*\\)\".*\"quality\": \\([0-9.]*\\).*/\\1\\t\\2/p' collection/manifest.json | sed '1i run\\tscore' > data/quality.tsv"
    say "   25 topics x 500 documents, every one judged (grades 0-2); 12 runs whose hidden"
    say "   quality is known (collection/manifest.json)."
}

step_evaluate() {
    say "== 1. Evaluate all runs with complete judgments"
    record evaluate "qrelkit eval -m map -m P.10 -m ndcg_cut.10 --format tsv collection/qrels.txt $RUNS > data/eval.tsv"
    record evaluate "awk -F'\\t' 'NR == 1 { print \"run\\tscore\"; next } \$2 == \"map\" && \$3 == \"all\" { print \$1 \"\\t\" \$4 }' data/eval.tsv > data/map.tsv"
    record evaluate "qrelkit compare --truth data/quality.tsv data/map.tsv > data/evaluate-tau.tsv"
    say "   best by MAP: $(sort -t"$(printf '\t')" -k2,2gr data/map.tsv | awk -F'\t' '$1 != "run" && n++ < 4 { printf "%s%s %.3f", (n > 1 ? ", " : ""), $1, $2 }')"
    say "   Kendall's tau of MAP against the hidden quality: $(awk -F'\t' '$1 == "tau_b" { print $2 }' data/evaluate-tau.tsv) (1 = the same order)"
}

# Mean depth-100 pool size per topic: the budgets are shares of it.
pool_size() {
    # shellcheck disable=SC2086
    awk '$4 <= 100 { k = $1 " " $3; if (!(k in seen)) { seen[k]; n[$1]++ } }
         END { for (t in n) { s += n[t]; c++ } printf "%d", s / c + 0.5 }' $RUNS
}

step_budget() {
    local pool b5 b10 b20
    pool=$(pool_size)
    b5=$(( (pool * 5 + 50) / 100 )) b10=$(( (pool * 10 + 50) / 100 )) b20=$(( (pool * 20 + 50) / 100 ))
    BUDGET_10=$b10
    say "== 2. Judge only a budget: 5, 10, 20 % of the $pool-document pool per topic"
    say "   depth-k pooling vs statAP sampling vs active sampling, 20 trials each:"
    record budget "qrelkit simulate pool --qrels collection/qrels.txt --runs $RUNS --methods depth,statap,active --budgets $b5,$b10,$b20 --trials 20 --seed $SEED --threads 2 --quiet > data/budget.tsv"
    awk -F'\t' -v b="$b5,$b10,$b20" '
        BEGIN { split(b, bs, ","); for (i = 1; i <= 3; i++) col[bs[i]] = i
                printf "   %-8s %28s %28s\n", "", "tau of the ranking", "RMSE of MAP" }
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { m = $h["method"]; if (!(m in seen)) { seen[m]; order[++n] = m }
          tau[m, col[$h["budget"]]] = $h["tau"]; rmse[m, col[$h["budget"]]] = $h["rmse_map"] }
        END { printf "   %-8s %9s %9s %9s  %9s %9s %9s\n", "budget", "5%", "10%", "20%", "5%", "10%", "20%"
              for (k = 1; k <= n; k++) { m = order[k]
                  printf "   %-8s %9.3f %9.3f %9.3f  %9.4f %9.4f %9.4f\n", m, tau[m, 1], tau[m, 2], tau[m, 3],
                         rmse[m, 1], rmse[m, 2], rmse[m, 3] } }' data/budget.tsv
    awk -F'\t' -v b="$b10" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["budget"] == b { s = s sprintf("%s%s %+.3f", (s == "" ? "" : ", "), $h["method"], $h["bias_map"]) }
        END { print "   bias of MAP at 10 %: " s }' data/budget.tsv
    say "   The samplers' estimates are unbiased; depth pooling counts unjudged documents"
    say "   as non-relevant, and its error does not have to shrink as the budget grows."
}

step_trust() {
    local b=${BUDGET_10:?step budget sets the 10 % budget}
    say "== 3. How far to trust it: one real 10 % judging round"
    # The truth this experiment is scored against: every pool document judged.
    record trust "qrelkit pool --method depth --runs $RUNS --budget 100000 --batch 100000 > data/pool-all.tsv"
    record trust "$(judge_cmd data/pool-all.tsv collection/qrels.txt data/pool-qrels.txt)"
    record trust "qrelkit eval -m map --format tsv data/pool-qrels.txt $RUNS > data/true-map.tsv"
    # statAP: sample, judge, write the sample's inclusion probabilities, estimate.
    record trust "qrelkit pool --method statap --runs $RUNS --budget $b --batch $b --seed $SEED --design data/statap.design > data/statap-batch.tsv"
    record trust "$(judge_cmd data/statap-batch.tsv collection/qrels.txt data/statap-judged.txt)"
    record trust "qrelkit pool --method statap --runs $RUNS --budget $b --batch $b --seed $SEED --design data/statap.design --judged data/statap-judged.txt --write-prels data/statap.prels > /dev/null"
    record trust "qrelkit eval -R prels --var --precision 6 --format tsv data/statap.prels $RUNS > data/statap-eval.tsv"
    # MTC / RTC: which run is better, from the top of the pool.
    record trust "qrelkit pool --method depth --runs $RUNS --budget $b --batch $b > data/depth-batch.tsv"
    record trust "$(judge_cmd data/depth-batch.tsv collection/qrels.txt data/depth-judged.txt)"
    record trust "qrelkit confidence --model mtc --pairs data/depth-judged.txt $RUNS > data/conf-mtc.tsv"
    record trust "qrelkit confidence --model rtc --pairs data/depth-judged.txt $RUNS > data/conf-rtc.tsv"
    # Significance over topics, with complete judgments.
    record trust "qrelkit eval --matrix map collection/qrels.txt $RUNS > data/map-matrix.tsv"
    record trust "qrelkit compare --pairs data/map-matrix.tsv --test t --correct holm > data/significance.tsv"
    python3 "$DEMO_DIR/report.py" --trust-summary . | sed 's/^/   /'
}

# Crowd labels for the documents of the depth-20 pool: `simulate crowd` makes
# workers and labels for tasks of known truth, which are then given the
# names of pool documents with the same truth (relevant tasks to relevant
# documents, in order), so the aggregated labels become qrels of this
# collection.
step_crowd() {
    local ntask nrel p
    say "== 4. Noisy crowd labels (5 per document, 20 % spammers): MV vs Dawid-Skene"
    record crowd "qrelkit pool --method depth --runs $RUNS --budget 20 --batch 20 > data/crowd-batch.tsv"
    record crowd "$(judge_cmd data/crowd-batch.tsv collection/qrels.txt data/crowd-truth.txt)"
    record crowd "awk '{ print \$1 \"\\t\" \$3 \"\\t\" (\$4 > 0) }' data/crowd-truth.txt | sed '1i topic\\tdocno\\tlabel' > data/crowd-gold.tsv"
    ntask=$(awk 'NR > 1' data/crowd-gold.tsv | wc -l)
    nrel=$(awk 'NR > 1 && $3 == 1' data/crowd-gold.tsv | wc -l)
    # Twice the tasks, so both classes have enough to name every document.
    p=$(awk -v r="$nrel" -v n="$ntask" 'BEGIN { printf "%.3f", r / n }')
    record crowd "qrelkit simulate crowd --out data/crowd-sim --tasks $((2 * ntask)) --workers 60 --labels-per-task 5 --accuracy 0.7 --spammers 0.2 --p-relevant $p --seed $SEED"
    record crowd "awk -F'\\t' 'FILENAME ~ /crowd-gold/ { if (FNR > 1) doc[\$3, ++n[\$3]] = \$1 \"\\t\" \$2; next }
        FILENAME ~ /gold.tsv\$/ { if (FNR > 1 && (\$2, ++m[\$2]) in doc) name[\$1] = doc[\$2, m[\$2]]; next }
        FNR > 1 && (\$1 in name) { print name[\$1] \"\\t\" \$2 \"\\t\" \$3 }' data/crowd-gold.tsv data/crowd-sim/gold.tsv data/crowd-sim/labels.tsv > data/crowd-labels.tsv"
    local runargs="\$(printf ' --run %s' $RUNS)"
    record crowd "qrelkit aggregate -m mv data/crowd-labels.tsv --gold data/crowd-gold.tsv $runargs > data/crowd-mv.tsv"
    record crowd "qrelkit aggregate -m ds data/crowd-labels.tsv --gold data/crowd-gold.tsv $runargs > data/crowd-ds.tsv"
    record crowd "qrelkit simulate crowd --curve 1,3,5,7,9 --methods mv,ds --workers 60 --accuracy 0.7 --spammers 0.2 --p-relevant $p --reps 10 --seed $SEED > data/crowd-curve.tsv"
    python3 "$DEMO_DIR/report.py" --crowd-summary . | sed 's/^/   /'
}

# Which topics to judge (Hosseini's topic selection): half the runs choose
# the topics from their own per-topic AP, the other half, never seen by the
# choice, are ranked by their mean over the chosen topics and compared with
# their ranking over all 25 topics.
step_topics() {
    say "== 5. Which topics to judge: tau of the ranking of held-out runs, 1-12 of 25 topics"
    record topics "qrelkit eval --matrix map collection/qrels.txt $RUNS > data/ap-matrix.tsv"
    record topics "qrelkit simulate topics --matrix data/ap-matrix.tsv --methods random,greedy-pearson,greedy-kendall,convex --max-size 12 --holdout fraction --holdout-frac 0.5 --group-sep none --trials 20 --draws 100 --seed $SEED > data/topics.tsv"
    record topics "qrelkit simulate topics-adaptive --qrels collection/qrels.txt --runs $RUNS --methods adaptive --sizes 1,2,3,4,5,6,7,8,9,10,11,12 --trials 10 --held-out --seed $SEED > data/topics-adaptive.tsv"
    python3 "$DEMO_DIR/report.py" --topics-summary . | sed 's/^/   /'
}

# A screening review that stops at a recall target (technology-assisted
# review). It ranks by the documents' words, so the demo first writes texts
# for 8 topics of the collection (scripts/demo/corpus.awk: relevant documents
# use their topic's words more) with 1000 unjudged, non-relevant documents
# more per topic, as a Boolean search brings in. Knee and Target aim at every
# relevant document whatever the target, so they run once; --knee-beta 150
# lets the knee rule stop before 1000 documents, most of this small collection.
step_tar() {
    say "== 6. Stop a screening review at a target recall (8 topics x 1500 documents)"
    record tar "mkdir -p collection/texts"
    record tar "awk -v seed=$SEED -v ntopics=8 -v extra=1000 -v dir=collection/texts -v topics=collection/tar-topics.tsv -f '$DEMO_DIR/corpus.awk' collection/qrels.txt"
    record tar "qrelkit simulate tar --corpus collection/texts --topics collection/tar-topics.tsv --qrels collection/qrels.txt --stop autostop --target 0.8,0.9,1 --seed $SEED --threads 2 --quiet > data/tar-autostop.tsv"
    record tar "qrelkit simulate tar --corpus collection/texts --topics collection/tar-topics.tsv --qrels collection/qrels.txt --stop knee,target --target 1 --knee-beta 150 --seed $SEED --threads 2 --quiet > data/tar-knee-target.tsv"
    # The ranking alone, screened to the end: its recall at every 2 % of the collection.
    record tar "for t in \$(cut -f1 collection/tar-topics.tsv); do qrelkit tar run --corpus collection/texts/\$t --topic collection/tar-topics.tsv --topic-id \$t --qrels collection/qrels.txt --stop none --seed $SEED; done > data/tar-autotar.run"
    record tar "awk 'NR == FNR { if (\$4 > 0) { rel[\$1, \$3]; R[\$1]++ } next }
        { i = ++n[\$1]; hit[\$1, i] = ((\$1, \$3) in rel) }
        END { for (t in n) { f = 0; k = 1; nt++
                  for (i = 1; i <= n[t]; i++) { f += hit[t, i]; while (k <= 50 && i >= n[t] * k / 50) rec[k++] += f / R[t] } }
              print \"cost\\trecall\"; for (k = 1; k <= 50; k++) printf \"%.2f\\t%.4f\\n\", k / 50, rec[k] / nt }' collection/qrels.txt data/tar-autotar.run > data/tar-gain.tsv"
    python3 "$DEMO_DIR/report.py" --tar-summary . | sed 's/^/   /'
}

# Topics and documents planned together (Hosseini's QDP, `qrelkit budget
# plan`): a first stage spread evenly (nothing to steer by yet), the
# assessor's answers, then a second stage that QDP puts where the topics'
# covariance across runs and the uncertainty of their scores say; then
# `simulate budget` compares QDP with uniform (UN) and subset (SA)
# allocation, holding out one of 4 groups of runs per trial.
step_plan() {
    say "== 7. Plan topics and documents together: 250 + 250 judgments (budget plan, QDP)"
    record plan "qrelkit budget plan --runs $RUNS --budget 250 --seed $SEED > data/plan-stage1.tsv"
    record plan "$(judge_cmd data/plan-stage1.tsv collection/qrels.txt data/plan-judged.txt)"
    record plan "qrelkit budget plan --runs $RUNS --judged data/plan-judged.txt --budget 250 --seed $SEED > data/plan-stage2.tsv"
    record plan "ls collection/runs | sed 's/\\.run\$//' | awk '{ print \$1, \"g\" (NR - 1) % 4 }' > data/plan-groups.txt"
    record plan "qrelkit simulate budget --qrels collection/qrels.txt --budgets 250,500,1000 --methods qdp,un,sa --trials 12 --groups data/plan-groups.txt --seed $SEED $RUNS > data/plan-sim.tsv"
    python3 "$DEMO_DIR/report.py" --plan-summary . | sed 's/^/   /'
}
