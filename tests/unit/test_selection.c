/* Measure selection (spec §4): -m names and nicknames, parameter parsing and
 * validation, value names, output order, ir_measures-style aliases. The
 * expected names are the spec's [V] examples and its printf rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "eval_fixture.h"

/* Finalize specs and compare the value names, in output order, to want
 * (NULL-terminated). */
static void names_are_(const char *specs, const char *const *want, const char *file, int line)
{
    qk_measures *m = NULL;
    qk_error err = {0};
    size_t n = 0;
    qk_status st = fx_measures(specs, &m, &err);
    if (st != QK_OK) {
        print_error("'%s': %s\n", specs, err.message);
        qk_measures_free(m);
        _fail(file, line);
    }
    while (want[n])
        n++;
    for (size_t i = 0; i < n || i < qk_measures_num_values(m); i++) {
        const char *got = i < qk_measures_num_values(m) ? qk_measures_value_name(m, i) : "(none)";
        const char *exp = i < n ? want[i] : "(none)";
        fx_checks++;
        if (strcmp(got, exp) != 0) {
            print_error("'%s': value %zu is '%s', expected '%s'\n", specs, i, got, exp);
            qk_measures_free(m);
            _fail(file, line);
        }
    }
    qk_measures_free(m);
}
#define NAMES(specs, ...)                                                                          \
    names_are_((specs), (const char *const[]){__VA_ARGS__, NULL}, __FILE__, __LINE__)

static qk_status finalize_status(const char *specs)
{
    qk_measures *m = NULL;
    qk_error err = {0};
    qk_status st = fx_measures(specs, &m, &err);
    if (st != QK_OK)
        assert_true(err.message[0] != '\0'); /* an error always says why */
    qk_measures_free(m);
    return st;
}

/* §4.2 long cutoffs: atol, sorted ascending, NAME_%ld. */
static void test_long_cutoff_names(void **state)
{
    (void)state;
    NAMES("P.5,7,3", "P_3", "P_5", "P_7");
    NAMES("ndcg_cut.23.4", "ndcg_cut_23");
    NAMES("ndcg_cut.10,20,23.4", "ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23");
    NAMES("P.2147483648", "P_2147483648");
    NAMES("success", "success_1", "success_5", "success_10");
    NAMES("unj", "unj_5", "unj_10", "unj_20");
    NAMES("P", "P_5", "P_10", "P_15", "P_20", "P_30", "P_100", "P_200", "P_500", "P_1000");
}

/* §4.2 double cutoffs: atof, sorted, "%3.2f" cut to strlen(NAME)+9 bytes. */
static void test_double_cutoff_names(void **state)
{
    (void)state;
    NAMES("iprec_at_recall..10,.20,.25,.75,.50", "iprec_at_recall_0.10", "iprec_at_recall_0.20",
          "iprec_at_recall_0.25", "iprec_at_recall_0.50", "iprec_at_recall_0.75");
    NAMES("Rprec_mult.5.0,0.2,0.35", "Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00");
    NAMES("Rprec_mult.123456.5", "Rprec_mult_123456.5");
    NAMES("iprec_at_recall.1e3", "iprec_at_recall_1000.00");
    /* printf rounding of the binary value: 0.125 -> 0.12, 0.115 -> 0.12, 0.005 -> 0.01. */
    NAMES("iprec_at_recall.0.125", "iprec_at_recall_0.12");
    NAMES("iprec_at_recall.0.115", "iprec_at_recall_0.12");
    NAMES("iprec_at_recall.0.005", "iprec_at_recall_0.01");
    /* Two cutoffs printing the same name are both kept. */
    NAMES("iprec_at_recall.0.125,0.12", "iprec_at_recall_0.12", "iprec_at_recall_0.12");
    NAMES("Rprec_mult", "Rprec_mult_0.20", "Rprec_mult_0.40", "Rprec_mult_0.60", "Rprec_mult_0.80",
          "Rprec_mult_1.00", "Rprec_mult_1.20", "Rprec_mult_1.40", "Rprec_mult_1.60",
          "Rprec_mult_1.80", "Rprec_mult_2.00");
}

