/* The body of qk_run_fast_lines (run_fast.c), compiled once per byte
 * classifier: run_fast.c defines QK_FAST_FN (the function's name),
 * QK_FAST_ATTR (its target attribute, or nothing) and QK_FAST_CLASSIFY (a
 * function giving, for the 64 bytes at p, the masks of the bytes that are
 * not a control byte or a blank, of the separators ' ' and '\t', of the
 * digits, and of the first QK_FAST_QID_SIMD bytes equal to those of the
 * qid), QK_FAST_MANTISSA (the 16-digit number of two words of 8 ASCII
 * digits), QK_FAST_TZCNT (trailing zeros, 64 or more for 0) and
 * QK_FAST_SCORES (the name of the deferred score conversion below, or of
 * its own one when it defines QK_FAST_OWN_SCORES), QK_FAST_ODD (the
 * name of the parser of lines of the other shapes below) and QK_FAST_N
 * (the names of the helpers below, one set per classifier), then includes
 * this file. Internal to run_fast.c. */

/* The fields of a line from its data bytes (above ' ', not a blank), bit
 * i of d0 for byte i and bit i of d1 for byte 64 + i, no bit at or past
 * the line's end (so a field ends at it at the latest): 0 unless there are
 * exactly six fields; else field 0 is [*q0, *s1), field 2 [*s2, *s3) and
 * field 4 [*s4, *s5). For lines with runs of blanks between, before or
 * after the fields, and for lines of 64 bytes or more. */
QK_FAST_ATTR static inline int QK_FAST_N(fields)(uint64_t d0, uint64_t d1, unsigned *q0, unsigned *s1, unsigned *s2, unsigned *s3,
                                 unsigned *s4, unsigned *s5)
{
    const uint64_t c = d0 >> 63; /* byte 63 is data: byte 64 does not start a field */
    uint64_t b0 = d0 & ~(d0 << 1), b1 = d1 & ~(d1 << 1 | c);
    uint64_t e0 = ~d0 & d0 << 1, e1 = ~d1 & (d1 << 1 | c), t = b0, u = e0;
    unsigned b[6], e[6];
    /* Usually fields 0 to 4 lie in the first block: five bit scans on each
     * mask there, the sixth field's start the one bit left (in either
     * block). QK_FAST_TZCNT's 64 at 0 tells when they do not. */
    *q0 = QK_FAST_TZCNT(t);
    t &= t - 1;
    t &= t - 1;
    *s2 = QK_FAST_TZCNT(t);
    t &= t - 1;
    t &= t - 1;
    *s4 = QK_FAST_TZCNT(t);
    t &= t - 1;
    *s1 = QK_FAST_TZCNT(u);
    u &= u - 1;
    u &= u - 1;
    *s3 = QK_FAST_TZCNT(u);
    u &= u - 1;
    u &= u - 1;
    *s5 = QK_FAST_TZCNT(u);
    if (*s4 < 64 && *s5 < 64)
        return (t | b1) != 0 && ((t | b1) & ((t | b1) - 1)) == 0 && (t == 0 || b1 == 0);
    for (unsigned i = 0; i < 6; i++) {
        if (b0) {
            b[i] = (unsigned)__builtin_ctzll(b0);
            b0 &= b0 - 1;
        } else if (b1) {
            b[i] = 64 + (unsigned)__builtin_ctzll(b1);
            b1 &= b1 - 1;
        } else {
            return 0;
        }
        /* a field that starts ends: e0 | e1 has a bit left */
        if (e0) {
            e[i] = (unsigned)__builtin_ctzll(e0);
            e0 &= e0 - 1;
        } else {
            e[i] = 64 + (unsigned)__builtin_ctzll(e1);
            e1 &= e1 - 1;
        }
    }
    if (b0 | b1)
        return 0;
    *q0 = b[0];
    *s1 = e[0];
    *s2 = b[2];
    *s3 = e[2];
    *s4 = b[4];
    *s5 = e[4];
    return 1;
}

