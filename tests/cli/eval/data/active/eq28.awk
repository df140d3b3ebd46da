# Li's Eqs. 2.5, 2.6 and 2.8 written out directly (no log scale), from the
# design file's rounds, the runs' AP prior (1 + sum_{m=r..L} 1/m) / (2L) and
# the truth's relevance. Prints var1 of the drawn documents, then pi_ab of
# every drawn pair. Usage: awk -f eq28.awk A.run B.run truth.qrels design
FILENAME ~ /\.run$/ { run[FILENAME, ++len[FILENAME]] = $3; if (!(FILENAME in seen)) { seen[FILENAME] = 1; runs[++nr] = FILENAME }; next }
FILENAME ~ /qrels$/ { y[$3] = $4 > 0; next }
$1 == "round" { T++; n[T] = $3; for (r = 1; r <= nr; r++) w[T, r] = $(3 + r); next }
($1 == "draw" || $1 == "drawn") { if (!($3 in drawn)) { drawn[$3] = 1; docs[++m] = $3 }; next }
END {
    for (r = 1; r <= nr; r++) {
        L = len[runs[r]]
        for (k = 1; k <= L; k++) {
            h = 0; for (q = k; q <= L; q++) h += 1 / q
            for (t = 1; t <= T; t++) p[t, run[runs[r], k]] += w[t, r] * (1 + h) / (2 * L)
        }
    }
    for (a = 1; a <= m; a++) {
        miss = 1; for (t = 1; t <= T; t++) miss *= (1 - p[t, docs[a]]) ^ n[t]
        pi[a] = 1 - miss
        v += (1 / pi[a] ^ 2 - 1 / pi[a]) * y[docs[a]]
    }
    for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) {
        both = 1; for (t = 1; t <= T; t++) both *= (1 - p[t, docs[a]] - p[t, docs[b]]) ^ n[t]
        pij[a, b] = pi[a] + pi[b] - (1 - both)
        v += 2 * (1 / (pi[a] * pi[b]) - 1 / pij[a, b]) * y[docs[a]] * y[docs[b]]
    }
    printf "var1 %.12f\n", v
    for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) {
        x = docs[a] < docs[b] ? docs[a] " " docs[b] : docs[b] " " docs[a]
        printf "pair %s %.12f\n", x, pij[a, b]
    }
}
