/* qrelkit public API: include this one header. */
#ifndef QRELKIT_H
#define QRELKIT_H

#include "qrelkit/core.h"
#include "qrelkit/crowd.h"
#include "qrelkit/io.h"
#include "qrelkit/eval.h"
#include "qrelkit/sim.h"
#include "qrelkit/stats.h"
#include "qrelkit/search.h"
#include "qrelkit/estimate.h"
#include "qrelkit/pool.h"
#include "qrelkit/tar.h"
#include "qrelkit/topics.h"
#include "qrelkit/budget.h"
#include "qrelkit/topics_adaptive.h"
#include "qrelkit/topics_l2r.h"
#include "qrelkit/gbrt.h"
#include "qrelkit/tar_stop.h"
#include "qrelkit/campaign.h"
#include "qrelkit/shard.h"
#include "qrelkit/tune.h"

#endif
