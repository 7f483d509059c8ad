#!/bin/sh
# expect-exit.sh N COMMAND [ARG...]: runs COMMAND and succeeds only when it
# exits with status N. For a lit RUN line that checks a tool's exit status
# and pipes its output on (to FileCheck, count): under pipefail the line
# then fails when either the status or the check is wrong.
Want=$1
shift
"$@"
Got=$?
[ "$Got" -eq "$Want" ] && exit 0
echo "expect-exit: '$1' exited with status $Got, not $Want" >&2
exit 1
