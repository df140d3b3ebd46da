#!/bin/sh
# A stand-in retrieval system for tune's --cmd cases: writes run $2 by $1.
case "$1" in
good) printf '1 Q0 d1 1 3 s\n1 Q0 d3 2 2 s\n1 Q0 d2 3 1 s\n2 Q0 d2 1 2 s\n2 Q0 d1 2 1 s\n' > "$2" ;;
bad) printf '1 Q0 d1 1 3 s\n1 Q0 d2 2 2 s\n1 Q0 d3 3 1 s\n2 Q0 d1 1 2 s\n2 Q0 d2 2 1 s\n' > "$2" ;;
fail) exit 1 ;;
norun) exit 0 ;;
wrong) printf '9 Q0 d1 1 3 s\n' > "$2" ;;
esac