/* §4.2 double params and pairs keep the verbatim string. */
static void test_verbatim_names(void **state)
{
    (void)state;
    NAMES("utility.2,-1,0,0", "utility_2,-1,0,0");
    NAMES("utility", "utility");
    NAMES("11pt_avg..25,.5,.75", "11pt_avg_.25,.5,.75"); /* -m NAME.PARAMS: params ".25,.5,.75" */
    NAMES("11pt_avg", "11pt_avg");
    NAMES("set_F.0.5,9", "set_F_0.5,9");
    NAMES("relstring.3.7", "relstring_3.7");
    NAMES("ndcg.1=3,2=9,4=4.5", "ndcg_1=3,2=9,4=4.5");
    NAMES("rbp.p=0.5", "rbp_p=0.5");
    NAMES("ndcg.=2", "ndcg_=2"); /* empty names and values are allowed */
    NAMES("ndcg", "ndcg");
}

/* §4.1: the first parameterised -m of a name wins; marking is idempotent;
 * output follows the table order, not the -m order. */
static void test_first_wins_and_order(void **state)
{
    (void)state;
    NAMES("P.5 P.10", "P_5");
    NAMES("P.10 P P.5", "P_10");
    NAMES("map map map", "map");
    NAMES("all_trec relstring.20 utility.2,0,0,0", "runid", "num_q", "num_ret", "num_rel",
          "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall_0.00",
          "iprec_at_recall_0.10", "iprec_at_recall_0.20", "iprec_at_recall_0.30",
          "iprec_at_recall_0.40", "iprec_at_recall_0.50", "iprec_at_recall_0.60",
          "iprec_at_recall_0.70", "iprec_at_recall_0.80", "iprec_at_recall_0.90",
          "iprec_at_recall_1.00", "P_5", "P_10", "P_15", "P_20", "P_30", "P_100", "P_200", "P_500",
          "P_1000", "relstring_20", "recall_5", "recall_10", "recall_15", "recall_20", "recall_30",
          "recall_100", "recall_200", "recall_500", "recall_1000", "infAP", "gm_bpref",
          "Rprec_mult_0.20", "Rprec_mult_0.40", "Rprec_mult_0.60", "Rprec_mult_0.80",
          "Rprec_mult_1.00", "Rprec_mult_1.20", "Rprec_mult_1.40", "Rprec_mult_1.60",
          "Rprec_mult_1.80", "Rprec_mult_2.00", "utility_2,0,0,0", "11pt_avg", "binG", "G", "ndcg",
          "ndcg_rel", "Rndcg", "ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_15", "ndcg_cut_20",
          "ndcg_cut_30", "ndcg_cut_100", "ndcg_cut_200", "ndcg_cut_500", "ndcg_cut_1000",
          "map_cut_5", "map_cut_10", "map_cut_15", "map_cut_20", "map_cut_30", "map_cut_100",
          "map_cut_200", "map_cut_500", "map_cut_1000", "relative_P_5", "relative_P_10",
          "relative_P_15", "relative_P_20", "relative_P_30", "relative_P_100", "relative_P_200",
          "relative_P_500", "relative_P_1000", "success_1", "success_5", "success_10", "set_P",
          "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp",
          "rbp_resid", "unj_5", "unj_10", "unj_20");
    /* §11 command 14's table order: iprec, P, recall, Rprec_mult, utility, 11pt_avg, ndcg, ndcg_cut, success. */
    NAMES("success.1 ndcg_cut.7 ndcg.1=3 11pt_avg.0.5 utility.1,0,0,0 Rprec_mult.1 recall.3 P.2 "
          "iprec_at_recall.0.5",
          "iprec_at_recall_0.50", "P_2", "recall_3", "Rprec_mult_1.00", "utility_1,0,0,0",
          "11pt_avg_0.5", "ndcg_1=3", "ndcg_cut_7", "success_1");
    /* Parameters given to a nickname apply to nothing. */
    NAMES("official.5 P.3", "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
          "Rprec", "bpref", "recip_rank", "iprec_at_recall_0.00", "iprec_at_recall_0.10",
          "iprec_at_recall_0.20", "iprec_at_recall_0.30", "iprec_at_recall_0.40",
          "iprec_at_recall_0.50", "iprec_at_recall_0.60", "iprec_at_recall_0.70",
          "iprec_at_recall_0.80", "iprec_at_recall_0.90", "iprec_at_recall_1.00", "P_3");
}

