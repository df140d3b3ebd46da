/* api_map: read a qrels file and a TREC run, evaluate, print MAP.
 *
 *   cc api_map.c $(pkg-config --cflags --libs qrelkit) -o api_map
 *   ./api_map qrels.txt run.txt
 *
 * Prints "map<TAB>VALUE" (four decimals, as trec_eval) and one
 * "AP<TAB>topic<TAB>value" line per evaluated topic. Exit 0 on success;
 * on failure the library's message goes to stderr and the exit code is the
 * one qrelkit's CLI would use (1 usage, 2 bad input, 3 I/O). */
#include <qrelkit/qrelkit.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    qk_error err;
    qk_qrels *qrels = NULL;
    qk_measures *measures = NULL;
    qk_eval_result *res = NULL;
    qk_run_stream *run = NULL;
    qk_eval_opts opts;
    qk_status st;
    size_t map;

    if (argc != 3) {
        fprintf(stderr, "usage: %s QRELS RUN\n", argv[0]);
        return 1;
    }
    qk_error_clear(&err);
    /* The measure set: "map" is trec_eval's name ("AP" would do as well). */
    if ((st = qk_measures_new(&measures)) != QK_OK) {
        qk_error_set(&err, st, "out of memory");
        goto out;
    }
    if ((st = qk_measures_add(measures, "map", &err)) != QK_OK ||
        (st = qk_measures_finalize(measures, &err)) != QK_OK)
        goto out;
    /* The qrels are read whole; the run is streamed topic by topic. */
    if ((st = qk_qrels_read(argv[1], QK_REL_QRELS, QK_DEDUP_ERROR, &qrels, &err)) != QK_OK)
        goto out;
    qk_eval_opts_init(&opts); /* trec_eval's defaults: -l 1, no -c, -J, -M */
    if ((st = qk_run_open(argv[2], QK_RUN_STREAM, &run, &err)) != QK_OK ||
        (st = qk_eval_stream(qrels, run, measures, &opts, &res, &err)) != QK_OK)
        goto out;

    map = qk_result_find_value(res, "map");
    for (size_t t = 0; t < qk_result_num_topics(res); t++)
        printf("AP\t%s\t%.4f\n", qk_result_topic(res, t), qk_result_topic_value(res, t, map));
    printf("map\t%.4f\n", qk_result_summary(res, map));
    if (qk_result_num_missing(res) > 0)
        fprintf(stderr, "api_map: %zu qrels topic(s) without run lines were skipped\n",
                qk_result_num_missing(res));
out:
    if (st != QK_OK)
        fprintf(stderr, "api_map: %s\n", err.message);
    qk_eval_result_free(res); /* every *_free / *_close accepts NULL */
    qk_run_close(run);
    qk_qrels_free(qrels);
    qk_measures_free(measures);
    return qk_status_exit_code(st);
}
