# The paired loop of bench/qrels-real.sh and bench/prels-real.sh, sourced by
# both. real_pair_setup BASE NEW sets base, new, data (../shared/data),
# work (a directory removed at exit) and writes work/one.run, a one-line
# run. real_pair_rounds FILE... runs ROUNDS rounds; in each, every file
# under the caller's `one BINARY FILE` for BASE, then NEW, one line each
# into work/raw: "ROUND FILE base|new VALUES...". The load averages before
# and after are printed.
real_pair_setup() {
    base=$1 new=$2
    data=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../shared/data" 2>/dev/null && pwd || echo /work/shared/data)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    printf '1 Q0 d1 1 1 x\n' >"$work/one.run"
}
real_pair_rounds() {
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    for r in $(seq "$rounds"); do
        for f in "$@"; do
            echo "$r $f base $(one "$base" "$f")" >>"$work/raw"
            echo "$r $f new $(one "$new" "$f")" >>"$work/raw"
        done
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
