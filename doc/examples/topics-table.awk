# Markdown table of `simulate topics` TSV: one row per method and group, tau
# (with its band) at the sizes in SIZES (comma-separated), e.g.
#   awk -v SIZES=1,3,5,10 -f topics-table.awk sim.tsv
# Rows appear in the order of the TSV, so methods added to the simulation
# (the chapter-6 ones) show up without editing this script.
BEGIN { FS = "\t"; n = split(SIZES, want, ","); for (i = 1; i <= n; i++) pick[want[i]] = i }
NR == 1 { next }
($2 in pick) {
    key = $1 " | " $3
    if (!(key in seen)) { seen[key] = 1; order[++rows] = key }
    cell[key, pick[$2]] = ($4 == "NA") ? "NA" : sprintf("%.3f [%.2f, %.2f]", $4, $5, $6)
}
END {
    printf "| method | systems |"
    for (i = 1; i <= n; i++) printf " %s topics |", want[i]
    printf "\n|---|---|"
    for (i = 1; i <= n; i++) printf "---|"
    printf "\n"
    for (r = 1; r <= rows; r++) {
        printf "| %s |", order[r]
        for (i = 1; i <= n; i++) printf " %s |", cell[order[r], i]
        printf "\n"
    }
}