/* The score at p[s4, s5), "[+-]I[.F]" with its point (or end) at dot, a
 * integer digits (at most 8) and b fraction digits (at most 16), 19 in
 * all, the shape checked by the caller: read as up to three 8-digit words
 * into an exact m, I F or (8 fraction digits or fewer) I F * 10^(8 - b),
 * and converted as m / 10^b or m / 10^8 (exact operands: one division,
 * strtod's double) or by the Eisel-Lemire conversion, or by
 * qk_parse_score when that cannot tell. 0 and *v as qk_parse_score gives.
 * Scores of 16 digits or more always go to Eisel-Lemire (inline), whether
 * m is below 2^53 or not: in Python's repr (16-17 digits) the two come
 * about equally often, in no order, and a branch on m would be
 * mispredicted on every other line; with fewer digits m < 10^15 always. */
QK_FAST_ATTR static inline int QK_FAST_N(digits)(const char *p, unsigned s4, unsigned dot, unsigned s5, unsigned a,
                                                 unsigned b, double *v)
{
    uint64_t x, y, z, m;
    double r;
    /* 4 fields and 4 separators before the score: dot >= 8; past 8
     * fraction digits, s5 >= dot + 10 >= 18 */
    memcpy(&x, p + dot - 8, 8);
    x = (x & qk_fast_high[a]) | (0x3030303030303030ULL & ~qk_fast_high[a]);
    if (b > 8) { /* I * 10^b + the fraction's 16-digit number (its first 16 - b made '0') */
        memcpy(&y, p + s5 - 16, 8);
        memcpy(&z, p + s5 - 8, 8);
        y = (y & qk_fast_high[b - 8]) | (0x3030303030303030ULL & ~qk_fast_high[b - 8]);
        // cppcheck-suppress arrayIndexOutOfBoundsCond ; the caller's b is at most 16
        m = qk_fast_8digits(x) * qk_pow10_u64[b] + QK_FAST_MANTISSA(y, z);
    } else { /* I F * 10^(8 - b): the fraction padded with '0' to 8 digits */
        memcpy(&z, p + dot + 1, 8);
        z = (z & qk_fast_low[b]) | (0x3030303030303030ULL & ~qk_fast_low[b]);
        m = QK_FAST_MANTISSA(x, z);
        b = 8;
    }
    if (m == 0)
        r = 0.0;
    else if (a + b < 16 && m <= 1ULL << 53)
        r = (double)m / qk_fast_pow10d[b];
    else if ((r = qk_decimal_to_double_inline(m, -(int)b)) < 0)
        return qk_parse_score(p + s4, s5 - s4, v);
    *v = p[s4] == '-' ? -r : r;
    return 0;
}

/* Scores of entries [0, n) whose digits wait in w (qk_fast_wait; the
 * entries marked QK_FAST_NOWAIT already hold their value). The conversion
 * ends in a long chain of dependent steps (digit words to a 16-digit
 * number, to a double, one division): done here, many lines at a time,
 * the chains of successive lines overlap instead of each line's waiting at
 * the end of its own. */
#if !defined(QK_FAST_OWN_SCORES)
QK_FAST_ATTR static void QK_FAST_SCORES(double *scores, qk_fast_wait *w, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (w->a[j] == QK_FAST_VALUE) {
            memcpy(&scores[j], &w->x[j], sizeof scores[j]);
        } else if (w->a[j] != QK_FAST_NOWAIT) {
            uint64_t x, y;
            int neg = qk_fast_wait_words(w, j, &x, &y);
            double v = (double)QK_FAST_MANTISSA(x, y) / 1e8;
            scores[j] = neg ? -v : v;
        }
}
#endif

/* Whether bytes [QK_FAST_QID_SIMD, qlen) of p and qid differ (the
 * classifier compares those before); a loop, not a call, in QK_FAST_FN's. */
