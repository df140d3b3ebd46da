#!/bin/sh
# A retrieval "system" for `qrelkit tune --cmd`: BM25 by qrelkit search.
# Usage: tune-npl-search.sh QRELKIT INDEX TOPICS K1 B RUN
exec "$1" search -i "$2" -t "$3" --k1 "$4" --b "$5" -o "$6"