/* With nothing requested, official is used: 10 single values, 11 iprec, 9 P. */
static void test_default_official(void **state)
{
    qk_measures *m = NULL;
    qk_error err = {0};
    (void)state;
    STATUS(fx_measures(NULL, &m, &err), QK_OK);
    COUNT(qk_measures_num_values(m), 10 + 11 + 9);
    STREQ(qk_measures_value_name(m, 0), "runid");
    STREQ(qk_measures_value_name(m, 5), "map");
    STREQ(qk_measures_value_name(m, 29), "P_1000");
    qk_measures_free(m);
}

/* §4.3 and §1.2: bad names and parameters are usage errors. */
static void test_parameter_errors(void **state)
{
    static const char *const bad[] = {
        "P.0",            /* cutoff <= 0 */
        "P.10,abc",       /* abc -> 0 */
        "P.-3",           /* negative */
        "success.1,01",   /* duplicate after atol */
        "P.5,5",          /* duplicate */
        "iprec_at_recall.0.5,.50", /* duplicate double cutoff */
        "ndcg.1",         /* pair without '=' */
        "ndcg.1=2=3",     /* two '=' */
        "rbp.p=0.5,x",    /* one bad item */
        "map.",           /* empty parameter string */
        "P.",
        "foo",            /* unknown */
        "foo.5",
        "all_qrels",      /* named in the usage text, does not exist */
        "ndcg_p",         /* in the source tree, not registered */
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        qk_status st = finalize_status(bad[i]);
        fx_checks++;
        if (st != QK_EUSAGE)
            fail_msg("'%s' gave status %d, expected QK_EUSAGE", bad[i], st);
    }
    /* Valid edge cases. */
    STATUS(finalize_status("ndcg.=2"), QK_OK);
    STATUS(finalize_status("P.2147483648"), QK_OK);
    STATUS(finalize_status("official.5"), QK_OK);
}