QK_FAST_ATTR static inline int QK_FAST_N(qid_rest)(const char *p, const char *qid, size_t qlen)
{
    unsigned char d = 0;
    for (size_t i = QK_FAST_QID_SIMD; i < qlen; i++)
        d |= (unsigned char)(p[i] ^ qid[i]);
    return d != 0;
}

/* The score of a line QK_FAST_FN takes, [st, s5) after its sign, when it
 * is not of the usual shape there: a whole number of up to 8 digits (waits
 * in w's entry j as the usual ones do) or 8 integer digits and up to 8
 * fraction digits (converted here, its bits kept in w->x[j], the entry
 * marked QK_FAST_VALUE), as QK_FAST_FN took them before; nonzero for any
 * other shape (QK_FAST_ODD's or the general reader's). */
QK_FAST_ATTR __attribute__((noinline)) static int
QK_FAST_N(score_other)(const char *p, uint64_t dig, unsigned st, unsigned s5, qk_fast_wait *w, size_t j)
{
    uint64_t nd = ~dig & (((1ULL << s5) - 1) ^ ((1ULL << st) - 1)), x, y, m;
    unsigned dot = nd ? (unsigned)__builtin_ctzll(nd) : s5, a = dot - st, b = nd ? s5 - dot - 1 : 0;
    double v;
    if ((nd & (nd - 1)) != 0 || (nd && p[dot] != '.') || a > 8 || b > 8 || a + b == 0)
        return -1;
    /* 4 fields and 4 separators before the score: dot >= 8 */
    memcpy(&x, p + dot - 8, 8);
    memcpy(&y, p + dot + 1, 8);
    if (a < 8) {
        w->x[j] = x;
        w->y[j] = y;
        w->a[j] = (unsigned char)a;
        w->b[j] = (unsigned char)b;
        return 0;
    }
    y = (y & qk_fast_low[b]) | (0x3030303030303030ULL & ~qk_fast_low[b]);
    m = QK_FAST_MANTISSA(x, y);
    if (m > 1ULL << 53)
        return -1;
    v = (double)m / 1e8;
    v = p[st - 1] == '-' ? -v : v;
    memcpy(&w->x[j], &v, sizeof v);
    w->a[j] = QK_FAST_VALUE;
    return 0;
}

