/* One run of eval's JSON layout, shared by `eval` (cmd_eval.c) and the
 * sampling estimators (eval_estimate.c); in its own file so that neither of
 * the two depends on the other. */
#include <jansson.h>

#include "eval_estimate.h"

json_t *qk_eval_json_run(const char *runid, const char *file, json_t *sum, int summary, json_t *topics,
                         int per_topic)
{
    json_t *jr = json_object();
    json_object_set_new(jr, "run", json_string(runid));
    json_object_set_new(jr, "file", json_string(file));
    if (summary)
        json_object_set_new(jr, "summary", sum);
    else
        json_decref(sum);
    if (per_topic)
        json_object_set_new(jr, "topics", topics);
    else
        json_decref(topics);
    return jr;
}
