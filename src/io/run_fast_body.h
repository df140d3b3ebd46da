/* The body of qk_run_fast_lines (run_fast.c), compiled once per byte
 * classifier: run_fast.c defines QK_FAST_FN (the function's name),
 * QK_FAST_ATTR (its target attribute, or nothing) and QK_FAST_CLASSIFY (a
 * function giving, for the 64 bytes at p, the mask of the bytes that are not
 * a control byte or a blank, and the mask of separators: ' ' and '\t'), then
 * includes this file. Internal to run_fast.c. */

QK_FAST_ATTR static size_t QK_FAST_FN(qk_run_fast *f, const char *p, const char *end, size_t *count)
{
    const char *start = p;
    char *arena = f->arena + f->arena_len;
    size_t k = 0;
    long line = f->line;
    f->stop = QK_FAST_ROOM;
    while (k < f->max && end - p >= QK_FAST_TAIL) {
        uint64_t good, sep, t;
        unsigned n, adv, s1, s2, s3, s4, s5;
        size_t dl, sl;
        double v;
        qk_run_entry *e;
        QK_FAST_CLASSIFY(p, &good, &sep);
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
         * Bit 63 (past any line here) keeps the walk defined when there
         * are fewer than five, and must be all that is left after it. */
        sep &= (1ULL << n) - 1;
        if (p[0] == '#' || (sep & ((sep << 1) | 1 | ((1ULL << n) >> 1))))
            break;
        t = sep | 1ULL << 63;
        s1 = (unsigned)__builtin_ctzll(t);
        t &= t - 1;
        s2 = (unsigned)__builtin_ctzll(t);
        t &= t - 1;
        s3 = (unsigned)__builtin_ctzll(t);
        t &= t - 1;
        s4 = (unsigned)__builtin_ctzll(t);
        t &= t - 1;
        s5 = (unsigned)__builtin_ctzll(t);
        t &= t - 1;
        if (t != 1ULL << 63)
            break;
        if (s1 != f->qlen || !qk_fast_same(p, f->qid, s1)) {
            f->stop = QK_FAST_QID;
            break;
        }
        sl = s5 - s4 - 1;
        if (!qk_scan_decimal(p + s4 + 1, sl, &v) && qk_parse_score(p + s4 + 1, sl, &v) != 0)
            break;
        /* The docno: one 32-byte move for the usual lengths, then its NUL. */
        dl = s3 - s2 - 1;
        if (dl < 32)
            memcpy(arena, p + s2 + 1, 32);
        else
            memcpy(arena, p + s2 + 1, dl);
        arena[dl] = '\0';
        e = &f->ents[k++];
        e->doc_off = (size_t)(arena - f->arena);
        e->score = v;
        e->line = ++line;
        e->topic = f->topic;
        arena += dl + 1;
        f->tag = p + s5 + 1;
        f->tlen = n - s5 - 1; /* a CR is not part of the tag */
        p += adv;
    }
    if (k < f->max && end - p >= QK_FAST_TAIL && f->stop == QK_FAST_ROOM)
        f->stop = QK_FAST_SHAPE;
    f->arena_len = (size_t)(arena - f->arena);
    f->line = line;
    *count = k;
    return (size_t)(p - start);
}