QK_FAST_ATTR static size_t QK_FAST_FN(qk_run_fast *f, const char *p, const char *end, size_t *count)
{
    /* f's fields in locals: the docno stores (char) may alias anything, so
     * the compiler would reload them from f after each line. */
    const char *start = p, *const qid = f->qid;
    char *const base = f->arena;
    char *arena = base + f->arena_len;
    size_t *const doc_off = f->doc_off;
    double *const scores = f->scores;
    long *const lines = f->lines;
    uint32_t *const topics = f->topics;
    const uint32_t topic = f->topic;
    const size_t max = f->max, qlen = f->qlen;
    /* the qid's bytes the classifier compares, and whether there are more
     * (memcmp) */
    const QK_FAST_QIDV qv = QK_FAST_QIDV_LOAD(qid);
    const int qlong = qlen > QK_FAST_QID_SIMD;
    const uint64_t qmask = (1ULL << (qlong ? QK_FAST_QID_SIMD : qlen)) - 1;
    size_t k = 0;
    long line = f->line;
    int stop = QK_FAST_ROOM, more = 1;
    /* the digit words of the batch's scores (QK_FAST_SCORES) */
    qk_fast_wait w;
    memset(&w, 0, sizeof w);
    while (more && k < max && (size_t)(end - p) >= QK_RUN_FAST_TAIL) {
        /* A batch of up to 64 lines, as many as there is room for and as
         * the bytes left allow at 65 bytes a line (the longest line taken
         * here, with CR and newline): one test a line ends the loop. */
        size_t room = (size_t)(end - p) - QK_RUN_FAST_TAIL, nb = max - k < 64 ? max - k : 64, j;
        size_t *const off = doc_off + k;
        if (nb > room / 65 + 1)
            nb = room / 65 + 1;
        for (j = 0; j < nb; j++) {
            uint64_t good, sep, dig, same, t, nd;
            unsigned n, adv, s1, s2, s3, s4, s5, fs, sg, a, b, pt;
            size_t dl;
            QK_FAST_CLASSIFY(p, qv, &good, &sep, &dig, &same);
            good |= sep;
            /* The first byte that is neither data nor separator ends the
             * line: the newline, or CR and newline; anything else (NUL,
             * VT, FF, a CR inside, a line of 64 bytes or more) is for the
             * general reader. */
            if (!~good)
                break;
            n = (unsigned)__builtin_ctzll(~good);
            adv = n + 1;
            if (p[n] != '\n') {
                if (p[n] != '\r' || p[n + 1] != '\n')
                    break;
                adv = n + 2;
            }
            /* Exactly five single separators, none first or last: six
             * fields. Bit 63 (past any line here) must be all that is left
             * after the walk; QK_FAST_TZCNT is defined at 0 (fewer than
             * five). */
            sep &= (1ULL << n) - 1;
            if (p[0] == '#' || (sep & ((sep << 1) | 1 | ((1ULL << n) >> 1))))
                break;
            t = sep | 1ULL << 63;
            s1 = QK_FAST_TZCNT(t);
            t &= t - 1;
            s2 = QK_FAST_TZCNT(t);
            t &= t - 1;
            s3 = QK_FAST_TZCNT(t);
            t &= t - 1;
            s4 = QK_FAST_TZCNT(t);
            t &= t - 1;
            s5 = QK_FAST_TZCNT(t);
            t &= t - 1;
            if (t != 1ULL << 63)
                break;
            if (s1 != qlen || (~same & qmask) != 0 || (qlong && QK_FAST_N(qid_rest)(p, qid, qlen) != 0)) {
                stop = QK_FAST_QID;
                break;
            }
            /* The docno: one 32-byte move for the usual lengths, two for
             * the others (under 64 bytes), then its NUL. No call in the
             * loop: the classifier's constants stay in registers. Written
             * before the score is read (fewer values live at once), taken
             * after (arena). */
            dl = s3 - s2 - 1;
            memcpy(arena, p + s2 + 1, 32);
            if (dl >= 32)
                memcpy(arena + 32, p + s2 + 33, 32);
            arena[dl] = '\0';
            off[j] = (size_t)(arena - base);
            /* The score [fs, s5): usually "[+-]I.F" with a <= 7 integer
             * and b <= 8 fraction digits, a + b >= 1. Its non-digits nd
             * (bit 0 its first byte, the sign dropped) must be the point
             * alone; then the two 8-digit words around the point wait
             * unmasked with a and b (QK_FAST_SCORES: the mantissa I F *
             * 10^(8 - b) < 10^15 < 2^53 exactly, m / 10^8 one correctly
             * rounded division, strtod's double; the sign is the byte
             * before the integer digits). */
            fs = s4 + 1;
            nd = (~dig & ((1ULL << s5) - 1)) >> fs;
            sg = qk_fast_sign[(unsigned char)p[fs]];
            nd >>= sg;
            a = QK_FAST_TZCNT(nd);
            pt = fs + sg + a;
            b = s5 - pt - 1;
            if (((nd & (nd - 1)) | (a >> 3) | ((b + 7) >> 4) | ((a + b - 1) >> 4)) == 0 && p[pt] == '.') {
                memcpy(&w.x[j], p + pt - 8, 8); /* 4 fields, 4 separators before */
                memcpy(&w.y[j], p + pt + 1, 8);
                w.a[j] = (unsigned char)a;
                w.b[j] = (unsigned char)b;
            } else if (QK_FAST_N(score_other)(p, dig, fs + sg, s5, &w, j) != 0) {
                break;
            }
            arena += dl + 1;
            p += adv;
        }
        QK_FAST_SCORES(scores + k, &w, j);
        k += j;
        more = j == nb;
    }
    /* Every line taken is an entry: their numbers follow one another, and
     * the topic is one. Filled here, not in the loop above, which then
     * keeps fewer values in registers (it spilled them to the stack). */
    for (size_t j = 0; j < k; j++)
        lines[j] = line + 1 + (long)j;
    line += (long)k;
    if (topics)
        for (size_t j = 0; j < k; j++)
            topics[j] = topic;
    if (k > 0) { /* the last line's tag: back from its end to a separator */
        const char *e = p - 1, *t;
        if (e[-1] == '\r')
            e--;
        for (t = e; t[-1] != ' ' && t[-1] != '\t'; t--)
            ;
        f->tag = t;
        f->tlen = (size_t)(e - t);
    }
    if (k < max && end - p >= QK_RUN_FAST_TAIL && stop == QK_FAST_ROOM)
        stop = QK_FAST_SHAPE;
    f->stop = stop;
    f->arena_len = (size_t)(arena - base);
    f->line = line;
    *count = k;
    return (size_t)(p - start);
}

