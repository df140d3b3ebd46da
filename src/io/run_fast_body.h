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

/* Scores of entries [kb, kb + n) whose digits wait in wx/wy (bit j of
 * defer set; the others already hold their value; bit j of neg: negative).
 * The conversion ends in a long chain of dependent steps (digit words to
 * a 16-digit number, to a double, one division): done here, many lines at
 * a time, the chains of successive lines overlap instead of each line's
 * waiting at the end of its own. */
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
        m = qk_fast_8digits(x) * qk_fast_pow10[b] + QK_FAST_MANTISSA(y, z);
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

#if !defined(QK_FAST_OWN_SCORES)
QK_FAST_ATTR static void QK_FAST_SCORES(double *scores, const uint64_t *wx, const uint64_t *wy, uint64_t defer,
                                        uint64_t neg, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (defer >> j & 1) {
            double v = (double)QK_FAST_MANTISSA(wx[j], wy[j]) / 1e8;
            scores[j] = neg >> j & 1 ? -v : v;
        }
}
#endif

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
    size_t k = 0, kb = 0;
    long line = f->line;
    int stop = QK_FAST_ROOM;
    /* the digit words of entries [kb, k) whose score waits (QK_FAST_SCORES) */
    uint64_t wx[64] = {0}, wy[64] = {0}, defer = 0, neg = 0; /* read 4 at a time */
    while (k < max && end - p >= QK_RUN_FAST_TAIL) {
        uint64_t good, sep, dig, same, t;
        unsigned n, adv, s1, s2, s3, s4, s5;
        size_t dl;
        double v;
        QK_FAST_CLASSIFY(p, qid, &good, &sep, &dig, &same);
        good |= sep;
        /* The first byte that is neither data nor separator ends the line:
         * the newline, or CR and newline; anything else (NUL, VT, FF, a CR
         * inside, a line of 64 bytes or more) is for the general reader. */
        if (!~good)
            break;
        n = (unsigned)__builtin_ctzll(~good);
        adv = n + 1;
        if (p[n] != '\n') {
            if (p[n] != '\r' || p[n + 1] != '\n')
                break;
            adv = n + 2;
        }
        /* Exactly five single separators, none first or last: six fields.
         * Bit 63 (past any line here) must be all that is left after the
         * walk; QK_FAST_TZCNT is defined at 0 (fewer than five). */
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
        if (s1 != qlen || (s1 <= QK_FAST_QID_SIMD ? (~same & ((1ULL << s1) - 1)) != 0 : memcmp(p, qid, s1) != 0)) {
            stop = QK_FAST_QID;
            break;
        }
        /* The score [s4 + 1, s5): "[+-]I[.F]", at most 8 digits each side,
         * checked on the digit mask and read as two 8-digit words, the
         * integer part ending at the point and the fraction starting after
         * it (padded with '0' to 8 digits, so the mantissa m carries 10^8
         * and m / 10^8 is the value: exact operands below 2^53, one
         * correctly rounded division, strtod's double). Other shapes are
         * QK_FAST_ODD's. */
        {
            unsigned st = s4 + 1 + (p[s4 + 1] == '-' || p[s4 + 1] == '+'), dot, a, b;
            uint64_t nd = ~dig & (((1ULL << s5) - 1) ^ ((1ULL << st) - 1)), x, y, m;
            dot = nd ? (unsigned)__builtin_ctzll(nd) : s5;
            a = dot - st;
            b = nd ? s5 - dot - 1 : 0;
            if ((nd & (nd - 1)) == 0 && (!nd || p[dot] == '.') && a <= 8 && b <= 8 && a + b > 0) {
                /* 4 fields and 4 separators before the score: dot >= 8 */
                memcpy(&x, p + dot - 8, 8);
                memcpy(&y, p + dot + 1, 8);
                x = (x & qk_fast_high[a]) | (0x3030303030303030ULL & ~qk_fast_high[a]);
                y = (y & qk_fast_low[b]) | (0x3030303030303030ULL & ~qk_fast_low[b]);
                if (a < 8) { /* below 10^15 < 2^53: exact, converted later */
                    wx[k - kb] = x;
                    wy[k - kb] = y;
                    defer |= 1ULL << (k - kb);
                    neg |= (uint64_t)(p[s4 + 1] == '-') << (k - kb);
                    goto stored;
                }
                m = QK_FAST_MANTISSA(x, y);
                if (m > 1ULL << 53)
                    goto general;
                v = (double)m / 1e8;
                if (p[s4 + 1] == '-')
                    v = -v;
            } else {
            general: /* other shapes: QK_FAST_ODD's */
                break;
            }
        }
        scores[k] = v;
    stored:
        /* The docno: one 32-byte move for the usual lengths, then its NUL. */
        dl = s3 - s2 - 1;
        if (dl < 32)
            memcpy(arena, p + s2 + 1, 32);
        else
            memcpy(arena, p + s2 + 1, dl);
        arena[dl] = '\0';
        doc_off[k] = (size_t)(arena - base);
        k++;
        arena += dl + 1;
        p += adv;
        if (k - kb == 64) {
            QK_FAST_SCORES(scores + kb, wx, wy, defer, neg, 64);
            kb = k;
            defer = neg = 0;
        }
    }
    QK_FAST_SCORES(scores + kb, wx, wy, defer, neg, k - kb);
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
    size_t kb = 0;
    /* the digit words of entries [kb, k) whose score waits, as in QK_FAST_FN */
    uint64_t wx[64] = {0}, wy[64] = {0}, defer = 0, neg = 0;
    *simple = 0;
    while (k < max && end - p >= QK_RUN_FAST_TAIL) {
        uint64_t good, sep, dig, same, d1 = 0;
        unsigned n, adv, q0, s1, s2, s3, s4, s5;
        size_t dl;
        double v;
        int single = 0;
        QK_FAST_CLASSIFY(p, qid, &good, &sep, &dig, &same);
        if (~(good | sep)) {
            n = (unsigned)__builtin_ctzll(~(good | sep));
            good &= (1ULL << n) - 1;
            sep &= (1ULL << n) - 1;
            single = !(sep & ((sep << 1) | 1 | ((1ULL << n) >> 1)));
        } else {
            uint64_t g2, b2, dig2, same2;
            QK_FAST_CLASSIFY(p + 64, qid, &g2, &b2, &dig2, &same2);
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
                    wx[k - kb] = (x & qk_fast_high[a]) | (0x3030303030303030ULL & ~qk_fast_high[a]);
                    wy[k - kb] = (z & qk_fast_low[b]) | (0x3030303030303030ULL & ~qk_fast_low[b]);
                    defer |= 1ULL << (k - kb);
                    neg |= (uint64_t)(p[s4] == '-') << (k - kb);
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
            QK_FAST_SCORES(scores + kb, wx, wy, defer, neg, 64);
            kb = k;
            defer = neg = 0;
        }
    }
    QK_FAST_SCORES(scores + kb, wx, wy, defer, neg, k - kb);
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