static int contains(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

/* Compare a nickname's members with the spec's list, as sets. */
static void members_are_(const char *nick, const char *const *want, const char *file, int line)
{
    const char *const *got = qk_nickname_members(nick);
    size_t ng = 0, nw = 0;
    if (!got) {
        print_error("no nickname '%s'\n", nick);
        _fail(file, line);
    }
    for (; got[ng]; ng++)
        if (!contains(want, got[ng])) {
            print_error("%s: unexpected member '%s'\n", nick, got[ng]);
            _fail(file, line);
        }
    for (; want[nw]; nw++)
        if (!contains(got, want[nw])) {
            print_error("%s: missing member '%s'\n", nick, want[nw]);
            _fail(file, line);
        }
    fx_count_((long)ng, (long)nw, nick, file, line);
}
#define MEMBERS(nick, ...)                                                                         \
    members_are_((nick), (const char *const[]){__VA_ARGS__, NULL}, __FILE__, __LINE__)

#define OFFICIAL                                                                                   \
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",      \
        "recip_rank", "iprec_at_recall", "P"

/* §4.5 nicknames. */
static void test_nicknames(void **state)
{
    const char *const *all;
    size_t n = 0;
    (void)state;
    MEMBERS("official", OFFICIAL);
    MEMBERS("all_trec", OFFICIAL, "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
            "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success",
            "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret");
    MEMBERS("set", "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F");
    MEMBERS("all_prefs", "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
            "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
            "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
            "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp");
    MEMBERS("prefs", "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
            "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg");
    MEMBERS("qrels_jg", "runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg");
    assert_null(qk_nickname_members("all_qrels"));
    assert_null(qk_nickname_members("map"));
    /* all_trec has 12 + 25 = 37 members and leaves out dcg, ideal_dcg, yaap. */
    all = qk_nickname_members("all_trec");
    while (all[n])
        n++;
    COUNT(n, 37);
    COUNT(contains(all, "dcg") + contains(all, "ideal_dcg") + contains(all, "yaap"), 0);
}

/* §4.4: the table order (the first rows and a few fixed positions). */
static void test_table(void **state)
{
    static const char *const first[] = {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret",
                                        "map", "gm_map", "Rprec", "bpref", "recip_rank",
                                        "iprec_at_recall", "P", "relstring", "recall"};
    (void)state;
    assert_true(qk_measure_count() >= 57);
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
        STREQ(qk_measure_at(i)->name, first[i]);
    STREQ(qk_measure_at(35)->name, "num_nonrel_judged_ret");
    STREQ(qk_measure_at(36)->name, "prefs_num_prefs_poss");
    STREQ(qk_measure_at(50)->name, "map_avgjg");
    STREQ(qk_measure_at(53)->name, "yaap");
    STREQ(qk_measure_at(56)->name, "unj");
    COUNT(qk_measure_find("P")->param_kind, QK_PARAM_LONG_CUTOFFS);
    COUNT(qk_measure_find("Rprec_mult")->param_kind, QK_PARAM_DOUBLE_CUTOFFS);
    COUNT(qk_measure_find("utility")->param_kind, QK_PARAM_DOUBLE_LIST);
    COUNT(qk_measure_find("rbp")->param_kind, QK_PARAM_PAIRS);
    COUNT(qk_measure_find("num_rel")->summary, QK_SUMMARY_SUM);
    COUNT(qk_measure_find("gm_bpref")->summary, QK_SUMMARY_GEO);
    COUNT(qk_measure_find("relstring")->summary, QK_SUMMARY_NONE);
    assert_null(qk_measure_find("ndcg_p"));
}

/* ir_measures-style aliases. */
static void alias_is_(const char *alias, const char *want, const char *file, int line)
{
    char buf[128];
    int ok = qk_measure_alias(alias, buf, sizeof buf);
    fx_checks++;
    if (want && (!ok || strcmp(buf, want) != 0)) {
        print_error("alias '%s' -> %s'%s', expected '%s'\n", alias, ok ? "" : "(none) ", ok ? buf : "",
                    want);
        _fail(file, line);
    }
    if (!want && ok) {
        print_error("'%s' should not be an alias (gave '%s')\n", alias, buf);
        _fail(file, line);
    }
}
#define ALIAS(a, want) alias_is_((a), (want), __FILE__, __LINE__)

static void test_aliases(void **state)
{
    (void)state;
    ALIAS("nDCG@10", "ndcg_cut.10");
    ALIAS("P@5", "P.5");
    ALIAS("AP", "map");
    ALIAS("AP@100", "map_cut.100");
    ALIAS("R@100", "recall.100");
    ALIAS("RR", "recip_rank");
    ALIAS("nDCG", "ndcg");
    ALIAS("Judged@10", "judged.10");
    ALIAS("RBP(p=0.8)", "rbp.p=0.8");
    ALIAS("map", NULL);
    ALIAS("P@", NULL);
    ALIAS("XYZ@3", NULL);
    /* Aliases go through qk_measures_add like -m arguments. */
    NAMES("nDCG@10 P@5 AP", "map", "P_5", "ndcg_cut_10");
    NAMES("RBP(p=0.8)", "rbp_p=0.8");
    NAMES("Judged@10", "judged_10");
}

/* An alias evaluates to the same value as its trec_eval spelling. */
static void test_alias_values(void **state)
{
    static const char q[] = "q 0 a 2\nq 0 b 0\nq 0 c 1\n";
    static const char r[] = "q 0 b 1 3 r\nq 0 a 2 2 r\nq 0 x 3 1 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q, r, "nDCG@2 AP RBP(p=0.8) Judged@2", NULL);
    /* ndcg_cut_2: DCG = 2/log2(3); ideal 2, 1 -> 2 + 1/log2(3). */
    CLOSE(fx_val(&e, "q", "ndcg_cut_2"), (2 / log2(3)) / (2 + 1 / log2(3)));
    CLOSE(fx_val(&e, "q", "map"), (1.0 / 2) / 2);
    /* rbp: gains halved (level 2): (1-p) * (0 + 1 * p). */
    CLOSE(fx_val(&e, "q", "rbp_p=0.8"), 0.2 * 0.8);
    CLOSE(fx_val(&e, "q", "judged_2"), 1.0);
    fx_done(&e);
}

/* Strict parameters: every item whole, of its kind; the error names what
 * was typed and the bad item. Each bad spec is one trec_eval's atol/atof
 * would read as a prefix (5x -> 5, 1e3 -> 1, abc -> 0, nan, 2 for p). */
static void error_is_(const char *spec, const char *want, const char *file, int line)
{
    qk_measures *m = NULL;
    qk_error err = {0};
    qk_status st = fx_measures(spec, &m, &err);
    qk_measures_free(m);
    fx_checks++;
    if (st != QK_EUSAGE || strcmp(err.message, want) != 0) {
        print_error("'%s': status %d, message '%s', expected '%s'\n", spec, st, err.message, want);
        _fail(file, line);
    }
}
#define ERROR_IS(spec, want) error_is_((spec), (want), __FILE__, __LINE__)

static void test_strict_parameters(void **state)
{
    (void)state;
    ERROR_IS("P.5x", "measure 'P.5x': cutoff '5x' is not a positive integer");
    ERROR_IS("P.1e3", "measure 'P.1e3': cutoff '1e3' is not a positive integer");
    ERROR_IS("P.10,abc", "measure 'P.10,abc': cutoff 'abc' is not a positive integer");
    ERROR_IS("P.5,,10", "measure 'P.5,,10': cutoff '' is not a positive integer");
    ERROR_IS("P.5.", "measure 'P.5.': cutoff '5.' is not a positive integer");
    ERROR_IS("P@5x", "measure 'P@5x': cutoff '5x' is not a positive integer");
    ERROR_IS("P.99999999999999999999", "measure 'P.99999999999999999999': cutoff '99999999999999999999' is not "
                                       "a positive integer");
    ERROR_IS("RBP(p=2)", "measure 'RBP(p=2)': persistence of 'p': '2' is not a number in (0, 1)");
    ERROR_IS("rbp.p=0", "measure 'rbp.p=0': persistence of 'p': '0' is not a number in (0, 1)");
    ERROR_IS("rbp_resid.p=1", "measure 'rbp_resid.p=1': persistence of 'p': '1' is not a number in (0, 1)");
    ERROR_IS("ndcg.1=nan", "measure 'ndcg.1=nan': gain of '1': 'nan' is not a number");
    ERROR_IS("ndcg.1=3,2=9x", "measure 'ndcg.1=3,2=9x': gain of '2': '9x' is not a number");
    ERROR_IS("ndcg.1=", "measure 'ndcg.1=': gain of '1': '' is not a number");
    ERROR_IS("utility.1,-1,0,x", "measure 'utility.1,-1,0,x': parameter: 'x' is not a number");
    ERROR_IS("iprec_at_recall..1,inf", "measure 'iprec_at_recall..1,inf': cutoff: 'inf' is not a number");
    ERROR_IS("ndcg.1", "measure 'ndcg.1': malformed pair '1' (want name=value,...)");
    ERROR_IS("P.5,5", "measure 'P.5,5': duplicate cutoff 5");
    /* Checked when given, even when an earlier -m of the measure wins. */
    ERROR_IS("P.5 P.5x", "measure 'P.5x': cutoff '5x' is not a positive integer");
    /* trec_eval's own spellings stay: its test suite's command 14, and the
     * truncated decimal cutoff it uses (23.4 is 23). */
    NAMES("P.5,10", "P_5", "P_10");
    NAMES("iprec_at_recall..1,.2", "iprec_at_recall_0.10", "iprec_at_recall_0.20");
    NAMES("ndcg.1=3,2=9", "ndcg_1=3,2=9");
    NAMES("utility.1,-1,0,0", "utility_1,-1,0,0");
    NAMES("P.+5", "P_5");
    NAMES("rbp.p=0.5,2=-1e1", "rbp_p=0.5,2=-1e1");
    NAMES("map.5x", "map"); /* parameters of parameterless measures are ignored, as trec_eval does */
}

/* Value names are accepted spellings too: P_10 is P.10. */
static void test_value_name_spellings(void **state)
{
    (void)state;
    NAMES("P_10", "P_10");
    NAMES("ndcg_cut_10 map_cut_100", "ndcg_cut_10", "map_cut_100");
    NAMES("iprec_at_recall_0.10", "iprec_at_recall_0.10");
    NAMES("utility_2,-1,0,0", "utility_2,-1,0,0");
    NAMES("rbp_p=0.5 rbp_resid_p=0.5", "rbp_p=0.5", "rbp_resid_p=0.5");
    NAMES("relative_P_5 P_avgjg_5", "relative_P_5", "P_avgjg_5");
    NAMES("set_F_0.5", "set_F_0.5");
    NAMES("set_P gm_map", "gm_map", "set_P"); /* measures whose names hold '_' are themselves */
    ERROR_IS("P_5x", "measure 'P_5x': cutoff '5x' is not a positive integer");
    ERROR_IS("map_x", "unknown measure 'map_x' (see --list-measures)");
}

/* qk_measures_value_index: one value by any spelling. */
static void index_is_(const char *specs, const char *spec, const char *want, const char *file, int line)
{
    qk_measures *m = NULL;
    qk_error err = {0};
    size_t i = 12345;
    qk_status st = fx_measures(specs, &m, &err);
    if (st == QK_OK)
        st = qk_measures_value_index(m, spec, &i, &err);
    fx_checks++;
    if (want[0] != '!' && (st != QK_OK || strcmp(qk_measures_value_name(m, i), want) != 0)) {
        print_error("'%s' in '%s': %s\n", spec, specs, st ? err.message : qk_measures_value_name(m, i));
        qk_measures_free(m);
        _fail(file, line);
    }
    if (want[0] == '!' && (st != QK_EUSAGE || strcmp(err.message, want + 1) != 0)) {
        print_error("'%s' in '%s': status %d '%s', expected '%s'\n", spec, specs, st, err.message, want + 1);
        qk_measures_free(m);
        _fail(file, line);
    }
    qk_measures_free(m);
}
#define INDEX_IS(specs, spec, want) index_is_((specs), (spec), (want), __FILE__, __LINE__)

static void test_value_index(void **state)
{
    (void)state;
    INDEX_IS("map P", "P_10", "P_10");
    INDEX_IS("map P", "P.10", "P_10");
    INDEX_IS("map P", "P@10", "P_10");
    INDEX_IS("map P", "P", "P_5");
    INDEX_IS("map P", "AP", "map");
    INDEX_IS("map ndcg_cut", "nDCG@20", "ndcg_cut_20");
    INDEX_IS("iprec_at_recall", "iprec_at_recall_0.10", "iprec_at_recall_0.10");
    INDEX_IS("iprec_at_recall", "iprec_at_recall.0.1", "iprec_at_recall_0.10");
    INDEX_IS("ndcg.1=3", "ndcg", "ndcg_1=3");
    INDEX_IS("P.5 P.10", "P.10", "!'P.10' (P_10) is not computed: the first parameters given to 'P' win");
    INDEX_IS("map", "P_10", "!unknown measure 'P_10' (see --list-measures)");
    INDEX_IS("P", "P.5,10", "!'P.5,10' names 2 values, not one");
    INDEX_IS("official", "official", "!'official' is a nickname for several measures; name one");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_cutoff_names),
        cmocka_unit_test(test_double_cutoff_names),
        cmocka_unit_test(test_verbatim_names),
        cmocka_unit_test(test_first_wins_and_order),
        cmocka_unit_test(test_default_official),
        cmocka_unit_test(test_parameter_errors),
        cmocka_unit_test(test_nicknames),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_aliases),
        cmocka_unit_test(test_alias_values),
        cmocka_unit_test(test_strict_parameters),
        cmocka_unit_test(test_value_name_spellings),
        cmocka_unit_test(test_value_index),
    };
    return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