/* Lines of the shape of run_internal.h that QK_FAST_FN leaves: runs of
 * blanks between, before or after the fields, 64 to 127 bytes (the end in
 * the next block), or scores of other shapes (9 to 16 fraction digits as
 * Python's repr writes them, exponents), one at a time with the fields
 * from the edges of the data bytes' mask (QK_FAST_N(fields)) and the score
 * read by QK_FAST_N(digits) or qk_parse_score or (up to 7 integer and 8
 * fraction digits) left to QK_FAST_SCORES as in QK_FAST_FN. Stops before
 * a line QK_FAST_FN takes (*simple set) or neither does,
 * like QK_FAST_FN otherwise (f->stop, the bytes taken, *count). A loop of
 * its own, so that QK_FAST_FN's stays as it was for the usual lines. */
QK_FAST_ATTR static size_t QK_FAST_ODD(qk_run_fast *f, const char *p, const char *end, size_t *count, int *simple)
{
    /* f's fields in locals, as in QK_FAST_FN (the docno stores may alias) */
    const char *start = p, *const qid = f->qid, *tag = NULL;
    char *const base = f->arena;
    char *arena = base + f->arena_len;
    size_t *const doc_off = f->doc_off;
    double *const scores = f->scores;
    long *const lines = f->lines;
    uint32_t *const topics = f->topics;
    const uint32_t topic = f->topic;
    const size_t max = f->max, qlen = f->qlen;
    size_t k = 0, tlen = 0;
    long line = f->line;
    int stop = QK_FAST_ROOM;
    unsigned usual = 0; /* lines of QK_FAST_FN's shape in a row */
    const QK_FAST_QIDV qv = QK_FAST_QIDV_LOAD(qid);
    size_t kb = 0;
    /* the digit words of entries [kb, k) whose score waits, as in QK_FAST_FN */
    qk_fast_wait w;
    memset(&w, 0, sizeof w);
    *simple = 0;
    while (k < max && end - p >= QK_RUN_FAST_TAIL) {
        uint64_t good, sep, dig, same, d1 = 0;
        unsigned n, adv, q0, s1, s2, s3, s4, s5;
        size_t dl;
        double v;
        int single = 0;
        QK_FAST_CLASSIFY(p, qv, &good, &sep, &dig, &same);
        if (~(good | sep)) {
            n = (unsigned)__builtin_ctzll(~(good | sep));
            good &= (1ULL << n) - 1;
            sep &= (1ULL << n) - 1;
            single = !(sep & ((sep << 1) | 1 | ((1ULL << n) >> 1)));
        } else {
            uint64_t g2, b2, dig2, same2;
            QK_FAST_CLASSIFY(p + 64, qv, &g2, &b2, &dig2, &same2);
            if (!~(g2 | b2))
                break;
            n = 64 + (unsigned)__builtin_ctzll(~(g2 | b2));
            d1 = g2 & ((1ULL << (n - 64)) - 1);
        }
        adv = n + 1;
        if (p[n] != '\n') {
            if (p[n] != '\r' || p[n + 1] != '\n')
                break;
            adv = n + 2;
        }
        if (!QK_FAST_N(fields)(good, d1, &q0, &s1, &s2, &s3, &s4, &s5) || p[q0] == '#')
            break;
        if (s1 - q0 != qlen || (q0 == 0 && s1 <= QK_FAST_QID_SIMD ? (~same & ((1ULL << s1) - 1)) != 0
                                                                   : memcmp(p + q0, qid, qlen) != 0)) {
            stop = QK_FAST_QID;
            break;
        }
        if (s5 > 63) { /* past the digit mask */
            if (qk_parse_score(p + s4, s5 - s4, &v) != 0)
                break;
        } else {
            unsigned st = s4 + (p[s4] == '-' || p[s4] == '+'), dot, a, b;
            uint64_t nd = ~dig & (((1ULL << s5) - 1) ^ ((1ULL << st) - 1));
            dot = nd ? (unsigned)__builtin_ctzll(nd) : s5;
            a = dot - st;
            b = nd ? s5 - dot - 1 : 0;
            if ((nd & (nd - 1)) == 0 && (!nd || p[dot] == '.') && a <= 8 && b <= 16 && a + b > 0 && a + b <= 19) {
                if (a < 8 && b <= 8) {
                    /* a short score: its digit words wait, as in
                     * QK_FAST_FN (the conversion's chain of dependent
                     * steps then overlaps other lines'). With single
                     * separators, QK_FAST_FN's line, left to it after a
                     * few in a row (switching loops costs more than a few
                     * lines here, in runs that mix the shapes). */
                    uint64_t x, z;
                    if (!single) {
                        usual = 0;
                    } else if (++usual >= QK_FAST_USUAL_RUN) {
                        *simple = 1;
                        break;
                    }
                    memcpy(&x, p + dot - 8, 8);
                    memcpy(&z, p + dot + 1, 8);
                    w.x[k - kb] = x;
                    w.y[k - kb] = z;
                    w.a[k - kb] = (unsigned char)a;
                    w.b[k - kb] = (unsigned char)b;
                    goto stored;
                }
                usual = 0;
                if (QK_FAST_N(digits)(p, s4, dot, s5, a, b, &v) != 0)
                    break;
            } else if (qk_parse_score(p + s4, s5 - s4, &v) != 0) {
                break;
            }
        }
        scores[k] = v;
        w.a[k - kb] = QK_FAST_NOWAIT;
    stored:
        dl = s3 - s2;
        if (dl < 32)
            memcpy(arena, p + s2, 32);
        else
            memcpy(arena, p + s2, dl);
        arena[dl] = '\0';
        doc_off[k] = (size_t)(arena - base);
        lines[k] = ++line;
        if (topics)
            topics[k] = topic;
        k++;
        arena += dl + 1;
        tag = p + s5; /* the last line's score end: its tag follows */
        p += adv;
        if (k - kb == 64) {
            QK_FAST_SCORES(scores + kb, &w, 64);
            kb = k;
        }
    }
    QK_FAST_SCORES(scores + kb, &w, k - kb);
    if (tag) { /* the sixth field, from its start to the next blank or the line end */
        while (*tag == ' ' || *tag == '\t')
            tag++;
        for (tlen = 0; (unsigned char)tag[tlen] > ' '; tlen++)
            ;
        f->tag = tag;
        f->tlen = tlen;
    }
    if (k < max && end - p >= QK_RUN_FAST_TAIL && stop == QK_FAST_ROOM)
        stop = QK_FAST_SHAPE;
    f->stop = stop;
    f->arena_len = (size_t)(arena - base);
    f->line = line;
    *count = k;
    return (size_t)(p - start);
}
